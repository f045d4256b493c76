#!/usr/bin/env bats
# report.bats: `clearpath report` on the seed-shaped fixture: the HTML page's structure against a golden file,
# self-containment, the plots as SVG/PNG files, bad input, and the page rendered by headless Chromium.
#
# The golden file is the page with each plot's data: URI cut to "data:image/svg+xml;base64,..." (the
# plot bytes are cairo's and vary with its version; test_plot checks the drawing) and the store path and
# clearpath version replaced: everything else, tables, legends, sessions and fingerprints, is compared
# byte for byte.  After UPDATE_GOLDEN=1 read it by eye (or open it in a browser).

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	local cp=${CLEARPATH:-./clearpath} fix="$BATS_TEST_DIRNAME/../fixtures/show"
	"$cp" import --store "$BATS_FILE_TMPDIR/seed.db" "$fix/seed.csv" >/dev/null
	"$cp" import --store "$BATS_FILE_TMPDIR/param.db" "$fix/param.csv" >/dev/null
	"$cp" import --store "$BATS_FILE_TMPDIR/study.db" "$fix/study.csv" >/dev/null
}

setup() {
	CP=${CLEARPATH:-./clearpath}
	GOLDEN="$BATS_TEST_DIRNAME/../golden/html"
	S=$BATS_FILE_TMPDIR
	D=$BATS_TEST_TMPDIR
	export CLEARPATH_STORE="$S/seed.db"
}

# The page with the plot bytes, the store path and the version normalised (see the header).
normalised() {
	report_normalised "$1" "$S"
}

@test "report -o writes the seed's page: golden structure, tables as show prints them" {
	need_cairo
	run --separate-stderr "$CP" report --store "$S/seed.db" -o "$D/seed.html"
	[ "$status" -eq 0 ]
	[ "$output" = "wrote $D/seed.html" ]
	normalised "$D/seed.html" >"$D/seed.norm"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		mkdir -p "$GOLDEN"
		cp "$D/seed.norm" "$GOLDEN/seed.html"
	fi
	diff -u "$GOLDEN/seed.html" "$D/seed.norm"
}

@test "the page has a table per SUT class and one plot of a panel per result class of each" {
	need_cairo
	"$CP" report -o "$D/r.html" >/dev/null
	"$CP" show --format json >"$D/show.json"
	python3 - "$D/r.html" "$D/show.json" <<'EOF'
import html, json, re, sys
page = open(sys.argv[1]).read()
show = json.load(open(sys.argv[2]))
blocks = show["blocks"]
assert page.count('<table class="results">') == len(blocks), "one table per SUT class"
for b, blk in enumerate(blocks):
    sec = page.split(f'<section class="block" id="block-{b + 1}">')[1].split("</section>")[0]
    figs = re.findall(r'<figure class="plot grid" data-block="([^"]*)" data-panels="([^"]*)"', sec)
    assert len(figs) == 1 and figs[0][0] == blk["sut"], figs
    panels = [p["title"] for p in json.loads(html.unescape(figs[0][1]))]
    want = [f"{r['resultclass']} ({'GB/sec' if r['unit'] == 'bytes/sec' else r['unit']})" for r in blk["results"]]
    assert panels == want, (panels, want)
    assert f"Results for SUT Class {blk['sut']}:" in sec
EOF
}

@test "the page's fleet section: show's fleet table, and each machine's change and interval as the plot's bars and whiskers" {
	need_cairo
	"$CP" report -o "$D/r.html" >/dev/null
	"$CP" show --format json >"$D/show.json"
	python3 - "$D/r.html" "$D/show.json" <<'EOF'
import html, json, math, re, sys
page = open(sys.argv[1]).read()
show = json.load(open(sys.argv[2]))
secs = page.split('<section class="fleet">')[1:]
assert len(secs) == 1, len(secs)
sec = secs[0].split("</section>")[0]
assert "Fleet summary, next-20260821 with this patch against next-20260821 without this patch (base)" in sec
assert sec.count('<table class="fleet">') == 1, sec
rows = re.findall(r"<tr>(.*?)</tr>", sec, re.S)
tds = [[html.unescape(re.sub("<[^>]*>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)] for r in rows]
tds = [t for t in tds if t]
lines = [(s["sut"], f) for f in show["fleet"] for s in f["suts"]]
assert len(tds) == len(lines) == 6, (tds, lines)
figs = re.findall(r'<figure class="plot grid" data-fleet="([^"]*)" data-panels="([^"]*)"', sec)
assert len(figs) == 1, figs
panels = json.loads(html.unescape(figs[0][1]))
assert len(panels) == len(show["fleet"]), panels
for p, f in zip(panels, show["fleet"]):
    assert p["title"].startswith(f["resultclass"] + " ("), (p["title"], f)
    assert [c["name"] for c in p["cols"]] == [s["sut"] for s in f["suts"]]
    for c, s in zip(p["cols"], f["suts"]):
        for got, want in ((c["level"], s["change_pct"]), (c["lo"], s["change_ci95_low"]), (c["hi"], s["change_ci95_high"])):
            assert math.isclose(got, want, rel_tol=1e-11), (got, want)
        # every interval whole on the axis, and 0 on it
        assert p["axis"][0] <= min(c["lo"], 0) and p["axis"][1] >= max(c["hi"], 0), (p["axis"], c)
EOF
}

@test "the page is self-contained: no script, stylesheet link, font or URL outside it" {
	need_cairo
	"$CP" report -o "$D/r.html" >/dev/null
	python3 - "$D/r.html" <<'EOF'
import base64, re, sys
page = open(sys.argv[1]).read()
for bad in ("<script", "<link", "@import", "url(", "<iframe", "<object", "<embed", "http://", "https://"):
    assert bad not in page, bad
srcs = re.findall(r'(?:src|href)="([^"]*)"', page)
assert srcs and all(s.startswith("data:image/svg+xml;base64,") for s in srcs), srcs[:3]
# inside each plot, references are to the SVG's own glyphs only
for s in srcs:
    svg = base64.b64decode(s.split(",", 1)[1]).decode()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for ref in re.findall(r'href="([^"]*)"', svg):
        assert ref.startswith("#"), ref
EOF
}

@test "report --format svg and png write one file per result class and the fleet's, named, into a new directory" {
	need_cairo
	run --separate-stderr "$CP" report --format svg -o "$D/svg"
	[ "$status" -eq 0 ]
	# two machines' three classes, then the fleet's figure of each class
	[ "${#lines[@]}" -eq 9 ]
	[ "${lines[0]}" = "$D/svg/1-aws-m7g-metal-1-memset-k-1gb-f-default-s-16gb.svg" ]
	[ "${lines[6]}" = "$D/svg/fleet-1-memset-k-1gb-f-default-s-16gb.svg" ]
	for f in "${lines[@]}"; do grep -q '<svg' "$f"; done
	run --separate-stderr "$CP" report --format png --benchmark 'mmap*' -o "$D/png"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 6 ]
	[ "${lines[5]}" = "$D/png/fleet-2-mmap-p-4kb-f-demand-s-32gb-l-5.png" ]
	for f in "${lines[@]}"; do [ "$(head -c 4 "$f" | tail -c 3)" = PNG ]; done
}

@test "report takes show's selection: --columns param:f --base picks the columns and the base" {
	need_cairo
	run --separate-stderr "$CP" report --store "$S/param.db" --columns param:f --base x86-64-stosb -o "$D/p.html"
	[ "$status" -eq 0 ]
	grep -q '<th>x86-64-stosb (base)</th>' "$D/p.html"
	grep -q '<th>default</th>' "$D/p.html"
}

@test "report's header prints what every column shares once: three strategies on one kernel, one cmdline" {
	need_cairo
	cp "$S/param.db" "$D/ph.db"
	"$BATS_TEST_DIRNAME/../fixtures/show/add-fingerprints" --one-kernel "$D/ph.db"
	run --separate-stderr "$CP" report --store "$D/ph.db" --columns param:f -o "$D/ph.html"
	[ "$status" -eq 0 ]
	grep -q '<p>All columns: kernel 6.18.0.</p>' "$D/ph.html"
	[ "$(grep -c '<p class="more">cmdline: ' "$D/ph.html")" -eq 1 ]
	[ "$(grep -c '<p class="more">THP enabled madvise, defrag madvise; hugepages 2MB: 512.</p>' "$D/ph.html")" -eq 1 ]
	grep -q '<p>x86-64-movnti: 3 sessions, 18 samples' "$D/ph.html"
}

@test "report refuses bad input with exit 2 and says why" {
	run --separate-stderr "$CP" report
	refused 2 "report needs -o FILE.html"
	run --separate-stderr "$CP" report --format pdf -o x
	refused 2 "invalid value 'pdf' for --format: expected html, svg or png"
	run --separate-stderr "$CP" report --columns nosuch -o x
	refused 2 "invalid value 'nosuch' for --columns"
	run --separate-stderr "$CP" report -o "$D/x.html" extra
	refused 2 "unexpected argument 'extra'"
	run --separate-stderr "$CP" report --store "$D/none.db" -o "$D/x.html"
	[ "$status" -ne 0 ]
	[ ! -e "$D/x.html" ]
}

@test "report -o naming the store (or any SQLite database, or its -wal, -shm, -journal), or nothing, is refused and the store kept" {
	cp "$S/seed.db" "$D/store.db"
	sum=$(cksum <"$D/store.db")
	run --separate-stderr "$CP" report --store "$D/store.db" -o "$D/store.db"
	refused 2 "$D/store.db is an SQLite database (a clearpath store?): report does not replace it"
	ln -s store.db "$D/link.db"
	run --separate-stderr "$CP" report --store "$D/store.db" -o "$D/link.db"
	refused 2 "is an SQLite database"
	# its write-ahead log, shared-memory index and journal too, there or not yet
	for suffix in -wal -shm -journal; do
		run --separate-stderr "$CP" report --store "$D/store.db" -o "$D/store.db$suffix"
		refused 2 "$D/store.db$suffix is the" "of an SQLite database (a clearpath store?): report does not"
		[ ! -e "$D/store.db$suffix" ]
	done
	[ "$(cksum <"$D/store.db")" = "$sum" ]
	"$CP" list sessions --store "$D/store.db" >/dev/null
	cd "$D"
	run --separate-stderr "$CP" report --store "$D/store.db" -o ''
	refused 2 "report -o needs a path, not an empty one"
	# plots go into a directory: a file there (the store, say) is refused before anything is drawn
	run --separate-stderr "$CP" report --store "$D/store.db" --format svg -o "$D/store.db"
	refused 2 "$D/store.db is a file, not a directory: --format svg writes one plot per result class"
	[ "$(cksum <"$D/store.db")" = "$sum" ]
	[ -z "$(ls -A "$D" | grep tmp)" ]
}

@test "report into an unwritable place exits 3 and leaves no partial file" {
	need_cairo
	run --separate-stderr "$CP" report -o "$D/no/such/dir/r.html"
	refused 3 "cannot create $D/no/such/dir/r.html"
	# a full disk: the device stays what it is, never unlinked as a partial page would be
	[ -c /dev/full ] || skip "no /dev/full character device here"
	run --separate-stderr "$CP" report -o /dev/full
	[ "$status" -eq 3 ]
	[[ $stderr == *"cannot write /dev/full"* ]]
	[ -c /dev/full ]
	# a partial regular file is removed: with a 64KB file size limit (the store's own files fit)
	# the page's writes fail part way, and no half-written page is left behind
	run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 64; exec "$0" report -o "$1"' "$CP" "$D/small.html"
	[ "$status" -eq 3 ]
	[[ $stderr == *"cannot write $D/small.html"* ]]
	[ ! -e "$D/small.html" ]
}

@test "report -o over an existing page: a failed write leaves it as it was, a good one replaces it whole" {
	need_cairo
	D=$D/o
	mkdir "$D"
	# the page was written in place: a failed write truncated the old page, then removed it
	echo "the page from before" >"$D/old.html"
	run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 64; exec "$0" report -o "$1"' "$CP" "$D/old.html"
	[ "$status" -eq 3 ]
	[[ $stderr == *"cannot write $D/old.html"* ]]
	[ "$(cat "$D/old.html")" = "the page from before" ]
	# no temporary file is left beside it
	[ "$(ls "$D")" = "old.html" ]
	# through a symbolic link, the file it points to is replaced and the link stays a link
	ln -s old.html "$D/link.html"
	run --separate-stderr "$CP" report -o "$D/link.html"
	[ "$status" -eq 0 ]
	[ -L "$D/link.html" ]
	grep -q '^<!DOCTYPE html>' "$D/old.html"
	# a directory is refused with what -o wants
	mkdir "$D/dir"
	run --separate-stderr "$CP" report -o "$D/dir"
	refused 3 "cannot create $D/dir: Is a directory" "--format svg|png"
}

@test "report --format svg over earlier plots: a failed write leaves each as it was, no temporary file" {
	need_cairo
	"$CP" report --format svg -o "$D/first" >/dev/null
	mkdir "$D/svg"
	for f in "$D/first"/*.svg; do echo "the plot from before" >"$D/svg/${f##*/}"; done
	# each plot is larger than the 32KB file size limit: its write fails (it was truncated, half written)
	run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 32; exec "$0" report --format svg -o "$1"' "$CP" "$D/svg"
	[ "$status" -eq 3 ]
	[[ $stderr == *"cannot write $D/svg/"* ]]
	for f in "$D/svg"/*; do
		[ "$(cat "$f")" = "the plot from before" ] || { echo "$f changed"; return 1; }
	done
	[ "$(ls "$D/svg" | wc -l)" -eq "$(ls "$D/first" | wc -l)" ]
}

@test "report draws a store whose values span more than a double holds (-1e308 .. 1e308) and subnormals" {
	need_cairo
	# the plot's scale once overflowed to infinity: "cannot write r.html: Invalid argument", exit 1
	local h=sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time
	{
		echo "$h"
		for s in 1 2 3 4; do
			for i in 0 1 2; do
				case $s$i in 1?|2?) k=base ;; *) k=patch ;; esac
				case $s$i in 10|21|32) v=-1e308 ;; 11|22|40) v=1e308 ;; 30) v=5e-324 ;; *) v=$s$i ;; esac
				echo "box,$k,5eed0000-0000-4000-8000-00000000000$s,mem/memset -s 1MB,memset -s 1MB,bytes/sec,1,$i,0,$v,2026-08-22T08:00:00.000000Z,2026-08-22T08:00:0$i.000000Z"
			done
		done
	} >"$D/extreme.csv"
	"$CP" import --store "$D/x.db" "$D/extreme.csv" >/dev/null
	run --separate-stderr "$CP" report --store "$D/x.db" -o "$D/x.html"
	[ "$status" -eq 0 ] || { echo "exit $status: $stderr"; return 1; }
	run --separate-stderr "$CP" report --store "$D/x.db" --format svg -o "$D/svg"
	[ "$status" -eq 0 ]
	[ "$(ls "$D/svg" | wc -l)" -eq 1 ]
}

@test "headless Chromium renders the page: plots load, cells match show --format json, no console error" {
	need_cairo
	skip_emulated "Chromium renders the page, not the emulated binary"
	"$CP" report -o "$D/r.html" >/dev/null
	"$CP" show --format json >"$D/show.json"
	run python3 "$BATS_TEST_DIRNAME/browser_check.py" "$D/r.html" "$D/show.json" "$D/shot.png"
	echo "$output"
	[ "$status" -eq 0 ]
	# two machines and their fleet: a figure each, the fleet's panels checked as changes
	[[ $output == "3 plots, 9 panels, 2 tables, 12 cells checked"* ]]
}

@test "the browser check fails a page with a console error, an outside request or a wrong cell" {
	need_cairo
	skip_emulated "Chromium renders the page, not the emulated binary"
	"$CP" report -o "$D/r.html" >/dev/null
	"$CP" show --format json >"$D/show.json"
	sed -e 's|</body>|<script>console.error("boom")</script><img alt="far" src="http://clearpath.invalid/x.png"></body>|' \
		-e 's|(I) +1.92%|(I) +1.93%|' "$D/r.html" >"$D/bad.html"
	run python3 "$BATS_TEST_DIRNAME/browser_check.py" "$D/bad.html" "$D/show.json" "$D/shot.png"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"FAIL: console error"*boom* ]]
	[[ $output == *"FAIL: the page requested http://clearpath.invalid/x.png"* ]]
	[[ $output == *"FAIL: plot not rendered: far"* ]]
	[[ $output == *"FAIL: the page lacks '(I) +1.92%'"* ]]
}

@test "report --answer: the clear study in words, per extent, quoting the strategies' table cells and their rows" {
	run --separate-stderr "$CP" report --store "$S/study.db" --answer
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "${lines[0]}" = "Clearing strategies on study-box, swprofile 6.1.0 (the levels and changes of \`show --columns param:f --base default --benchmark mem/clear\`):" ]
	[ "${lines[1]}" = "  4KB extents (one page, clear_page):" ]
	[ "${lines[2]}" = '    fastest clear (row "clear -k 4KB -s 1GB --then read"): x86-64-movnti at 27.87 GB/sec, (I) +49.97% vs default.' ]
	[ "${lines[3]}" = '    fastest clear-then-read (row "clear -k 4KB -s 1GB --then read :combined"): x86-64-stosb at 16.61 GB/sec, (I) +7.25% vs default.' ]
	[ "${lines[4]}" = '    after non-temporal x86-64-movnti the consumer reads at 11.15 GB/sec, (R) -88.003% vs default (row "clear -k 4KB -s 1GB --then read :then-read"): it finds the lines cold and pays for the streaming clear.' ]
	[ "${lines[5]}" = "  2MB extents:" ]
	[ "${#lines[@]}" -eq 9 ]
	# every per cent it quotes is the table's own cell, in the row it names
	"$CP" show --store "$S/study.db" --columns param:f --base default >"$D/table.txt"
	for q in "clear -k 4KB -s 1GB --then read (bytes/sec)|(I) +49.97%" \
		"clear -k 4KB -s 1GB --then read :combined (bytes/sec)|(I) +7.25%" \
		"clear -k 4KB -s 1GB --then read :then-read (bytes/sec)|(R) -88.003%" \
		"clear -k 2MB -s 1GB --then read (bytes/sec)|(I) +133.63%"; do
		grep -F "${q%%|*}" "$D/table.txt" | grep -qF "${q#*|}" || { echo "not in the table: $q"; return 1; }
	done
	# and its levels are the table's: the movnti cell's level, base x (1 + change)
	"$CP" show --store "$S/study.db" --columns param:f --base default --format json >"$D/show.json"
	python3 - "$D/show.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
row = [r for r in d["blocks"][0]["results"] if r["resultclass"] == "clear -k 4KB -s 1GB --then read"][0]
base = row["columns"][0]
cell = [c for c in row["columns"] if c["value"] == "x86-64-movnti"][0]
assert f"{cell['level'] / 2**30:.2f}" == "27.87", cell["level"]
assert abs(base["level"] * (1 + cell["change_pct"] / 100) / cell["level"] - 1) < 1e-12, (base, cell)
EOF
}

@test "report --answer: a pick the runner-up is not distinguishable from says so" {
	# two strategies that clear alike: which one is 'fastest' is noise
	python3 - "$D/alike.csv" <<'EOF'
import random, sys
random.seed(7)
rows = ["sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,"
        "session_started,sample_time"]
for s in range(4):
    off = random.gauss(1, 0.02)
    for f, rate in (("default", 10e9), ("x86-64-stosb", 12e9), ("x86-64-stosq", 12e9)):
        for m in ("", " :combined", " :then-read"):
            for it in range(3):
                v = rate * off * random.gauss(1, 0.01)
                rows.append("box,6.1,00000000-0000-4000-8000-%012d,mem/clear clear -k 4KB -f %s -s 1GB --then read,"
                            "clear -k 4KB -f %s -s 1GB --then read%s,bytes/sec,1,%d,0,%r,2026-08-2%dT08:00:00Z,"
                            "2026-08-2%dT08:00:1%dZ" % (s + 1, f, f, m, it, v, s + 1, s + 1, it))
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
EOF
	"$CP" import --store "$D/alike.db" "$D/alike.csv" >/dev/null
	run --separate-stderr "$CP" report --store "$D/alike.db" --answer
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "${lines[2]}" == *"; not distinguishable from x86-64-sto"* ]] || { echo "$output"; return 1; }
}

@test "report --answer on mem clear -p 2MB --then read without -k names 2MB extents, apart from 4KB pages' 2MB" {
	# the extent is the page when -k is not given: read from the words, no -k once meant 4KB
	python3 - "$D/pages.csv" <<'EOF'
import sys
h = "sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time"
rows = [h]
rates = {"-p 2MB": {"default": (10e9, 40e9, 8e9), "x86-64-movnti": (30e9, 20e9, 12e9)},
         "-k 2MB": {"default": (12e9, 41e9, 9e9), "x86-64-movnti": (25e9, 21e9, 11e9)}}
for opt, fns in rates.items():
    for f, (clear, then, comb) in fns.items():
        bench = f"{opt} -f {f} -s 1GB --then read"
        for s in (1, 2):
            for m, v in (("", clear), (" :then-read", then), (" :combined", comb)):
                for i in range(2):
                    rows.append(f"box,6.1,57ad0000-0000-4000-8000-00000000000{s},mem/clear {bench},clear {bench}{m},"
                                f"bytes/sec,1,{i},0,{v * (1 + 0.01 * i + 0.002 * s)},2026-09-0{s}T08:00:00.000000Z,"
                                f"2026-09-0{s}T08:00:0{i}.000000Z")
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
EOF
	"$CP" import --store "$D/pages.db" "$D/pages.csv" >/dev/null
	run --separate-stderr "$CP" report --store "$D/pages.db" --answer
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	echo "$output"
	[ "${lines[1]}" = "  2MB extents:" ]
	[[ "${lines[2]}" == *'fastest clear (row "clear -k 2MB -s 1GB --then read"): x86-64-movnti at '*", (-) +108.33% vs default"* ]]
	[ "${lines[5]}" = "  2MB extents of 2MB pages:" ]
	[[ "${lines[6]}" == *'fastest clear (row "clear -p 2MB -s 1GB --then read"): x86-64-movnti at '*", (-) +200.00% vs default"* ]]
	[[ "$output" != *"4KB extents"* ]]
}

@test "report --answer without study data says so; --benchmark leaving mem clear out has no study" {
	run --separate-stderr "$CP" report --store "$S/seed.db" --answer
	[ "$status" -eq 0 ]
	[[ $output == "No clearing-strategy study here:"* ]]
	run --separate-stderr "$CP" report --store "$S/study.db" --benchmark 'mmap*' --answer
	[ "$status" -eq 0 ]
	[[ $output == "No clearing-strategy study here:"* ]]
}

@test "the page opens with the clear study: a table per extent, the answer, how each rate is measured" {
	need_cairo
	run --separate-stderr "$CP" report --store "$S/study.db" --columns param:f -o "$D/s.html"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	python3 - "$D/s.html" <<'EOF'
import re, sys
page = open(sys.argv[1]).read()
sec = page.split('<section class="study" id="clear-study">')[1].split("</section>")[0]
assert sec.count('<table class="study">') == 2, "a table per extent"
assert re.findall(r"<h4>([^<]*)</h4>", sec) == ["4KB extents", "2MB extents"]
assert "the clear-then-read rates come from that one timed pass" in sec.lower()
assert 'fastest clear (row &quot;clear -k 4KB -s 1GB --then read&quot;): x86-64-movnti at 27.87 GB/sec, (I) +49.97% vs default.' in sec, sec
assert '<td>x86-64-movnti (non-temporal)</td><td class="num">27.87 GB/sec, (I) +49.97% vs default</td>' in sec, sec
assert page.index('id="clear-study"') < page.index('id="block-1"'), "the study comes first"
EOF
	# no study data, no study section
	"$CP" report --store "$S/seed.db" -o "$D/n.html" >/dev/null
	! grep -q 'id="clear-study"' "$D/n.html"
}

@test "report --answer and the page say which extents' buffers the last-level cache holds" {
	cp "$S/study.db" "$D/cache.db"
	python3 - "$D/cache.db" <<'EOF2'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE sut SET fingerprint = json_object('llc_bytes', 2147483648, 'llc_level', 3)")
db.commit()
EOF2
	run --separate-stderr "$CP" report --store "$D/cache.db" --answer
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "${lines[1]}" = "  4KB extents (one page, clear_page) (cache-resident: 1GB buffers, within the 2GB L3 cache):" ]
	[ "${lines[5]}" = "  2MB extents (cache-resident: 1GB buffers, within the 2GB L3 cache):" ]
	# the page says it in the study and under the table
	need_cairo
	"$CP" report --store "$D/cache.db" -o "$D/c.html" >/dev/null
	grep -qF '4KB extents (one page, clear_page) (cache-resident: 1GB buffers, within the 2GB L3 cache):' "$D/c.html"
	grep -qF '<li>Cache-resident: every row clears buffers of at most 1GB, within this machine&#39;s 2GB L3 cache' "$D/c.html"
	# the store without the cache recorded says nothing of it
	run --separate-stderr "$CP" report --store "$S/study.db" --answer
	[[ "$output" != *"cache-resident"* ]]
}
