#!/usr/bin/env bats
# consistency.bats: one estimate behind every number: base x (1 + change) = the level, in every format and JSON,
# one-row geomean = the row, the answer's numbers = the table's, the report page's tables, study and answer =
# JSON's, its plots = the tables; make run's store.
#
# tests/fixtures/show/makerun.csv.gz is `make run`'s store on the 2-core development VM (plans/quick.yaml,
# 4 sessions), as `export --whole` wrote it.  The interrupted store is the same with its last session cut
# short (killed part way: its later samples missing) and a few wild samples (a stall) in another.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	local cp=${CLEARPATH:-./clearpath} fix="$BATS_TEST_DIRNAME/../fixtures/show"
	gzip -dc "$fix/makerun.csv.gz" >"$BATS_FILE_TMPDIR/makerun.csv"
	"$cp" import --store "$BATS_FILE_TMPDIR/makerun.db" "$BATS_FILE_TMPDIR/makerun.csv" >/dev/null
	"$cp" export --store "$BATS_FILE_TMPDIR/makerun.db" --format csv "$BATS_FILE_TMPDIR/samples.csv"
	python3 - "$BATS_FILE_TMPDIR/samples.csv" "$BATS_FILE_TMPDIR/interrupted.csv" <<-'EOF'
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1])))
	sessions = sorted({r["session"] for r in rows}, key=lambda u: min(r["session_started"] for r in rows
	                                                                   if r["session"] == u))
	last, stalled = sessions[-1], sessions[1]
	# the last session killed after 40% of its samples
	mine = sorted((r for r in rows if r["session"] == last), key=lambda r: r["sample_time"])
	cut = {id(r) for r in mine[int(0.4 * len(mine)):]}
	kept = [r for r in rows if id(r) not in cut]
	# a stall in one repeat of two cells of another session: a quarter of the rate
	for r in kept:
	    if r["session"] == stalled and r["iteration"] == "1" and r["warmup"] == "0" and (
	            r["resultclass"] in ("memset -f default -s 64MB -l 5", "clear -k 4KB -f x86-64-stosq -s 64MB")):
	        r["value"] = repr(float(r["value"]) * 0.25)
	w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
	w.writeheader()
	w.writerows(kept)
	EOF
	"$cp" import --store "$BATS_FILE_TMPDIR/interrupted.db" "$BATS_FILE_TMPDIR/interrupted.csv" >/dev/null
}

setup() {
	CP=${CLEARPATH:-./clearpath}
	S=$BATS_FILE_TMPDIR
	D=$BATS_TEST_TMPDIR
	unset COLUMNS
}

@test "make run's store: base x (1 + change) is every cell's level in every format and JSON; one-row geomean = row; the answer quotes the table" {
	# every check reads the report page, which the arm64 build (no cairo) cannot draw
	CLEARPATH_STORE=$S/makerun.db need_cairo
	run python3 "$BATS_TEST_DIRNAME/consistency_check.py" "$CP" "$S/makerun.db"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "91 JSON cells, 455 table cells in 5 formats, 15 one-row tables, 15 quotes of the answer, 204 cells and 15 quotes of the page checked" ]]
}

@test "the check fails a page whose table cell, study cell or answer is not JSON's, an undecided cell unmarked, a one-row geomean off its row" {
	CLEARPATH_STORE=$S/makerun.db need_cairo
	# a clearpath whose page (report -o) has one change of the result table, one rate of the study and
	# one rate of its answer changed after it was written, and whose tables print one undecided change
	# (c-loop's clear at 4KB) without its (?), like a decided "no change", and memset's one-row geometric
	# mean for c-loop otherwise than its row
	cat >"$D/cp" <<-EOF
	#!/bin/sh
	out=\$("$CP" "\$@") || exit
	printf '%s\\n' "\$out" | sed -e 's/(?) \\(-16\\.29% \\)/\\1/' -e '/geometric mean/s/-42\\.57%/-42.58%/'
	while [ \$# -gt 1 ]; do [ "\$1" = -o ] && sed -i -e 's|(?) +4.39%</td>|(?) +5.39%</td>|' \\
	    -e 's|8.51 GB/sec, (?) +31.44% vs default</td>|8.61 GB/sec, (?) +31.44% vs default</td>|' \\
	    -e 's|x86-64-nt-avx512 at 9.31 GB/sec|x86-64-nt-avx512 at 9.41 GB/sec|' "\$2"; shift; done
	EOF
	chmod +x "$D/cp"
	run python3 "$BATS_TEST_DIRNAME/consistency_check.py" "$D/cp" "$S/makerun.db"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"FAIL: page: clear -k 4KB -s 64MB (bytes/sec) x86-64-stosb: '(?) +5.39%', JSON has undecided 4.39"* ]]
	[[ "$output" == *"FAIL: page: clear -k 4KB -s 64MB (bytes/sec) x86-64-stosb: base 6951783306.22 x (1 + +5.39%) is not the level"* ]]
	[[ "$output" == *"FAIL: page: study 4KB x86-64-movnti clear: 8.61, the table's level is "* ]]
	[[ "$output" == *"FAIL: page: study 4KB x86-64-movnti clear: 6.47 x (1 + +31.44%) is not 8.61"* ]]
	[[ "$output" == *"FAIL: answer: clear -k 4KB -s 64MB x86-64-nt-avx512 at 9.41 GB/sec, the table's level is "* ]]
	for f in box grid compact markdown csv; do
		[[ "$output" == *"FAIL: $f: clear -k 4KB -s 64MB (bytes/sec) c-loop: '-16.29% ["*"' is not marked as JSON's undecided"* ]]
	done
	for f in box grid markdown csv; do
		[[ "$output" == *"FAIL: $f: memset -s 64MB -l 5 c-loop: geomean '-42.58%', row '-42.57%'"* ]]
	done
	[ "$(grep -c '^FAIL' <<<"$output")" -eq 14 ]
}

@test "an interrupted session and outliers: the same identities hold where paired columns lack sessions" {
	CLEARPATH_STORE=$S/makerun.db need_cairo
	# the store is what the test means: outliers flagged, and columns with fewer sessions than their base
	run --separate-stderr "$CP" show --store "$S/interrupted.db" --columns param:f --base default --format json
	json_check 'cells = [c for b in d["blocks"] for r in b["results"] for c in r["columns"]]
assert sum(len(c.get("outliers", [])) for c in cells) >= 2, "no outliers"
assert any(c.get("sessions", 4) < 4 for c in cells), "no cell lost a session"
assert any(c.get("level_implied") for c in cells), "no paired cell"'
	run python3 "$BATS_TEST_DIRNAME/consistency_check.py" "$CP" "$S/interrupted.db"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *" JSON cells, "*" table cells in 5 formats, "*" one-row tables, "*" quotes of the answer, "*" cells and "*" quotes of the page checked" ]]
}

@test "headless Chromium: make run's report has the terminal's tables, rate axes from zero, whiskers around their marks, under 1.5 MB" {
	CLEARPATH_STORE=$S/makerun.db need_cairo
	command -v chromium >/dev/null || command -v chromium-browser >/dev/null || skip "no chromium (scripts/install-deps installs it)"
	"$CP" report --store "$S/makerun.db" -o "$D/r.html" >/dev/null
	# the three tables make run prints after the answer (the Makefile's run target)
	"$CP" show --store "$S/makerun.db" --columns param:f --base default --benchmark 'mem/clear' --format json >"$D/1.json"
	"$CP" show --store "$S/makerun.db" --columns param:f --base default --benchmark 'mem/memset' --format json >"$D/2.json"
	"$CP" show --store "$S/makerun.db" --benchmark 'mem/mmap' --format json >"$D/3.json"
	run python3 "$BATS_TEST_DIRNAME/browser_check.py" --max-bytes 1500000 --show "$D/2.json" --show "$D/3.json" \
		"$D/r.html" "$D/1.json" "$D/shot.png"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "3 plots, 15 panels, 3 tables, 106 cells checked, "* ]]
	# and the check fails a page whose whisker misses its mark or whose axis goes below zero
	python3 - "$D/r.html" "$D/bad.html" <<-'EOF'
	import html, json, re, sys
	page = open(sys.argv[1]).read()
	def spoil(m):
	    panels = json.loads(html.unescape(m.group(1)))
	    panels[0]["axis"][0] = -1.0
	    panels[1]["cols"][1]["hi"] = panels[1]["cols"][1]["level"] * 0.9
	    return 'data-panels="' + html.escape(json.dumps(panels)) + '"'
	open(sys.argv[2], "w").write(re.sub(r'data-panels="([^"]*)"', spoil, page, count=1))
	EOF
	run python3 "$BATS_TEST_DIRNAME/browser_check.py" --max-bytes 1500000 --show "$D/2.json" --show "$D/3.json" \
		"$D/bad.html" "$D/1.json" "$D/shot.png"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the rate axis starts at -1, below zero"* ]]
	[[ "$output" == *"misses its mean"* ]]
	run python3 "$BATS_TEST_DIRNAME/browser_check.py" --max-bytes 100000 "$D/r.html" "$D/1.json" "$D/shot.png"
	[ "$status" -eq 1 ]
	[[ "$output" == *"more than 100000"* ]]
}

@test "make run's header: the doctor's warnings every column shares are printed once, under All columns" {
	run --separate-stderr "$CP" show --store "$S/makerun.db" --columns param:f --base default --benchmark 'mem/memset' --header
	[ "$status" -eq 0 ]
	[ "$(grep -c 'Doctor WARN virtualisation in 4 of 4 sessions' <<< "$output")" -eq 1 ]
	[ "$(grep -c 'Doctor WARN page-reporting' <<< "$output")" -eq 1 ]
	# above the columns, which no longer repeat it
	[[ "$output" == *$'All columns: kernel '*$'\n  Doctor WARN '*$'\ndefault (base): 4 sessions'* ]]
	# the report's header is the same text (where the build draws reports: not the arm64 one)
	CLEARPATH_STORE=$S/makerun.db need_cairo
	"$CP" report --store "$S/makerun.db" -o "$D/r.html" >/dev/null
	[ "$(grep -o 'Doctor WARN virtualisation in 4 of 4 sessions' "$D/r.html" | wc -l)" -eq 3 ]
}
