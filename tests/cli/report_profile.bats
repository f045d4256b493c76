#!/usr/bin/env bats
# report_profile.bats: `clearpath report` draws --profile shares: per benchmark a section (clearing share with
# its range across sessions, the bound, top symbols, a bar plot) with show --profile's numbers, the profile
# plots as files, and nothing at all where there is no profile.
#
# The fixture is stored shares (tests/fixtures/show/profile.csv, by make-profile-csv), imported, so no
# real profile run is needed.  The golden file is normalised as report.bats's (report_normalised).

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	local cp=${CLEARPATH:-./clearpath} fix="$BATS_TEST_DIRNAME/../fixtures/show"
	"$cp" import --store "$BATS_FILE_TMPDIR/profile.db" "$fix/profile.csv" >/dev/null
	"$cp" import --store "$BATS_FILE_TMPDIR/seed.db" "$fix/seed.csv" >/dev/null
}

setup() {
	CP=${CLEARPATH:-./clearpath}
	GOLDEN="$BATS_TEST_DIRNAME/../golden/html"
	S=$BATS_FILE_TMPDIR
	D=$BATS_TEST_TMPDIR
	export CLEARPATH_STORE="$S/profile.db"
}

@test "report draws the profile: golden structure of the page of a store with profile classes" {
	need_cairo
	run --separate-stderr "$CP" report -o "$D/p.html"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	report_normalised "$D/p.html" "$S" >"$D/p.norm"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$D/p.norm" "$GOLDEN/profile.html"
	fi
	diff -u "$GOLDEN/profile.html" "$D/p.norm"
}

@test "profile classes are no result classes on the page: no row, no plot; a section per profiled benchmark" {
	need_cairo
	"$CP" report -o "$D/p.html" >/dev/null
	"$CP" show --format json >"$D/show.json"
	python3 - "$D/p.html" "$D/show.json" <<'EOF'
import html, json, re, sys
page, show = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
assert ":profile:" not in page, "a profile class shown as a result class"
rows = [f"{r['resultclass']} (GB/sec)" for r in show["blocks"][0]["results"]]
grids = re.findall(r'<figure class="plot grid" data-block="[^"]*" data-panels="([^"]*)"', page)
assert [p["title"] for g in grids for p in json.loads(html.unescape(g))] == rows, rows
assert re.findall(r'<section class="profile" id="([^"]*)" data-benchmark="([^"]*)"', page) == [
    ("profile-profile-box-1", "mem mmap -p 4KB --thp always -f demand -s 64MB"),
    ("profile-profile-box-2", "mem mmap -p 4KB -f demand -s 64MB")]
assert len(re.findall(r'<figure class="plot profile" data-profile=', page)) == 2
# memset ran without --profile: no section, and no zero anywhere for it
assert "memset" not in "".join(re.findall(r'<section class="profile".*?</section>', page, re.S))
# the profile sits in its block, before the block's sessions
blk = page.split('<section class="block" id="block-1">')[1]
assert blk.index('class="profile"') < blk.index("<h3>Sessions</h3>")
EOF
}

@test "the profile sections hold show --profile's numbers: shares, changes, symbol order and the bound" {
	need_cairo
	"$CP" report -o "$D/p.html" >/dev/null
	"$CP" show --profile --format json >"$D/prof.json"
	"$CP" show --profile --format grid >"$D/prof.txt"
	python3 - "$D/p.html" "$D/prof.json" "$D/prof.txt" <<'EOF'
import html, json, re, sys
page, prof, text = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), open(sys.argv[3]).read()
cols = prof["columns"]
# show --profile's text: per benchmark the symbols in order, each line's cells, and the bound line
bench, lines = None, {}
for line in text.split("\n"):
    if line.startswith("mem "):
        bench = line
        lines[bench] = []
    elif bench and line.startswith("  ") and not line.startswith("   ") and not line.startswith("  (") \
            and not line.startswith("  sampled with"):
        lines[bench].append(line)
means = {}
for res in prof["blocks"][0]["results"]:
    name, sym = res["resultclass"].split(" :profile:")
    for c in res["columns"]:
        # the table's level: the one estimate of a share every output prints
        means[(f"mem {name}", sym, c[cols])] = c["level"] if c.get("n") else None
secs = re.findall(r'<section class="profile" id="[^"]*" data-benchmark="([^"]*)">(.*?)</section>', page, re.S)
assert [b for b, _ in secs] == list(lines), ([b for b, _ in secs], list(lines))
checked = 0
for b, sec in secs:
    heads = [html.unescape(re.sub(r"<[^>]*>", "", h)).strip().removesuffix(" (base)")
             for h in re.findall(r"<th>(.*?)</th>", sec.split("<tbody>")[0])[1:]]
    rows = re.findall(r'<tr[^>]*data-symbol="([^"]*)"><td>[^<]*</td>(.*?)</tr>', sec)
    tsyms = [l[2:38].strip() for l in lines[b] if not l.startswith("  bound:")]
    assert [s for s, _ in rows] == ["clearing"] + tsyms[1:], ([s for s, _ in rows], tsyms)
    for (sym, cells), tline in zip(rows, [l for l in lines[b] if not l.startswith("  bound:")]):
        tcells = re.findall(r"\S+%(?: \([+-][0-9.]+ pp\))?|-(?=\s|$)", tline[38:])
        for col, cell, tcell in zip(heads, re.findall(r"<td[^>]*>.*?</td>", cells), tcells):
            m, share = means[(b, sym, col)], re.search(r'data-share="([^"]*)"', cell)
            shown = re.sub(r"<span.*", "", re.sub(r"^<td[^>]*>", "", cell)).removesuffix("</td>")
            assert shown == tcell, (b, sym, col, shown, tcell)
            assert (m is None and share is None) or float(share.group(1)) == m, (b, sym, col, share, m)
            checked += 1
    bound = [l for l in lines[b] if l.startswith("  bound:")][0]
    factors = re.findall(r"([0-9.]+) x X%", bound)
    assert re.findall(r'<span class="bound">([0-9.]+) &times; X%</span>', sec) == factors, (factors, b)
    assert "a change of X% in the clearing routine moves this result by at most" in sec
assert checked == 30, checked
EOF
}

@test "no profile, no section: a store without profile classes, and a selection without them" {
	need_cairo
	"$CP" report --store "$S/seed.db" -o "$D/seed.html" >/dev/null
	! grep -q -e 'class="profile"' -e 'Where the time goes' -e 'class="plot profile"' "$D/seed.html"
	"$CP" report --benchmark 'memset*' -o "$D/m.html" >/dev/null
	! grep -q -e 'class="profile"' -e ':profile:' -e 'clearing' "$D/m.html"
	run --separate-stderr "$CP" report --benchmark 'memset*' --format svg -o "$D/svg"
	[ "$status" -eq 0 ]
	[ "$output" = "$D/svg/1-profile-box-1-memset-s-1mb.svg" ]
}

@test "report --format svg and png write the profile plots too, one per profiled benchmark" {
	need_cairo
	run --separate-stderr "$CP" report --format svg -o "$D/svg"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 5 ]
	[ "${lines[3]}" = "$D/svg/1-profile-box-profile-1-mmap-p-4kb-thp-always-f-demand-s-64mb.svg" ]
	[ "${lines[4]}" = "$D/svg/1-profile-box-profile-2-mmap-p-4kb-f-demand-s-64mb.svg" ]
	for f in "${lines[@]}"; do grep -q '<svg' "$f"; done
	run --separate-stderr "$CP" report --format png -o "$D/png"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 5 ]
	for f in "${lines[@]}"; do [ "$(head -c 4 "$f" | tail -c 3)" = PNG ]; done
	# the profile plot is as tall as its rows: 8 for the THP benchmark's clearing and 7 symbols
	python3 - "${lines[3]}" "${lines[4]}" <<'EOF'
import struct, sys
h = [struct.unpack(">II", open(p, "rb").read()[16:24]) for p in sys.argv[1:]]
assert h[0][0] == h[1][0] == 720 and h[0][1] > h[1][1] > 200, h
EOF
}

@test "a --base or --swprofile without profile data keeps the page and leaves that column out of the profile" {
	need_cairo
	# a third kernel measured without --profile: its memset samples only
	sed -n '1p; /,base,9f0f0000-0000-4000-8000-000000000001,mem\/memset/p' \
		"$BATS_TEST_DIRNAME/../fixtures/show/profile.csv" |
		sed 's/,base,9f0f0000-0000-4000-8000-000000000001,/,noprof,9f0f0000-0000-4000-8000-000000000009,/' \
		>"$D/noprof.csv"
	cp "$S/profile.db" "$D/p.db"
	"$CP" import --store "$D/p.db" "$D/noprof.csv" >/dev/null
	run --separate-stderr "$CP" report --store "$D/p.db" --base noprof -o "$D/p.html"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	grep -q '<th>noprof (base)</th>' "$D/p.html"
	[ "$(grep -c '<section class="profile"' "$D/p.html")" -eq 2 ]
	! grep -q 'noprof</th>' <(sed -n '/<section class="profile"/,/<\/section>/p' "$D/p.html")
	run --separate-stderr "$CP" report --store "$D/p.db" --swprofile nt-clear --swprofile noprof -o "$D/q.html"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	sed -n '/<section class="profile"/,/<\/section>/p' "$D/q.html" >"$D/q.prof"
	grep -q 'nt-clear (base)</th>' "$D/q.prof"
	! grep -q -e '> base' -e 'noprof' "$D/q.prof"
}

@test "headless Chromium: the profile sections render and hold show --profile's numbers; a wrong one fails" {
	need_cairo
	skip_emulated "Chromium renders the page, not the emulated binary"
	"$CP" report -o "$D/p.html" >/dev/null
	"$CP" show --format json >"$D/show.json"
	"$CP" show --profile --format json >"$D/prof.json"
	run python3 "$BATS_TEST_DIRNAME/browser_check.py" "$D/p.html" "$D/show.json" "$D/shot.png" "$D/prof.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == "3 plots, 3 panels, 1 tables, 6 cells checked"* ]]
	[[ $output == *"30 profile cells checked"* ]]
	# a share that is not show's, shown or stored, and a bound that does not follow from the share
	sed -e 's|>21.8%<span|>21.9%<span|' -e 's|0.17 &times; X%|0.18 \&times; X%|' "$D/p.html" >"$D/bad.html"
	run python3 "$BATS_TEST_DIRNAME/browser_check.py" "$D/bad.html" "$D/show.json" "$D/shot.png" "$D/prof.json"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"FAIL: mem mmap -p 4KB -f demand -s 64MB clearing base:"*"'21.9%"* ]]
	[[ $output == *"FAIL: mem mmap -p 4KB -f demand -s 64MB nt-clear: bound"*"does not follow"* ]]
}

# partial_store: $D/p.db, the fixture where base's first run did not have exc_page_fault among its top five.
partial_store() {
	cp "$S/profile.db" "$D/p.db"
	STORE="$D/p.db" store_sql "DELETE FROM sample WHERE id = (SELECT min(s.id) FROM sample s
		JOIN resultclass r ON r.id = s.resultclass_id
		WHERE r.name = 'mmap -p 4KB -f demand -s 64MB :profile:exc_page_fault')"
}

@test "a symbol missing from some runs' top five says in how many runs its share was measured" {
	need_cairo
	partial_store
	"$CP" report --store "$D/p.db" -o "$D/p.html" >/dev/null
	sed -n '/id="profile-profile-box-2"/,/<\/section>/p' "$D/p.html" >"$D/sec"
	row=$(grep 'data-symbol="exc_page_fault"' "$D/sec")
	[[ $row == *'<span class="runs">in 3 of 4 runs</span></td><td class="num"'* ]] || { echo "$row"; return 1; }
	[ "$(grep -c 'class="runs"' "$D/sec")" -eq 1 ]
	! grep -q 'class="runs"' "$GOLDEN/profile.html"
	# show --profile says the same, under the symbol's line, in text and JSON
	run --separate-stderr "$CP" show --store "$D/p.db" --profile --format grid
	[ "$status" -eq 0 ]
	sed -n '/^mem mmap -p 4KB -f demand -s 64MB$/,/^mem /p' <<<"$output" >"$D/txt"
	[ "$(grep -A1 '^  exc_page_fault ' "$D/txt" | tail -1 | tr -s ' ')" = " in runs (the others count 0) 3 of 4 4 of 4" ] ||
		{ cat "$D/txt"; return 1; }
	[ "$(grep -c 'in runs (the others count 0)' <<<"$output")" -eq 1 ]
	run --separate-stderr "$CP" show --store "$D/p.db" --profile --format json
	[ "$status" -eq 0 ]
	json_check '
p = [p for p in d["blocks"][0]["profiles"] if p["benchmark"] == "mem mmap -p 4KB -f demand -s 64MB"][0]
cells = {(s["symbol"], c["swprofile"]): c for s in p["symbols"] for c in s["columns"]}
c = cells[("exc_page_fault", "base")]
assert c["partial"] and (c["runs"], c["of_runs"], c["sessions"], c["of_sessions"]) == (3, 4, 2, 2), c
assert [k for k, c in cells.items() if c["partial"]] == [("exc_page_fault", "base")], cells
# its share is over the 4 runs, the one without it counted 0: the mean of the 3 that had it, times 3/4
assert abs(c["share_pct"] - c["share_in_runs_pct"] * 3 / 4) < 1e-9, c
full = cells[("exc_page_fault", "nt-clear")]
assert full["share_pct"] == full["share_in_runs_pct"], full'
}

@test "one share per symbol: the table row, its change, the summary, JSON and the report count a run without the symbol 0" {
	need_cairo
	partial_store
	run --separate-stderr "$CP" show --store "$D/p.db" --profile --format grid
	[ "$status" -eq 0 ]
	row=$(grep -F '| mmap -p 4KB -f demand -s 64MB :profile:exc_page_fault (%)' <<<"$output" | tr -s ' ')
	sum=$(sed -n '/^mem mmap -p 4KB -f demand -s 64MB$/,/^mem /p' <<<"$output" | grep '^  exc_page_fault ' | tr -s ' ')
	# the summary's 13.6% (+5.5 pp) is the table's 13.61 (+5.49 pp), not the mean of the 3 runs that had it (18.04)
	[[ $row == *"| 13.61 | "*" +5.49 pp |" ]] || { echo "$row"; return 1; }
	[ "$sum" = " exc_page_fault 13.6% 19.1% (+5.5 pp)" ] || { echo "$sum"; return 1; }
	# the table says which share is partial, and over how many runs
	[[ $output == *$'
Partial shares: '*'counts 0 in its share: mmap -p 4KB -f demand -s 64MB :profile:exc_page_fault in 3 of 4 runs of base.'* ]] ||
		{ echo "$output"; return 1; }
	[ "$(grep -c '^Partial shares' <<<"$output")" -eq 1 ]
	run --separate-stderr "$CP" show --store "$D/p.db" --profile --format csv
	[ "$status" -eq 0 ]
	grep -F 'exc_page_fault' <<<"$output" | grep -v 'thp always' | grep -q '13\.6' || { echo "$output"; return 1; }
	run --separate-stderr "$CP" show --store "$D/p.db" --profile --format json
	[ "$status" -eq 0 ]
	json_check '
res = {r["resultclass"]: r for r in d["blocks"][0]["results"]}
row = res["mmap -p 4KB -f demand -s 64MB :profile:exc_page_fault"]["columns"]
p = [p for p in d["blocks"][0]["profiles"] if p["benchmark"] == "mem mmap -p 4KB -f demand -s 64MB"][0]
cells = {(s["symbol"], c["swprofile"]): c for s in p["symbols"] for c in s["columns"]}
for col in row:
    c = cells[("exc_page_fault", col["swprofile"])]
    assert abs(col["level"] - c["share_pct"]) < 1e-9, (col, c)
assert abs(row[1]["change_pp"] - cells[("exc_page_fault", "nt-clear")]["change_pp"]) < 1e-9, row
assert abs(row[0]["level"] - cells[("exc_page_fault", "base")]["share_in_runs_pct"] * 3 / 4) < 1e-9, row
assert row[0]["n"] == 4, row[0]'
	"$CP" report --store "$D/p.db" -o "$D/p.html" >/dev/null
	sed -n '/id="profile-profile-box-2"/,/<\/section>/p' "$D/p.html" | grep 'data-symbol="exc_page_fault"' |
		grep -q '>13\.6%<' || { grep exc_page_fault "$D/p.html"; return 1; }
}

@test "one share per symbol when columns share sessions (--columns param:f, paired): the summary's is the table's level" {
	# the fixture's nt-clear runs as a second -f of base's sessions: -f demand and -f populate measured together
	python3 - "$BATS_TEST_DIRNAME/../fixtures/show/profile.csv" >"$D/paired.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(rows[0])
started = {r[2]: r[10] for r in rows[1:] if r[1] == "base"}
for r in rows[1:]:
    if "--thp" in r[3] or "memset" in r[3]:
        continue
    if r[1] == "nt-clear":
        r[1], r[2] = "base", r[2][:-1] + {"3": "1", "4": "2"}[r[2][-1]]
        r[10] = started[r[2]]
        r[3], r[4] = r[3].replace("-f demand", "-f populate"), r[4].replace("-f demand", "-f populate")
    w.writerow(r)
PY
	"$CP" import --store "$D/p.db" "$D/paired.csv" >/dev/null
	# populate's first run did not keep exc_page_fault
	STORE="$D/p.db" store_sql "DELETE FROM sample WHERE id = (SELECT min(s.id) FROM sample s
		JOIN resultclass r ON r.id = s.resultclass_id
		WHERE r.name = 'mmap -p 4KB -f populate -s 64MB :profile:exc_page_fault')"
	run --separate-stderr "$CP" show --store "$D/p.db" --profile --columns param:f --format json
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	json_check '
(b,) = d["blocks"]
res = {r["resultclass"].split(" :profile:")[1]: r["columns"] for r in b["results"]}
(p,) = b["profiles"]
implied = 0
for s in p["symbols"]:
    for c in s["columns"]:
        col = [x for x in res[s["symbol"]] if x["value"] == c["value"]][0]
        assert (c["share_pct"] is None) == ("level" not in col), (s["symbol"], c, col)
        if c["share_pct"] is not None:
            assert abs(c["share_pct"] - col["level"]) < 1e-9, (s["symbol"], c, col)
            assert (c["change_pp"] is None) == ("change_pp" not in col), (s["symbol"], c, col)
            assert c["change_pp"] is None or abs(c["change_pp"] - col["change_pp"]) < 1e-9, (s["symbol"], c, col)
            implied += col["level_implied"] and abs(col["level"] - col["mean"]) > 1e-6
assert implied > 0, "no paired cell whose implied level differs from its own: the test checks nothing"'
}

@test "show --profile and the report say how each column was sampled: not recorded for imported shares" {
	need_cairo
	run --separate-stderr "$CP" show --profile --format grid
	[ "$status" -eq 0 ]
	[ "$(grep -c '^  sampled with  *not recorded  *not recorded$' <<<"$output")" -eq 2 ] || { echo "$output"; return 1; }
	run --separate-stderr "$CP" show --profile --format json
	json_check '
for p in d["blocks"][0]["profiles"]:
    for c in p["columns"]:
        s = c["sampling"]
        assert s["text"] == "not recorded" and s["not_recorded"] == s["sessions"] == c["sessions"] > 0, c
        assert s["ways"] == [], s'
	"$CP" report -o "$D/p.html" >/dev/null
	[ "$(grep -c '<p class="sampled">Sampled with <b>base</b>: not recorded; <b>nt-clear</b>: not recorded.</p>' "$D/p.html")" -eq 2 ]
}

@test "show --profile: a share's change is in percentage points, not a per cent of per cents; and never a member above its category" {
	run --separate-stderr "$CP" show --profile --format grid
	[ "$status" -eq 0 ]
	[[ "$(grep -F 'mmap -p 4KB -f demand -s 64MB :profile:clearing (%)' <<<"$output" | tr -s ' ')" == *"| 21.82 | (?) -4.47 pp |" ]] ||
		{ echo "$output"; return 1; }
	[[ "$output" == *$'\npp: a share\'s change in percentage points, the column\'s share minus the base\'s'* ]]
	run --separate-stderr "$CP" show --profile --format json
	json_check '
for b in d["blocks"]:
    for r in b["results"]:
        base = r["columns"][0]
        for c in r["columns"][1:]:
            if "change_pct" in c:
                assert abs(c["change_pp"] - (c["level"] - base["level"])) < 1e-9, c
# every summary: a clearing member never above the category it is part of
for b in d["blocks"]:
    for p in b["profiles"]:
        cat = {c["swprofile"]: c["share_pct"] for s in p["symbols"] if s["symbol"] == "clearing" for c in s["columns"]}
        for s in p["symbols"]:
            for c in s["columns"]:
                if s.get("clearing") and s["symbol"] != "clearing" and c["share_pct"] is not None:
                    assert c["share_pct"] <= cat[c["swprofile"]] + 1e-9, (s["symbol"], c, cat)'
}
