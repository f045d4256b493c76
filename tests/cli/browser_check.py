#!/usr/bin/env python3
"""browser_check: render a clearpath report in headless Chromium and check what a reader sees.

usage: browser_check.py [--max-bytes N] [--show MORE.json]... REPORT.html SHOW.json SCREENSHOT.png [PROFILE.json]

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: file
descriptors 3 and 4, no port, no network), python3's standard library only.  Checks:
  - no console error, no uncaught exception, no request other than the file itself and
    its data: URIs (the page is self-contained);
  - every image decoded (naturalWidth > 0): the plots render;
  - the tables' cells hold the numbers and states of `show --format json`, as show
    prints them (base level %.2f, "(I) +1.92%" or "(?) -0.57%" for a change);
  - a full-page screenshot that is not blank (many distinct colours, ink on most rows);
  - every plot panel (a figure's data-panels: what each panel is drawn from): a rate's axis
    never goes below zero, every whisker contains its own mean mark, and each mark is the
    level `show --format json` has for that cell (a rate drawn in perf's GB/sec); a fleet
    panel's (data-fleet) each SUT class's change_pct in show's fleet;
  - with --max-bytes, the page is no larger than that;
  - with --show, more views' cells (a page of several tables: one `show` each);
  - with PROFILE.json (`show --profile --format json`), the profile sections: one per
    benchmark with profile classes, each cell's share the mean show has (the same double,
    and "%.1f%%" as show --profile prints it), "-" where a column has none, the symbols
    in show --profile's order (largest share in any column first), and each column's
    bound ("0.22 × X%") from its clearing share.
Exit 0 when all hold, 1 with the reasons otherwise.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zlib

TIMEOUT = 120


class Chrome:
    """One headless Chromium and one page, spoken to over the DevTools pipe."""

    def __init__(self, profile):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            raise SystemExit("chromium not found (scripts/install-deps installs it)")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        os.set_inheritable(to_r, True)
        os.set_inheritable(from_w, True)

        def fds():
            # Chromium reads commands on fd 3 and writes replies on fd 4
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)

        args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                "--user-data-dir=" + profile, "--no-first-run", "--disable-extensions",
                "--disable-background-networking", "--disable-sync", "--disable-component-update",
                # offline: every host resolves nowhere, any proxy is a closed local port
                "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
                "--window-size=1280,900", "about:blank"]
        # 3 and 4 kept too: subprocess closes what pass_fds does not name after preexec_fn ran
        self.proc = subprocess.Popen(args, preexec_fn=fds, pass_fds=(3, 4, to_r, from_w),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)

    def _read_message(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method):
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            e = self._read_message()
            if e.get("method") == method:
                return e
            self.events.append(e)

    def open_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(domain + ".enable")

    def evaluate(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"evaluate: {r['exceptionDetails']}")
        return r["result"].get("value")


def png_rows(data):
    """The decoded RGB(A) rows of a PNG (8-bit truecolour, as Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = (int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big"),
                                           body[8], body[9])
            assert depth == 8 and ctype in (2, 6), f"unexpected PNG type {depth}/{ctype}"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return rows, bpp


def not_blank(png, problems):
    rows, bpp = png_rows(png)
    colours, inked = set(), 0
    for row in rows:
        px = {row[i:i + 3] for i in range(0, len(row), bpp)}
        colours |= px
        inked += len(px) > 1
    # text, tables and plots in several colours, spread over the page
    if len(colours) < 16:
        problems.append(f"screenshot looks blank: {len(colours)} distinct colours")
    if inked < len(rows) // 4:
        problems.append(f"screenshot looks blank: only {inked} of {len(rows)} rows have any ink")


def pct_text(v):
    """A change as show prints it (rpt_pct): two decimals, more near -100% so the ratio keeps its digits."""
    if abs(v) >= 1e4:
        return f"{v:+.2e}"
    d = 2
    while d < 12 and 0.5 * 10 ** -d > 2.5e-4 * abs(100 + v):
        d += 1
    text = f"{v:+.{d}f}"
    d += 1
    while v > -100 and d <= 12 and float(text) == -100:
        text = f"{v:.{d}f}"
        d += 1
    whole, _, frac = text.partition(".")
    return whole + "." + (frac[:2] + frac[2:].rstrip("0"))


def expected_cells(show):
    """Per block, per result class: the cell texts show prints for each column."""
    want = []
    for blk in show["blocks"]:
        for res in blk["results"]:
            for col in res["columns"]:
                if not col.get("n"):
                    continue
                if col.get("change_pct") is not None and not col["base"]:
                    mark = {"improvement": "(I) ", "regression": "(R) ", "undecided": "(?) ",
                            "insufficient": "(-) "}.get(col.get("state"), "")
                    text = f"{mark}{pct_text(col['change_pct'])}%"
                else:
                    text = f"{col['level']:.2f}"
                want.append((res["resultclass"], res["unit"], col[show["columns"]], text))
    return want


def expected_profiles(prof):
    """Per benchmark ("mem mmap ..."): {symbol: {column: share}} from show --profile's JSON summary (a
    symbol some runs lack is over all of them, the others counted 0: its share_pct)."""
    want = {}
    for blk in prof["blocks"]:
        for p in blk.get("profiles") or []:
            for sym in p["symbols"]:
                cells = want.setdefault(p["benchmark"], {}).setdefault(sym["symbol"], {})
                for col in sym["columns"]:
                    if col.get("share_pct") is not None:
                        cells[col[prof["columns"]]] = col["share_pct"]
    return want


def check_profiles(chrome, prof, problems):
    """The page's profile sections against show --profile's numbers; the number of cells checked."""
    shown = chrome.evaluate("""[...document.querySelectorAll('section.profile')].map(s => ({
        bench: s.dataset.benchmark,
        head: [...s.querySelector('table.profile').tHead.rows[0].cells].slice(1).map(c => c.textContent.trim()),
        bounds: [...s.querySelectorAll('ul.bound li')].map(l => l.textContent),
        rows: [...s.querySelector('table.profile').tBodies[0].rows].map(r => ({sym: r.dataset.symbol,
            cells: [...r.cells].slice(1).map(c => [c.dataset.share || null, c.textContent])}))}))""")
    want, checked = expected_profiles(prof), 0
    if sorted(s["bench"] for s in shown) != sorted(want):
        problems.append(f"profile sections {[s['bench'] for s in shown]}, show --profile has {sorted(want)}")
    for sec in shown:
        syms = want.get(sec["bench"], {})
        head = [h[:-len(" (base)")] if h.endswith(" (base)") else h for h in sec["head"]]
        order = sorted((s for s in syms if s != "clearing"), key=lambda s: -max(syms[s].values()))[:10]
        if [r["sym"] for r in sec["rows"]] != ["clearing"] * ("clearing" in syms) + order:
            problems.append(f"{sec['bench']}: symbols {[r['sym'] for r in sec['rows']]}, want {order}")
        for row in sec["rows"]:
            for col, (share, text) in zip(head, row["cells"]):
                mean = syms.get(row["sym"], {}).get(col)
                checked += 1
                if mean is None and (share is not None or text != "-"):
                    problems.append(f"{sec['bench']} {row['sym']} {col}: {text!r} where show has none")
                elif mean is not None and (share is None or float(share) != mean
                                           or not text.startswith(f"{mean:.1f}%")):
                    problems.append(f"{sec['bench']} {row['sym']} {col}: {share} {text!r}, show has {mean!r}")
        for col, line in zip(head, sec["bounds"]):
            mean = syms.get("clearing", {}).get(col)
            if mean is not None and f"at most {mean / 100:.2f} \u00d7 X%" not in line:
                problems.append(f"{sec['bench']} {col}: bound {line!r} does not follow from {mean!r}%")
    return checked


def show_levels(shows):
    """(resultclass, column) -> (unit, level) over the views of `show --format json`."""
    levels = {}
    for show in shows:
        for blk in show["blocks"]:
            for res in blk["results"]:
                for col in res["columns"]:
                    if col.get("n"):
                        levels.setdefault((res["resultclass"], col[show["columns"]]), []).append(
                            (res["unit"], col["level"]))
    return levels


def fleet_changes(shows):
    """(resultclass, SUT class) -> [change_pct] of the fleet summaries of `show --format json`."""
    changes = {}
    for show in shows:
        for f in show.get("fleet", []):
            for s in f["suts"]:
                if s["change_pct"] is not None:
                    changes.setdefault((f["resultclass"], s["sut"]), []).append(s["change_pct"])
    return changes


def check_panels(chrome, shows, problems):
    """Each plot panel: axis, whiskers, and its marks against show's levels; the number of panels."""
    figures = chrome.evaluate("[...document.querySelectorAll('figure[data-panels]')]"
                              ".map(f => [f.dataset.fleet !== undefined, JSON.parse(f.dataset.panels)])")
    levels, changes, npanels = show_levels(shows), fleet_changes(shows), 0
    for fleet, panels in figures or []:
        for p in panels:
            npanels += 1
            rclass = p["title"].rsplit(" (", 1)[0]
            lo_axis = p["axis"][0]
            means = [c["level"] for c in p["cols"] if c["level"] is not None]
            if p["unit"].endswith("/sec") and all(m >= 0 for m in means) and not (lo_axis is not None
                                                                                  and lo_axis >= 0):
                problems.append(f"{p['title']}: the rate axis starts at {lo_axis}, below zero")
            for c in p["cols"]:
                lvl, lo, hi = c["level"], c["lo"], c["hi"]
                if None not in (lvl, lo, hi) and not (lo - 1e-9 * abs(lo) <= lvl <= hi + 1e-9 * abs(hi)):
                    problems.append(f"{p['title']} {c['name']}: the whisker [{lo}, {hi}] misses its mean {lvl}")
                # a fleet panel's marks are each machine's change, a column per SUT class
                want = changes.get((rclass, c["name"]), []) if fleet else \
                    [v for u, v in levels.get((rclass, c["name"]), [])]
                scale = 2 ** 30 if p["unit"] == "GB/sec" else 1
                if lvl is not None and not any(abs(lvl * scale - v) <= 1e-9 * abs(v) for v in want):
                    problems.append(f"{p['title']} {c['name']}: the mark {lvl} {p['unit']} is not show's"
                                    f" level {want}")
    if not npanels and figures is not None:
        problems.append("no plot says what it was drawn from (data-panels)")
    return npanels


def main():
    args, max_bytes, more = sys.argv[1:], None, []
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--max-bytes":
            max_bytes = int(args.pop(0))
        elif opt == "--show":
            more.append(args.pop(0))
        else:
            raise SystemExit(f"unknown option {opt}")
    report, show_json, shot = args[0:3]
    prof = None
    if len(args) > 3:
        with open(args[3]) as f:
            prof = json.load(f)
    shows = []
    for name in [show_json] + more:
        with open(name) as f:
            shows.append(json.load(f))
    problems = []
    if max_bytes is not None and os.path.getsize(report) > max_bytes:
        problems.append(f"the page is {os.path.getsize(report)} bytes, more than {max_bytes}")
    profile = tempfile.mkdtemp(prefix="clearpath-chromium-")
    chrome = Chrome(profile)
    try:
        chrome.open_page()
        url = "file://" + os.path.abspath(report)
        chrome.send("Page.navigate", {"url": url})
        chrome.wait_event("Page.loadEventFired")
        for e in chrome.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                problems.append(f"console error: {p.get('args')}")
            elif m == "Runtime.exceptionThrown":
                problems.append(f"exception: {p.get('exceptionDetails')}")
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                problems.append(f"console error: {p['entry'].get('text')} {p['entry'].get('url', '')}")
            elif m == "Network.requestWillBeSent":
                req = p["request"]["url"]
                if req != url and not req.startswith("data:"):
                    problems.append(f"the page requested {req}")
        images = chrome.evaluate("[...document.images].map(i => [i.alt, i.complete, i.naturalWidth])")
        for alt, complete, width in images:
            if not complete or not width:
                problems.append(f"plot not rendered: {alt}")
        tables = chrome.evaluate("""[...document.querySelectorAll('table.results')].map(t => ({
            head: [...t.tHead.rows[0].cells].map(c => c.textContent),
            rows: [...t.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent))}))""")
        shown = set()
        for t in tables:
            head = [h[:-len(" (base)")] if h.endswith(" (base)") else h for h in t["head"]]
            for row in t["rows"]:
                for h, cell in zip(head[2:], row[2:]):
                    shown.add((row[1], h, cell))
        want = [c for show in shows for c in expected_cells(show)]
        for rclass, unit, col, text in want:
            if (f"{rclass} ({unit})", col, text) not in shown:
                problems.append(f"the page lacks {text!r} for {rclass} in column {col}")
        if not want:
            problems.append("show --format json has no cells to look for")
        if prof is not None:
            pchecked = check_profiles(chrome, prof, problems)
        npanels = check_panels(chrome, shows, problems)
        metrics = chrome.send("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        png = base64.b64decode(chrome.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": 1280, "height": min(size["height"], 6000), "scale": 1}})["data"])
        with open(shot, "wb") as f:
            f.write(png)
        not_blank(png, problems)
        print(f"{len(images)} plots, {npanels} panels, {len(tables)} tables, {len(want)} cells checked,"
              f" {os.path.getsize(report)} bytes, screenshot {shot}")
        if prof is not None:
            print(f"{pchecked} profile cells checked")
    finally:
        chrome.close()
        shutil.rmtree(profile, ignore_errors=True)
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
