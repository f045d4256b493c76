#!/usr/bin/env python3
"""consistency_check: one estimate behind every number clearpath prints for a store.

usage: consistency_check.py CLEARPATH STORE

For the views `make run` prints (mem/clear and mem/memset by -f with base default,
mem/mmap by swprofile), in every table format (box, grid, compact, markdown, csv, with
--stats so that every cell prints its level) and in JSON, checks:
  - base x (1 + change) = the cell's printed level, relative error at most 0.05%, for
    every cell with a change; each format prints the same level and change as JSON;
  - a one-row table's geometric mean equals its row (every row, shown alone);
  - every percentage and level `report --answer` quotes is the mem/clear table's own
    cell, in the row the sentence names, with its mark.
Prints what it checked; exit 0 when all hold, 1 with the reasons otherwise.
"""
import csv
import io
import json
import re
import subprocess
import sys

VIEWS = [
    ["--columns", "param:f", "--base", "default", "--benchmark", "mem/clear"],
    ["--columns", "param:f", "--base", "default", "--benchmark", "mem/memset"],
    ["--benchmark", "mem/mmap"],
]
FORMATS = ["box", "grid", "compact", "markdown", "csv"]
TOLERANCE = 5e-4
NUM = r"[+-]?\d+\.\d+(?:e[+-]\d+)?"
CHANGE = re.compile(r"^(?:\((?:I|R|\?|-)\) )?(" + NUM + r")% (?:\[[^\]]*\] )?at (" + NUM + r") n=")
LEVEL = re.compile(r"^(" + NUM + r")(?: ±| n=|$)")


def same(text, value):
    """Whether the printed number @text is @value rounded to the decimals it has."""
    dec = len(text.split(".")[1]) if "." in text and "e" not in text else 2
    return abs(float(text) - value) <= 0.5 * 10 ** -dec * (1 + 1e-9) + 1e-12


def run(cp, *args):
    return subprocess.run([cp, *args], check=True, capture_output=True, text=True).stdout


def table_rows(text, fmt):
    """{result class label: [cell texts]} and the columns (names without "(base)"), per format."""
    rows, head = {}, None
    if fmt == "csv":
        records = list(csv.reader(io.StringIO(text)))
        head = records[0][3:]
        for r in records[1:]:
            rows[r[2]] = r[3:]
        return rows, head
    if fmt == "compact":
        return compact_rows(text)
    sep = "│" if fmt == "box" else "|"
    if fmt == "markdown":
        text = re.sub(r"\\([\[\]*_`|\\])", r"\1", text)
    for line in text.splitlines():
        if not line.startswith(sep):
            continue
        cells = [c.strip() for c in line.strip()[1:-1].split(sep)]
        if cells[0] == "Benchmark":
            head = cells[2:]
        elif head is not None and not set(line) <= set("|-: "):
            rows[cells[1]] = cells[2:]
    return rows, head


def compact_rows(text):
    """compact: the column letters its legend gives ("  A: default (base)"), then a row per result class."""
    letters, rows, cur, head = {}, {}, None, []
    last, legend = None, True
    for line in text.splitlines():
        m = re.match(r"^  ([A-Z]+): (.*)$", line)
        if legend and m:
            letters[m.group(1)] = len(head)
            head.append(m.group(2))
            continue
        if line.startswith("Benchmark / Result Class"):
            legend = False
            continue
        if legend:
            continue
        if re.match(r"^  \S", line):
            cur = line.strip()
            rows[cur] = [""] * len(head)
            last = None
        elif cur is not None and (m := re.match(r"^    ([A-Z]+) (.*)$", line)) and m.group(1) in letters:
            last = letters[m.group(1)]
            rows[cur][last] = m.group(2)
        elif cur is not None and line.startswith("      ") and last is not None:
            rows[cur][last] += " " + line.strip()
        elif not line.startswith(" "):
            cur = None
    return rows, head


def base_index(head):
    return next(i for i, h in enumerate(head) if h.endswith(" (base)"))


def check_text(fmt, text, doc, problems):
    """Every change cell of a table format against its base and against JSON; the cells checked."""
    rows, head = table_rows(text, fmt)
    b, checked = base_index(head), 0
    json_rows = {f"{r['resultclass']} ({r['unit']})": r for blk in doc["blocks"] for r in blk["results"]}
    for label, cells in rows.items():
        if label not in json_rows:
            continue
        m = LEVEL.match(cells[b])
        if not m:
            continue
        base = float(m.group(1))
        for c, text_cell in enumerate(cells):
            j = json_rows[label]["columns"][c]
            m = CHANGE.match(text_cell)
            if c == b or not m:
                if c != b and j.get("change_pct") is not None:
                    problems.append(f"{fmt}: {label} {head[c]}: {text_cell!r} prints no change and level")
                continue
            pct, level = float(m.group(1)), float(m.group(2))
            checked += 1
            if abs(base * (1 + pct / 100) / level - 1) > TOLERANCE:
                problems.append(f"{fmt}: {label} {head[c]}: base {base} x (1 + {pct}%) is not the level {level}")
            if not same(m.group(1), j["change_pct"]) or not same(m.group(2), j["level"]):
                problems.append(f"{fmt}: {label} {head[c]}: {pct}% at {level}, JSON has {j['change_pct']}% at"
                                f" {j['level']}")
    return checked


def check_json(doc, problems):
    checked = 0
    for blk in doc["blocks"]:
        for r in blk["results"]:
            base = next(c for c in r["columns"] if c["base"])
            for c in r["columns"]:
                if c["base"] or c.get("change_pct") is None:
                    continue
                checked += 1
                implied = base["level"] * (1 + c["change_pct"] / 100)
                if abs(implied / c["level"] - 1) > TOLERANCE:
                    problems.append(f"json: {r['resultclass']} {c}: base x (1 + change) = {implied}")
    return checked


def one_row_of(cp, store, view, rclass):
    """The show arguments that select row @rclass alone, the JSON and its rows: by -f, the row's class
    lacks the "-f NAME" its samples' classes have, so that is tried at each place."""
    words = [re.sub(r"([*?\[])", r"[\1]", w) for w in rclass.split(" ")]
    at = view.index("--benchmark")
    for i in range(len(words) + 1):
        glob = " ".join(words if i == 0 else words[:i] + ["-f", "*"] + words[i:])
        args = ["show", "--store", store, *view[:at + 1], glob, *view[at + 2:]]
        p = subprocess.run([cp, *args, "--format", "json"], capture_output=True, text=True)
        if p.returncode:
            continue
        one = json.loads(p.stdout)
        rows = [x for b in one["blocks"] for x in b["results"]]
        if len(rows) == 1 and rows[0]["resultclass"] == rclass:
            return args, one, rows
    return None, None, []


def check_one_row(cp, store, view, doc, problems):
    """Each row shown alone: its geometric mean is its row, in JSON and in grid; the rows checked."""
    checked = 0
    for blk in doc["blocks"]:
        for r in blk["results"]:
            args, one, rows = one_row_of(cp, store, view, r["resultclass"])
            if len(rows) != 1:
                problems.append(f"{r['resultclass']}: no --benchmark shows this row alone")
                continue
            checked += 1
            g = one["blocks"][0]["geomean"]
            for c, gc in zip(rows[0]["columns"], g["columns"] if g else []):
                if c.get("change_pct") is not None and abs(gc["change_pct"] - c["change_pct"]) > 1e-9:
                    problems.append(f"{r['resultclass']} {c}: geomean {gc['change_pct']}% is not its row's")
            grid = run(cp, *args, "--format", "grid", "--width", "0")
            cells, head = table_rows(grid, "grid")
            geo = cells.get("geometric mean of ratios (+ is better)") or cells.get(
                "geometric mean of ratios (- is better)")
            row = next(v for k, v in cells.items() if not k.startswith("geometric mean"))
            for c, text_cell in enumerate(row):
                if CHANGE.match(text_cell + " at 0.00 n=") or re.match(r"^(\(.\) )?[+-]", text_cell):
                    pct = re.search(NUM + "%", text_cell).group(0)
                    if geo is None or geo[c] != pct:
                        problems.append(f"grid: {r['resultclass']} {head[c]}: geomean {geo and geo[c]!r},"
                                        f" row {pct!r}")
    return checked


ANSWER = re.compile(r"(?:fastest clear(?:-then-read)? \(row \"(?P<row>[^\"]+)\"\): (?P<col>\S+) at "
                    r"|after non-temporal (?P<ncol>\S+) the consumer reads at )"
                    r"(?P<lvl>\d+\.\d+) (?P<unit>(?:GB|MB|KB|bytes)/sec)(?:, (?P<mark>\([IR?-]\) )?(?P<pct>[+-]\d+\.\d+)% vs (?P<base>\S+))?"
                    r"(?: \(row \"(?P<nrow>[^\"]+)\"\))?")
RUNNER = re.compile(r"not distinguishable from (?P<col>\S+) \((?P<lvl>\d+\.\d+) (?P<unit>(?:GB|MB|KB|bytes)/sec)"
                    r"(?:, (?P<mark>\([IR?-]\) )?(?P<pct>[+-]\d+\.\d+)% vs \S+)?\)")
MARKS = {"improvement": "(I) ", "regression": "(R) ", "undecided": "(?) ", "insufficient": "(-) "}
SCALE = {"GB/sec": 2 ** 30, "MB/sec": 2 ** 20, "KB/sec": 2 ** 10, "bytes/sec": 1}


def check_quote(row, col, m, cells, problems):
    cell = cells.get((row, col))
    if cell is None:
        problems.append(f"answer quotes {col} in row {row!r}, which the table does not have")
        return
    if f"{cell['level'] / SCALE[m.group('unit')]:.2f}" != m.group("lvl"):
        problems.append(f"answer: {row} {col} at {m.group('lvl')} {m.group('unit')}, the table's level is"
                        f" {cell['level']}")
    if m.group("pct") is not None and (not same(m.group("pct"), cell["change_pct"])
                                       or MARKS.get(cell["state"], "") != (m.group("mark") or "")):
        problems.append(f"answer: {row} {col} {m.group('mark') or ''}{m.group('pct')}%, the table has"
                        f" {cell['state']} {cell.get('change_pct')}%")


def check_answer(cp, store, problems):
    doc = json.loads(run(cp, "show", "--store", store, *VIEWS[0], "--format", "json"))
    cells = {(r["resultclass"], c["value"]): c for b in doc["blocks"] for r in b["results"] for c in r["columns"]}
    text = " ".join(run(cp, "report", "--store", store, "--answer").split())
    quoted = 0
    for sentence in re.split(r"(?<=\.) (?=fastest|after|\d)", text):
        m = ANSWER.search(sentence)
        if not m:
            continue
        row = m.group("row") or m.group("nrow")
        check_quote(row, m.group("col") or m.group("ncol"), m, cells, problems)
        quoted += 1
        for r in RUNNER.finditer(sentence):
            check_quote(row, r.group("col"), r, cells, problems)
            quoted += 1
    if not quoted:
        problems.append("the answer quotes nothing: " + text[:200])
    return quoted


def main():
    cp, store = sys.argv[1:3]
    problems, counts = [], {"json": 0, "text": 0, "one-row": 0}
    for view in VIEWS:
        doc = json.loads(run(cp, "show", "--store", store, *view, "--format", "json"))
        counts["json"] += check_json(doc, problems)
        for fmt in FORMATS:
            text = run(cp, "show", "--store", store, *view, "--format", fmt, "--stats", "--units", "raw",
                       "--width", "0")
            counts["text"] += check_text(fmt, text, doc, problems)
        counts["one-row"] += check_one_row(cp, store, view, doc, problems)
    counts["answer"] = check_answer(cp, store, problems)
    print(f"{counts['json']} JSON cells, {counts['text']} table cells in {len(FORMATS)} formats,"
          f" {counts['one-row']} one-row tables, {counts['answer']} quotes of the answer checked")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
