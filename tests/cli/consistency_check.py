#!/usr/bin/env python3
"""consistency_check: one estimate behind every number clearpath prints for a store.

usage: consistency_check.py CLEARPATH STORE

For the views `make run` prints (mem/clear and mem/memset by -f with base default,
mem/mmap by swprofile), in every table format (box, grid, compact, markdown, csv, with
--stats so that every cell prints its level) and in JSON, checks:
  - base x (1 + change) = the cell's printed level, relative error at most 0.05%, for
    every cell with a change; each format prints the same level and change as JSON,
    and the mark of JSON's state: one vocabulary, (I), (R), (?) undecided, (-) too
    little data, unmarked decided-same, which every format's legend (and JSON's) names;
  - a one-row table's geometric mean equals its row (every row, shown alone), in JSON
    and in every table format;
  - every percentage and level `report --answer` quotes is the mem/clear table's own
    cell, in the row the sentence names, with its mark;
  - the HTML report (`report -o`): every cell of its result tables and of its study
    tables is JSON's (level, change, mark), base x (1 + change) is the level within
    the printed digits, and its answer in words quotes the table as --answer does.
Prints what it checked; exit 0 when all hold, 1 with the reasons otherwise.
"""
import csv
import html
import html.parser
import io
import json
import os
import re
import subprocess
import sys
import tempfile

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
            # short cells share a line ("B -42.57%  C +26.22%"), two blanks apart
            for part in re.split(r"  (?=[A-Z]+ )", line.strip()):
                letter, _, value = part.partition(" ")
                last = letters[letter]
                rows[cur][last] = value
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
    if fmt != "csv":
        check_legend(fmt, " ".join(text.split()), problems)
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
            mark = re.match(r"^\([IR?-]\) ", text_cell)
            checked += 1
            if (mark.group(0) if mark else "") != MARKS.get(j["state"], ""):
                problems.append(f"{fmt}: {label} {head[c]}: {text_cell!r} is not marked as JSON's {j['state']}")
            if abs(base * (1 + pct / 100) / level - 1) > TOLERANCE:
                problems.append(f"{fmt}: {label} {head[c]}: base {base} x (1 + {pct}%) is not the level {level}")
            if not same(m.group(1), j["change_pct"]) or not same(m.group(2), j["level"]):
                problems.append(f"{fmt}: {label} {head[c]}: {pct}% at {level}, JSON has {j['change_pct']}% at"
                                f" {j['level']}")
    return checked


# What every legend says, the one vocabulary of a cell's state (result_state_mark()).
LEGEND = ["(I) improvement", "(R) regression", "(?) undecided", "(-) too little data", "unmarked: no change"]


def check_legend(where, text, problems):
    missing = [w for w in LEGEND if w not in text]
    if missing:
        problems.append(f"{where}: the legend does not name {missing}")


def check_json(doc, problems):
    checked = 0
    for blk in doc["blocks"]:
        check_legend("json", " ".join(n["text"] for n in blk["notes"] if n["kind"] == "legend"), problems)
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
    """Each row shown alone: its geometric mean is its row, in JSON and in every table format; the rows checked."""
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
            for fmt in FORMATS:
                check_one_row_text(fmt, run(cp, *args, "--format", fmt, "--stats", "--units", "raw", "--width", "0"),
                                   r["resultclass"], problems)
    return checked


def check_one_row_text(fmt, text, rclass, problems):
    """A one-row table in format @fmt: its geometric-mean row prints each column's change as the row does."""
    cells, head = table_rows(text, fmt)
    geo = next((v for k, v in cells.items() if k.startswith("geometric mean of ratios (")), None)
    row = next(v for k, v in cells.items() if not k.startswith("geometric mean"))
    for c, text_cell in enumerate(row):
        if CHANGE.match(text_cell) or re.match(r"^(\(.\) )?[+-]", text_cell):
            pct = re.search(NUM + "%", text_cell).group(0)
            if geo is None or geo[c] != pct:
                problems.append(f"{fmt}: {rclass} {head[c]}: geomean {geo and geo[c]!r}, row {pct!r}")


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


def check_answer(cp, store, problems, text=None):
    """The answer's quotes (--answer's, or @text: the page's) against the mem/clear table; how many."""
    doc = json.loads(run(cp, "show", "--store", store, *VIEWS[0], "--format", "json"))
    cells = {(r["resultclass"], c["value"]): c for b in doc["blocks"] for r in b["results"] for c in r["columns"]}
    if text is None:
        text = run(cp, "report", "--store", store, "--answer")
    text = " ".join(text.split())
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


def bounds(text):
    """The interval a printed number stands for: @text rounded to the digits it shows."""
    dec = len(text.split(".")[1]) if "." in text else 0
    half = 0.5 * 10 ** -dec * (1 + 1e-9)
    return float(text) - half, float(text) + half


def identity_holds(base, pct, level):
    """Whether some base, change and level that print as @base, @pct and @level (texts) have
    base x (1 + change) within TOLERANCE of the level: the identity up to the digits printed."""
    (b0, b1), (p0, p1), (l0, l1) = bounds(base), bounds(pct), bounds(level)
    lo, hi = b0 * (1 + p0 / 100), b1 * (1 + p1 / 100)
    return lo <= l1 * (1 + TOLERANCE) and hi >= l0 * (1 - TOLERANCE)


class Page(html.parser.HTMLParser):
    """The report page's tables (class, the h4 before it, rows of cell texts) and its answer's text."""

    def __init__(self):
        super().__init__()
        self.tables, self.answer, self.h4 = [], [], None
        self.cur = self.cell = self.text = None
        self.in_answer = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.cur = {"class": a.get("class"), "h4": self.h4, "rows": []}
        elif tag == "tr" and self.cur is not None:
            self.cur["rows"].append([])
        elif tag in ("td", "th") and self.cur is not None:
            self.cell = []
        elif tag == "h4":
            self.text = []
        elif tag == "ul" and a.get("class") == "answer":
            self.in_answer = 1
        elif tag == "br" and self.in_answer:
            self.answer.append(" ")

    def handle_endtag(self, tag):
        if tag == "table" and self.cur is not None:
            self.tables.append(self.cur)
            self.cur = None
        elif tag in ("td", "th") and self.cell is not None:
            self.cur["rows"][-1].append("".join(self.cell).strip())
            self.cell = None
        elif tag == "h4" and self.text is not None:
            self.h4, self.text = "".join(self.text).strip(), None
        elif tag == "ul" and self.in_answer:
            self.in_answer = 0
        elif tag == "li" and self.in_answer:
            self.answer.append(" ")

    def handle_data(self, data):
        for sink in (self.cell, self.text):
            if sink is not None:
                sink.append(data)
        if self.in_answer:
            self.answer.append(data)


PAGE_CHANGE = re.compile(r"^(\([IR?-]\) )?(" + NUM + r")%$")
STUDY_CELL = re.compile(r"^(\d+\.\d+) (GB|MB|KB|bytes)/sec(?:, (\([IR?-]\) )?(" + NUM + r")% vs (\S+))?$")
STUDY_ROWS = {"clear": "", "clear (then-read pass)": " --then read", "then-read": " --then read :then-read",
              "combined": " --then read :combined"}


def page_change(where, text, base_text, cell, problems):
    """A change cell of the page (@text, "(I) +1.92%") against JSON's @cell and its base's printed level."""
    m = PAGE_CHANGE.match(text)
    if not m:
        problems.append(f"page: {where}: {text!r} prints no change")
        return
    if not same(m.group(2), cell["change_pct"]) or (m.group(1) or "") != MARKS.get(cell["state"], ""):
        problems.append(f"page: {where}: {text!r}, JSON has {cell['state']} {cell['change_pct']}%")
    if not identity_holds(base_text, m.group(2), repr(cell["level"])):
        problems.append(f"page: {where}: base {base_text} x (1 + {m.group(2)}%) is not the level {cell['level']}")


def check_geomean(row, head, geomeans, problems):
    """The page's geometric-mean row against JSON's, of the block whose rows the table has."""
    g = geomeans.get(row[1])
    if g is None:
        problems.append(f"page: {row[1]!r}: JSON's block has no such geometric-mean row")
        return 0
    for i in range(2, len(row)):
        pct = g.get(head[i])
        m = PAGE_CHANGE.match(row[i])
        if (pct is None) != (not row[i]) or (m and not same(m.group(2), pct)) or (row[i] and not m):
            problems.append(f"page: {row[1]} {head[i]}: {row[i]!r}, JSON has {pct}")
    return 1


def check_results_table(t, cells, blocks, problems):
    """One `table.results` of the page: the base's level and every change as JSON has them, and the
    geometric mean of ratios as the JSON block has it whose rows the table shows."""
    head = [h[:-len(" (base)")] if h.endswith(" (base)") else h for h in t["rows"][0]]
    b = next(i for i, h in enumerate(t["rows"][0]) if h.endswith(" (base)"))
    checked = 0
    labels = {row[1] for row in t["rows"][1:]}
    geomeans = next((g for rows, g in blocks if labels & rows), {})
    for row in t["rows"][1:]:
        if row[1].startswith("geometric mean of ratios"):
            checked += check_geomean(row, head, geomeans, problems)
            continue
        for i in range(2, len(row)):
            cell = cells.get((row[1], head[i]))
            if cell is None or not cell.get("n"):
                if row[i]:
                    problems.append(f"page: {row[1]} {head[i]}: {row[i]!r} where JSON has no cell")
                continue
            checked += 1
            if i == b or cell.get("change_pct") is None:
                if not same(row[i], cell["level"]):
                    problems.append(f"page: {row[1]} {head[i]}: {row[i]!r}, JSON's level is {cell['level']}")
            else:
                page_change(f"{row[1]} {head[i]}", row[i], row[b], cell, problems)
    return checked


def check_study_table(t, cells, problems):
    """One `table.study` (an extent: its h4) of the page: each rate and change is the mem/clear table's cell."""
    k = t["h4"].split(" ")[0]
    head, checked = t["rows"][0], 0
    base_text = {}
    for row in t["rows"][1:]:
        col = row[0].removesuffix(" (non-temporal)")
        for what, text in zip(head[1:], row[1:]):
            m = STUDY_CELL.match(text)
            want = [r for (r, c) in cells if c == col and re.fullmatch(r"clear -k " + re.escape(k) + r" -s \S+"
                                                                       + re.escape(STUDY_ROWS.get(what, "?")), r)]
            if not m or len(want) != 1:
                problems.append(f"page: study {k} {col} {what}: {text!r} (rows {want})")
                continue
            cell, scale = cells[(want[0], col)], SCALE[m.group(2) + "/sec"]
            checked += 1
            if f"{cell['level'] / scale:.2f}" != m.group(1):
                problems.append(f"page: study {k} {col} {what}: {m.group(1)}, the table's level is {cell['level']}")
            if m.group(4) is None:
                base_text[what] = m.group(1)
                if not cell.get("base"):
                    problems.append(f"page: study {k} {col} {what}: no change printed for a compared cell")
                continue
            if not same(m.group(4), cell["change_pct"]) or (m.group(3) or "") != MARKS.get(cell["state"], ""):
                problems.append(f"page: study {k} {col} {what}: {text!r}, the table has {cell['state']}"
                                f" {cell['change_pct']}%")
            if what in base_text and not identity_holds(base_text[what], m.group(4), m.group(1)):
                problems.append(f"page: study {k} {col} {what}: {base_text[what]} x (1 + {m.group(4)}%) is not"
                                f" {m.group(1)}")
    return checked


def check_page(cp, store, docs, problems):
    """The report page's tables and answer; (cells, quotes) checked."""
    cells = {(f"{r['resultclass']} ({r['unit']})", c[doc["columns"]]): c
             for doc in docs for b in doc["blocks"] for r in b["results"] for c in r["columns"]}
    clear = {(r["resultclass"], c["value"]): c for b in docs[0]["blocks"] for r in b["results"] for c in r["columns"]}
    # per JSON block: its rows' labels, and its geometric-mean row {label: {column: change}}
    blocks = [({f"{r['resultclass']} ({r['unit']})" for r in b["results"]},
               {b["geomean"]["label"]: {c[doc["columns"]]: c["change_pct"] for c in b["geomean"]["columns"]}}
               if b.get("geomean") else {}) for doc in docs for b in doc["blocks"]]
    with tempfile.TemporaryDirectory() as tmp:
        run(cp, "report", "--store", store, "-o", os.path.join(tmp, "r.html"))
        page, text = Page(), open(os.path.join(tmp, "r.html")).read()
        page.feed(text)
    check_legend("page", " ".join(html.unescape(re.sub(r"<[^>]*>", " ", text)).split()), problems)
    checked = 0
    for t in page.tables:
        if t["class"] == "results":
            checked += check_results_table(t, cells, blocks, problems)
        elif t["class"] == "study":
            checked += check_study_table(t, clear, problems)
    if not any(t["class"] == "results" for t in page.tables):
        problems.append("page: no result table")
    quoted = check_answer(cp, store, problems, html.unescape("".join(page.answer))) if page.answer else 0
    return checked, quoted


def main():
    cp, store = sys.argv[1:3]
    problems, counts, docs = [], {"json": 0, "text": 0, "one-row": 0}, []
    for view in VIEWS:
        doc = json.loads(run(cp, "show", "--store", store, *view, "--format", "json"))
        docs.append(doc)
        counts["json"] += check_json(doc, problems)
        for fmt in FORMATS:
            text = run(cp, "show", "--store", store, *view, "--format", fmt, "--stats", "--units", "raw",
                       "--width", "0")
            counts["text"] += check_text(fmt, text, doc, problems)
        counts["one-row"] += check_one_row(cp, store, view, doc, problems)
    counts["answer"] = check_answer(cp, store, problems)
    counts["page"], counts["page quotes"] = check_page(cp, store, docs, problems)
    print(f"{counts['json']} JSON cells, {counts['text']} table cells in {len(FORMATS)} formats,"
          f" {counts['one-row']} one-row tables, {counts['answer']} quotes of the answer,"
          f" {counts['page']} cells and {counts['page quotes']} quotes of the page checked")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
