#!/usr/bin/env bats
# show.bats: `clearpath show` on fixed imported datasets: golden tables per format, every option, bad input.
#
# The datasets are tests/fixtures/show/*.csv (written by make-seed-csv there):
#   seed.csv   the mailing-list thread's shape: 2 SUT classes x 3 result classes x 2 swprofiles,
#              4 sessions x (1 warmup + 3 repeats); aws memset (I), aws mmap 4KB (R), aws mmap 1GB
#              no marker, cesw mmap 1GB (I) only under --rule fastpath
#   param.csv  one kernel, clear strategies -f default|x86-64-stosb|x86-64-movnti at two extents
#   gaps.csv   'one-shot' has one memset sample only, 2MB mmap only under 'patched', a latency (ns)
#   flat.csv   seed.csv with every sample equal to its cell's mean: no spread anywhere
#   header.db  seed.csv plus machine and kernel fingerprints and session environments (add-fingerprints)
#   param-header.db  param.csv with one kernel's fingerprint and environment for every session
#   wide.db    nine kernels side by side on one SUT class (make-wide-csv), for --width
# The golden files are what users paste into mail: after UPDATE_GOLDEN=1 read them by eye.

bats_require_minimum_version 1.5.0
load helpers

WITHOUT="next-20260821 without this patch"
WITH="next-20260821 with this patch"

setup_file() {
	local cp=${CLEARPATH:-./clearpath} fix="$BATS_TEST_DIRNAME/../fixtures/show"
	# imported once: show only reads the stores
	for f in seed param gaps flat; do
		"$cp" import --store "$BATS_FILE_TMPDIR/$f.db" "$fix/$f.csv" >/dev/null
	done
	# the seed with the fingerprints and environments a real run records
	cp "$BATS_FILE_TMPDIR/seed.db" "$BATS_FILE_TMPDIR/header.db"
	"$fix/add-fingerprints" "$BATS_FILE_TMPDIR/header.db"
	cp "$BATS_FILE_TMPDIR/param.db" "$BATS_FILE_TMPDIR/param-header.db"
	"$fix/add-fingerprints" --one-kernel "$BATS_FILE_TMPDIR/param-header.db"
	"$fix/make-wide-csv" >"$BATS_FILE_TMPDIR/wide.csv"
	"$cp" import --store "$BATS_FILE_TMPDIR/wide.db" "$BATS_FILE_TMPDIR/wide.csv" >/dev/null
}

setup() {
	# the default --width follows $COLUMNS: the goldens are unlimited
	unset COLUMNS
	CP=${CLEARPATH:-./clearpath}
	GOLDEN="$BATS_TEST_DIRNAME/../golden/show"
	S=$BATS_FILE_TMPDIR
	D=$BATS_TEST_TMPDIR/w
	mkdir -p "$D"
	export CLEARPATH_STORE="$S/seed.db"
}

# Compare `show ARGS...` byte for byte with tests/golden/show/$1.txt; UPDATE_GOLDEN=1 writes it.
golden() {
	local name=$1 rc=0
	shift
	"$CP" show "$@" >"$D/$name.out" 2>"$D/$name.err" || rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc: $(cat "$D/$name.err")"; return 1; }
	# nothing on stderr but the note that a table too wide even split was printed compact
	! grep -v 'printed as --format compact instead of' "$D/$name.err" || { echo "stderr: $(cat "$D/$name.err")"; return 1; }
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		mkdir -p "$GOLDEN"
		cp "$D/$name.out" "$GOLDEN/$name.txt"
	fi
	diff -u "$GOLDEN/$name.txt" "$D/$name.out" && return 0
	# The goldens are written on x86-64.  Elsewhere GSL and libm are other builds (arm64's fuse
	# multiply-adds) whose p-values and intervals can differ in the last bits of a double, which
	# JSON prints to 17 digits: there the JSON must agree number by number to 1e-12 relative.
	[ "$(cp_machine)" != x86_64 ] && [[ " $* " == *" --format json "* ]] || return 1
	python3 - "$GOLDEN/$name.txt" "$D/$name.out" <<'EOF'
import json, math, sys
def same(a, b, path):
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), path
        assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-300), (path, a, b)
    elif isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), path
        for k in a:
            same(a[k], b[k], path + "." + k)
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, "%s[%d]" % (path, i))
    else:
        assert a == b, (path, a, b)
same(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), "")
EOF
}

# $output with runs of spaces squeezed to one, for matching headers whatever their padding.
squeezed() {
	tr -s ' ' <<< "$output"
}

# The table row of result class $1 (grid format: the line holding it), in the machines' tables.
row_of() {
	tables_only | grep -F -- "$1"
}

# $output without the fleet summary that follows the machines' tables.
tables_only() {
	sed '/^Fleet summary/,$d' <<< "$output"
}

# A copy of the seed store whose sessions ran with THP "madvise", except $1's ("*": all) with "always".
settings_store() {
	cp "$S/seed.db" "$D/env.db"
	python3 - "$D/env.db" "$1" <<-'EOF'
	import json, sqlite3, sys
	db = sqlite3.connect(sys.argv[1])
	for sid, swp in db.execute("SELECT session.id, swprofile.name FROM session"
	                           " JOIN swprofile ON swprofile.id = session.swprofile_id").fetchall():
	    thp = "always" if sys.argv[2] in (swp, "*") else "madvise"
	    env = {"settings": {"thp_enabled": thp, "thp_defrag": "madvise"}}
	    db.execute("UPDATE session SET environment = ? WHERE id = ?", (json.dumps(env), sid))
	db.commit()
	EOF
}

@test "show: golden box" {
	golden box --format box
}

@test "show: golden grid, which is also the default when stdout is not a terminal" {
	golden grid --format grid
	golden grid
}

@test "show: golden compact" {
	golden compact --format compact
}

@test "show: golden markdown" {
	golden markdown --format markdown
}

@test "show: golden csv" {
	golden csv --format csv
}

@test "show: golden json" {
	golden json --format json
}

@test "show: golden --stats grid" {
	golden grid-stats --stats
}

@test "show: golden --rule fastpath grid" {
	golden grid-fastpath --rule fastpath
}

@test "show: golden --columns sut grid" {
	golden grid-columns-sut --columns sut
}

@test "show: golden --columns param:f grid" {
	golden grid-param-f --store "$S/param.db" --columns param:f
}

@test "show: golden grid with a missing cell, no base value and a single-sample column" {
	golden grid-gaps --store "$S/gaps.db" --stats
}

@test "show: the seed's table: one block per SUT class, base absolute, the patch in % with markers" {
	run --separate-stderr "$CP" show
	[ "$status" -eq 0 ]
	[ "$(grep -c '^Results for SUT Class ' <<< "$output")" -eq 2 ]
	[ "${lines[0]}" = "Results for SUT Class aws-m7g.metal:" ]
	[[ "$output" == *$'\nResults for SUT Class cesw-aarch64-ampereone-1s-a192-32x:\n'* ]]
	[[ "$output" == *"| Benchmark | Result Class "*"| $WITHOUT (base) | $WITH |"* ]]
	# warmups (7% slower in the fixture) are left out: the means are exactly the post's
	[[ "$(row_of 'memset -k 1GB -f default -s 16GB (bytes/sec)' | head -1)" =~ \|\ +63932542232\.12\ \|\ +\(I\)\ \+1\.92%\ \|$ ]]
	# undecided: the interval [-1.53, +0.40] says neither "changed" nor "no 1% change"
	[[ "$(row_of 'mmap -p 1GB' | head -1)" =~ \|\ +63272579168\.03\ \|\ +\(\?\)\ -0\.57%\ \|$ ]]
	[[ "$(row_of 'mmap -p 4KB' | head -1)" =~ \|\ +49692830849\.48\ \|\ +\(R\)\ -1\.11%\ \|$ ]]
	# the benchmark only on the first row of its group
	[ "$(grep -c '^| perf/mem ' <<< "$output")" -eq 2 ]
	[ "$(grep -c 'geometric mean of ratios (+ is better)' <<< "$output")" -eq 2 ]
	[ "$(grep -c '^(I) improvement, (R) regression: the 95% confidence interval of the change excludes 0' <<< "$output")" -eq 2 ]
}

@test "show: the seed post's two tables, every string of them as the post has it (tests/fixtures/show/seed-post.txt)" {
	# the post's titles, headers, benchmark, result classes and base levels byte for byte; each change
	# the post's number, now with its sign and mark; show adds the geometric mean and the legend
	"$CP" show --format box >"$D/box.txt"
	python3 - "$BATS_TEST_DIRNAME/../fixtures/show/seed-post.txt" "$D/box.txt" <<-'EOF'
	import re, sys
	def tables(text):
	    out, cur = [], None
	    for line in text.splitlines():
	        if line.startswith("Results for SUT Class "):
	            cur = {"title": line, "rows": []}
	            out.append(cur)
	        elif line.startswith("Fleet summary"):
	            cur = None  # the tables' cells again, checked by fleet_check.py
	        elif cur is not None and line.startswith("\u2502"):
	            cur["rows"].append([c.strip() for c in line.strip()[1:-1].split("\u2502")])
	    return out
	post, got = tables(open(sys.argv[1]).read()), tables(open(sys.argv[2]).read())
	assert [t["title"] for t in post] == [t["title"] for t in got] and len(post) == 2, (post, got)
	for p, g in zip(post, got):
	    rows = [r for r in g["rows"] if not r[1].startswith("geometric mean")]
	    assert len(rows) == len(p["rows"]) == 4, (p, g)
	    for pr, gr in zip(p["rows"], rows):
	        assert pr[:3] == gr[:3], (pr, gr)
	        change = re.sub(r"^\([IR?-]\) ", "", gr[3])
	        assert change == pr[3] or change == "+" + pr[3], (pr, gr)
	EOF
}

@test "show: --rule nested and fastpath disagree where sessions differ and repeats do not" {
	run --separate-stderr "$CP" show --sut 'cesw*'
	[[ "$(row_of 'mmap -p 1GB')" =~ \|\ +\(\?\)\ \+1\.16%\ \|$ ]]
	run --separate-stderr "$CP" show --sut 'cesw*' --rule fastpath
	[[ "$(row_of 'mmap -p 1GB')" =~ \|\ +\(I\)\ \+1\.16%\ \|$ ]]
	[[ "$output" == *"the columns' 95% confidence intervals do not overlap"*"(fastpath rule: samples pooled, sessions ignored); unmarked: they overlap"* ]]
	run --separate-stderr "$CP" show --sut 'cesw*' --rule nested --format json
	json_check 'c = d["blocks"][0]["results"][1]["columns"][1]
assert d["rule"] == "nested" and c["verdict"] == "none", c
assert c["change_ci95_low"] < 0 < c["change_ci95_high"], c'
}

# A copy of the seed store run through the SQL in $1 (python3's sqlite3: the test image has no sqlite3 CLI).
edited_store() {
	cp "$S/seed.db" "$D/edit.db"
	python3 - "$D/edit.db" "$1" <<-'EOF'
	import sqlite3, sys
	db = sqlite3.connect(sys.argv[1])
	db.executescript(sys.argv[2])
	db.commit()
	EOF
}

@test "show: identical samples (no spread) get no verdict, not one from rounding noise" {
	run --separate-stderr "$CP" show --store "$S/flat.db"
	[ "$status" -eq 0 ]
	[ "$(grep -cE '\((I|R)\) [+-][0-9]' <<< "$output")" -eq 0 ]
	[[ "$(row_of 'mmap -p 4KB' | tail -1)" =~ \|\ +\(-\)\ -0\.85%\ \|$ ]]
	[[ "$output" == *"(-) too little data for a verdict: no spread in either column"* ]]
	run --separate-stderr "$CP" show --store "$S/flat.db" --format json
	json_check 'for b in d["blocks"]:
    for r in b["results"]:
        c = r["columns"][1]
        assert c["verdict"] == "insufficient" and "no spread" in c["why"], c
        assert c["decided"] is False, c'
}

@test "show: a column with one session gets no verdict, and says how many sessions it needs" {
	# keep one of the patched kernel's four sessions
	edited_store "DELETE FROM sample WHERE session_id IN (SELECT s.id FROM session s JOIN swprofile w
	  ON w.id = s.swprofile_id WHERE w.name = '$WITH' AND s.uuid NOT LIKE '%000000000001');"
	run --separate-stderr "$CP" show --store "$D/edit.db" --sut 'aws-*'
	[ "$status" -eq 0 ]
	[ "$(grep -cE '\((I|R)\) [+-][0-9]' <<< "$output")" -eq 0 ]
	[[ "$output" == *"too little data for a verdict: fewer than 2 sessions in the compared column."* ]]
	[[ "$output" == *$'\nUndecided: 3 of 3 cells; detecting a 1% change takes up to '*' sessions per column.'* ]]
	run --separate-stderr "$CP" show --store "$D/edit.db" --sut 'aws-*' --format json
	json_check 'for r in d["blocks"][0]["results"]:
    c = r["columns"][1]
    assert c["sessions"] == 1 and c["verdict"] == "insufficient", c
    assert c["comparison"] == "independent" and c["mde_pct"] is None, c
    assert isinstance(c["sessions_needed"], int) and c["sessions_needed"] >= 2, c'
	# a bigger --target needs fewer sessions
	run --separate-stderr "$CP" show --store "$D/edit.db" --sut 'aws-*' --format json --target 0.5
	json_check 'assert d["target_pct"] == 0.5
c = d["blocks"][0]["results"][1]["columns"][1]
assert c["sessions_needed"] > 7, c'
}

@test "show: an outlier sample is flagged, set aside, and does not change the verdict" {
	# one repeat of one patched memset session 20% low, as a compaction stall would leave it
	edited_store "UPDATE sample SET value = value * 0.8 WHERE warmup = 0 AND iteration = 1 AND session_id =
	  (SELECT s.id FROM session s WHERE s.uuid = '5eed0010-0000-4000-8000-000000000001') AND resultclass_id =
	  (SELECT id FROM resultclass WHERE name LIKE 'memset%');"
	run --separate-stderr "$CP" show --store "$D/edit.db" --sut 'aws-*' --stats
	[ "$status" -eq 0 ]
	[[ "$(row_of 'memset -k 1GB')" == *"(I) +"*" n=12/4 cv="*" o=1 |" ]]
	run --separate-stderr "$CP" show --store "$D/edit.db" --sut 'aws-*' --format json
	json_check 'c = d["blocks"][0]["results"][0]["columns"][1]
assert c["verdict"] == "improvement", c
assert len(c["outliers"]) == 1 and c["outliers"][0]["session"] == "5eed0010-0000-4000-8000-000000000001", c
assert abs(c["change_pct"] - 1.92) < 0.1, c
assert c["mean"] < 0.99 * c["level"], c'
}

@test "show: strategies of the same sessions are compared paired by session, and the legend says so" {
	run --separate-stderr "$CP" show --store "$S/param.db" --columns param:f
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nEstimate: a column\'s level is the mean of its sessions\' means (outliers set aside); columns measured in the same sessions are compared within each session (paired): the change is the geometric mean of the per-session ratios, and a column\'s level is base x (1 + change).'* ]]
	run --separate-stderr "$CP" show --store "$S/param.db" --columns param:f --format json
	json_check 'for r in d["blocks"][0]["results"]:
    for c in r["columns"][1:]:
        assert c["comparison"] == "paired", c'
	run --separate-stderr "$CP" show
	[ "$(grep -c '^Estimate: .*; change = level / base level - 1, compared between independent sessions' <<< "$output")" -eq 2 ]
}

@test "show: --sut GLOB keeps the matching SUT classes" {
	run --separate-stderr "$CP" show --sut 'aws-*'
	[ "$status" -eq 0 ]
	[ "$(grep -c '^Results for SUT Class' <<< "$output")" -eq 1 ]
	[ "${lines[0]}" = "Results for SUT Class aws-m7g.metal:" ]
	run --separate-stderr "$CP" show --sut '*ampereone*'
	[ "${lines[0]}" = "Results for SUT Class cesw-aarch64-ampereone-1s-a192-32x:" ]
	[[ "$output" != *aws* ]]
}

@test "show: --swprofile NAME, repeated: those columns in that order, the first is the base" {
	run --separate-stderr "$CP" show --sut 'aws-*' --swprofile "$WITH" --swprofile "$WITHOUT"
	[ "$status" -eq 0 ]
	[[ "$(squeezed)" == *"| $WITH (base) | $WITHOUT |"* ]]
	# 100 * (1 / 1.0192 - 1) = -1.88: the old kernel is slower than the patched one
	[[ "$(row_of 'memset -k 1GB')" =~ \|\ +65160047042\.98\ \|\ +\(R\)\ -1\.88%\ \|$ ]]
	# one column: no change, no geometric mean
	run --separate-stderr "$CP" show --swprofile "$WITH"
	[ "$status" -eq 0 ]
	[[ "$(squeezed)" == *"| $WITH (base) |"* ]]
	[[ "$output" != *"$WITHOUT"* ]]
	[[ "$output" != *"geometric mean"* ]]
	[[ "$output" != *%\ \|* ]]
}

@test "show: without --swprofile the columns come in the order they were first measured" {
	# the patched kernel's sessions moved before the base's: it becomes the first column and the base
	cp "$S/seed.db" "$D/early.db"
	python3 - "$D/early.db" "$WITH" <<-'EOF'
	import sqlite3, sys
	db = sqlite3.connect(sys.argv[1])
	db.execute("UPDATE session SET started = replace(started, '2026-08-23', '2026-08-21')"
	           " WHERE swprofile_id = (SELECT id FROM swprofile WHERE name = ?)", (sys.argv[2],))
	db.commit()
	EOF
	run --separate-stderr "$CP" show --store "$D/early.db" --sut 'aws-*'
	[ "$status" -eq 0 ]
	[[ "$(squeezed)" == *"| $WITH (base) | $WITHOUT |"* ]]
}

@test "show: --base NAME marks another column as the base without moving it" {
	run --separate-stderr "$CP" show --sut 'aws-*' --base "$WITH"
	[ "$status" -eq 0 ]
	[[ "$(squeezed)" == *"| $WITHOUT | $WITH (base) |"* ]]
	[[ "$(row_of 'memset -k 1GB')" =~ \|\ +\(R\)\ -1\.88%\ \|\ +65160047042\.98\ \|$ ]]
	run --separate-stderr "$CP" show --columns sut --base cesw-aarch64-ampereone-1s-a192-32x
	[ "$status" -eq 0 ]
	[[ "$(squeezed)" == *"| aws-m7g.metal | cesw-aarch64-ampereone-1s-a192-32x (base) |"* ]]
}

@test "show: --benchmark GLOB matches the suite or the result class" {
	run --separate-stderr "$CP" show --benchmark 'perf/*'
	[ "$(tables_only | grep -c 'bytes/sec')" -eq 6 ]
	run --separate-stderr "$CP" show --benchmark 'mmap -p 4KB*'
	[ "$status" -eq 0 ]
	[ "$(tables_only | grep -c 'bytes/sec')" -eq 2 ]
	[[ "$output" != *memset* && "$output" != *"-p 1GB"* ]]
	run --separate-stderr "$CP" show --benchmark 'nosuch*'
	refused 2 "no samples match: the store is empty or the filters exclude everything"
}

@test "show: --columns sut compares machines, one block per swprofile" {
	run --separate-stderr "$CP" show --columns sut --swprofile "$WITHOUT"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Results for swprofile $WITHOUT:" ]
	[ "$(grep -c '^Results for' <<< "$output")" -eq 1 ]
	[[ "$(squeezed)" == *"| aws-m7g.metal (base) | cesw-aarch64-ampereone-1s-a192-32x |"* ]]
	# 33895562998.71 / 63932542232.12 - 1
	[[ "$(row_of 'memset -k 1GB')" =~ \|\ +63932542232\.12\ \|\ +\(R\)\ -46\.98%\ \|$ ]]
}

@test "show: --columns param:f compares the strategies; --base puts one first" {
	run --separate-stderr "$CP" show --store "$S/param.db" --columns param:f --base x86-64-stosb
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Results for SUT Class vm-x86, swprofile 6.18.0:" ]
	[[ "$(squeezed)" == *"| x86-64-stosb (base) | default | x86-64-movnti |"* ]]
	# the parameter leaves the result class: one row per extent
	[[ "$(row_of 'clear -s 1GB -k 4KB (bytes/sec)')" =~ \|\ +18720000000\.00\ \|\ +\(R\)\ -3\.85%\ \|\ +\(R\)\ -13\.46%\ \|$ ]]
	# a parameter no benchmark has (a typo) is refused, not one column "(none)" of every sample
	run --separate-stderr "$CP" show --store "$S/param.db" --columns param:nosuch
	refused 2 "--columns param:nosuch: no benchmark here has a parameter 'nosuch'" "param:f or param:function"
	# the long name is the same parameter
	run --separate-stderr "$CP" show --store "$S/param.db" --columns param:function --base x86-64-stosb
	[ "$status" -eq 0 ]
	[[ "$(squeezed)" == *"| x86-64-stosb (base) | default | x86-64-movnti |"* ]]
}

@test "show: --min-effect: a big minimum removes every marker" {
	run --separate-stderr "$CP" show --min-effect 50
	[ "$status" -eq 0 ]
	[[ "$output" != *"(I) +"* && "$output" != *"(R) -"* ]]
	[[ "$output" == *"and |change| >= 50.00%"* ]]
	# the interval [+1.42, +2.42] excludes 0, but the change is below the minimum and not within 1%
	[[ "$(row_of 'memset -k 1GB' | head -1)" =~ \|\ +\(\?\)\ \+1\.92%\ \|$ ]]
}

@test "show: --alpha sets the level of every interval and the legend" {
	run --separate-stderr "$CP" show --alpha 0.001
	[ "$status" -eq 0 ]
	[[ "$output" == *"the 99.9% confidence interval of the change excludes 0"* ]]
	# the 99.9% interval of the aws 4KB mmap change reaches 0: no marker any more
	[[ "$(row_of 'mmap -p 4KB' | head -1)" =~ \|\ +\(\?\)\ -1\.11%\ \|$ ]]
	run --separate-stderr "$CP" show --alpha 0.1 --format json
	json_check 'assert d["alpha"] == 0.1, d["alpha"]'
	run --separate-stderr "$CP" show --alpha 0.1
	[[ "$output" == *"the 90% confidence interval"* ]]
}

# Every key of every cell of the JSON document in $output that holds an interval.
ci_keys() {
	# "ci" and a digit: "decided" is not an interval
	json_check 'import re
print(" ".join(sorted({k for b in d["blocks"] for r in b["results"] for c in r["columns"]
	                                 for k in c if re.search(r"ci[0-9]", k)})))'
}

@test "show: JSON keys that name the confidence level follow --alpha" {
	run --separate-stderr "$CP" show --format json
	[ "$status" -eq 0 ]
	[ "$(ci_keys)" = "change_ci95_high change_ci95_low ci95_halfwidth_pct ci95_high ci95_low" ]
	json_check 'assert d["confidence_level_pct"] == 95'
	run --separate-stderr "$CP" show --alpha 0.2 --format json
	[ "$status" -eq 0 ]
	[ "$(ci_keys)" = "change_ci80_high change_ci80_low ci80_halfwidth_pct ci80_high ci80_low" ]
	json_check 'assert d["confidence_level_pct"] == 80'
	# a wider interval than at 95%: the keys name what the numbers are
	json_check 'c = d["blocks"][0]["results"][0]["columns"][1]
assert c["change_ci80_high"] - c["change_ci80_low"] < 2.4175347584797224 - 1.4248822186229138, c'
	run --separate-stderr "$CP" show --alpha 0.001 --format json
	[ "$(ci_keys)" = "change_ci99_9_high change_ci99_9_low ci99_9_halfwidth_pct ci99_9_high ci99_9_low" ]
	json_check 'assert d["confidence_level_pct"] == 99.9'
}

@test "show: JSON carries the geometric-mean row of every block, as the tables show it" {
	run --separate-stderr "$CP" show --format json
	[ "$status" -eq 0 ]
	json_check 'for b in d["blocks"]:
    g = b["geomean"]
    assert g["label"] == "geometric mean of ratios (+ is better)", g
    assert [c["base"] for c in g["columns"]] == [True, False], g
    assert g["columns"][0]["change_pct"] is None, g
    print("%s %+.2f%%" % (b["sut"], g["columns"][1]["change_pct"]))' >"$D/json-geo"
	run --separate-stderr "$CP" show --format csv
	grep 'geometric mean' <<< "$output" | awk -F, '{ print $1 " " $NF }' | tr -d '\r' >"$D/csv-geo"
	diff -u "$D/csv-geo" "$D/json-geo"
	[ "$(wc -l <"$D/json-geo")" -eq 2 ]
	# gaps: a lower-is-better latency +5% slower counts as worse (-0.80% with memset's +2.5%
	# and mmap's 0), a column with one result class has that one, the missing 2MB row is left out
	run --separate-stderr "$CP" show --store "$S/gaps.db" --format json
	[ "$status" -eq 0 ]
	json_check 'import math
b = d["blocks"][0]
g = [c["change_pct"] for c in b["geomean"]["columns"]]
def want(col):
    q = [(1 + c["change_pct"] / 100) ** (1 if r["higher_is_better"] else -1)
         for r in b["results"] for c in [r["columns"][col]] if "change_pct" in c]
    return 100 * (math.exp(sum(map(math.log, q)) / len(q)) - 1)
assert g[0] is None and abs(g[1] - want(1)) < 1e-9 and abs(g[2] - want(2)) < 1e-9, (g, want(1), want(2))
assert round(g[1], 2) == -0.80 and round(g[2], 2) == -5.00, g'
}

@test "show: --color: ANSI only with 'always' when stdout is a pipe" {
	for c in auto never; do
		run --separate-stderr "$CP" show --color "$c"
		[ "$status" -eq 0 ]
		[[ "$output" != *$'\e['* ]]
	done
	run --separate-stderr "$CP" show --color always
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\e[32m(I) +1.92%\e[0m'* ]]
	[[ "$output" == *$'\e[31m(R) -1.11%\e[0m'* ]]
	# a cell without a verdict stays plain
	[[ "$(row_of 'mmap -p 1GB' | head -1)" != *$'\e['* ]]
}

@test "show: --fail-on-regression exits 4 when a cell is (R), 0 when none is" {
	run --separate-stderr "$CP" show --fail-on-regression
	[ "$status" -eq 4 ]
	[[ "$output" == *"(R) -1.11%"* ]]
	run --separate-stderr "$CP" show --fail-on-regression --format json
	[ "$status" -eq 4 ]
	json_check 'assert any(c.get("verdict") == "regression" for b in d["blocks"] for r in b["results"] for c in r["columns"])'
	run --separate-stderr "$CP" show --fail-on-regression --benchmark 'memset*'
	[ "$status" -eq 0 ]
	[[ "$output" == *"(I) +1.92%"* ]]
	# without the option a regression is not a failure
	run --separate-stderr "$CP" show
	[ "$status" -eq 0 ]
}

@test "show: a missing cell stays empty; too few samples show the change marked (-) and say why" {
	run --separate-stderr "$CP" show --store "$S/gaps.db"
	[ "$status" -eq 0 ]
	[[ "$(squeezed)" == *"| base (base) | patched | one-shot |"* ]]
	[[ "$(row_of 'memset -s 1GB')" =~ \|\ +20000000000\.00\ \|\ +\(I\)\ \+2\.50%\ \|\ +\(-\)\ -5\.00%\ \|$ ]]
	[[ "$(row_of 'mmap -p 4KB')" =~ \|\ +\+0\.00%\ \|\ +\|$ ]]
	# no base value: the column's own mean
	[[ "$(row_of 'mmap -p 2MB')" =~ \|\ +\|\ +30000000000\.00\ \|\ +\|$ ]]
	# lower is better: 5% more nanoseconds is a regression
	[[ "$(row_of '(ns)')" =~ \|\ +250\.00\ \|\ +\(R\)\ \+5\.00%\ \|\ +\|$ ]]
	[[ "$output" == *"(-) too little data for a verdict: fewer than 2 samples in the compared column."* ]]
	run --separate-stderr "$CP" show --store "$S/gaps.db" --format json
	json_check 'rows = {r["resultclass"]: r["columns"] for r in d["blocks"][0]["results"]}
one = rows["memset -s 1GB -f default"][2]
assert one["n"] == 1 and one["verdict"] == "insufficient" and "fewer than 2" in one["why"], one
assert rows["mmap -p 4KB -s 1GB -l 1"][2] == {"swprofile": "one-shot", "base": False, "state": "empty", "n": 0}
assert "change_pct" not in rows["mmap -p 2MB -s 1GB -l 1"][1]'
}

@test "show: columns that ran with different settings get a warning under the table and in JSON" {
	settings_store "$WITH"
	run --separate-stderr "$CP" show --store "$D/env.db" --sut 'aws-*'
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nWarning: '"$WITH"' ran with thp_enabled = "always", the base with "madvise": the comparison mixes settings.'* ]]
	[[ "$output" != *thp_defrag* ]]
	# the page marks the warnings (this one and the THP note's) as warnings, and only them: by the note's kind
	# (where the build draws reports: the arm64 one, without cairo, says it cannot)
	if report_drawn --store "$D/env.db" --sut 'aws-*' -o "$D/env.html"; then
		[ "$(grep -c '<li class="warning">Warning: ' "$D/env.html")" -eq 2 ]
		[ "$(grep -c '<li class="warning">' "$D/env.html")" -eq 2 ]
		grep -q '<li class="warning">Warning: '"$WITH"' ran with thp_enabled' "$D/env.html"
	fi
	run --separate-stderr "$CP" show --store "$D/env.db" --format json
	json_check 'for b in d["blocks"]:
    assert b["settings_differ"] == [{"column": "next-20260821 with this patch", "setting": "thp_enabled",
                                     "base": "madvise", "value": "always"}], b["settings_differ"]'
	# the same settings everywhere: no warning
	settings_store nobody
	run --separate-stderr "$CP" show --store "$D/env.db"
	[ "$status" -eq 0 ]
	[[ "$output" != *Warning* ]]
	run --separate-stderr "$CP" show --store "$D/env.db" --format json
	json_check 'assert all(b["settings_differ"] == [] for b in d["blocks"])'
}

@test "show: a 4KB mmap result that ran with THP always says it measured THP faults, in both columns too" {
	local warn='Warning: mmap -p 4KB -f demand -s 32GB -l 5 ran with THP enabled=always'
	local what=': it measured mostly 2MB THP faults, not 4KB faults; run it with --thp never to measure 4KB faults.'
	# both columns alike: no "mixes settings" warning, yet the 4KB numbers are THP faults
	settings_store '*'
	run --separate-stderr "$CP" show --store "$D/env.db" --format grid
	[ "$status" -eq 0 ]
	[[ "$output" != *"mixes settings"* ]]
	[[ "$output" == *$'\n'"$warn in both columns$what"* ]]
	[ "$(grep -c -- "$warn" <<< "$output")" -eq 2 ]	# once per SUT class, and only for the 4KB row
	[[ "$output" != *"mmap -p 1GB -f demand -s 32GB -l 5 ran with THP"* ]]
	run --separate-stderr "$CP" show --store "$D/env.db" --format json
	json_check 'for b in d["blocks"]:
    assert b["thp_always"] == [{"resultclass": "mmap -p 4KB -f demand -s 32GB -l 5", "unit": "bytes/sec",
                                "columns": ["next-20260821 without this patch", "next-20260821 with this patch"]}], b'
	# one column: named
	settings_store "$WITHOUT"
	run --separate-stderr "$CP" show --store "$D/env.db" --format compact
	[[ "$(tr '\n' ' ' <<< "$output" | tr -s ' ')" == *"$warn in $WITHOUT$what"* ]]
	# THP madvise everywhere, or nothing recorded: no warning
	settings_store nobody
	run --separate-stderr "$CP" show --store "$D/env.db" --format json
	json_check 'assert all(b["thp_always"] == [] for b in d["blocks"])'
	run --separate-stderr "$CP" show --format grid
	[[ "$output" != *"THP enabled=always"* ]]
}

@test "show: memory follows the table, not the sessions: only the environments it shows are read" {
	# 40 sessions of one SUT class and two kernels, each with a 5 MB environment snapshot (200 MB in
	# all): the settings warning reads one snapshot per column, so show's peak RSS stays far below
	python3 - "$D/big.csv" "$D/big.db" "$CP" <<-'EOF'
	import json, resource, sqlite3, subprocess, sys
	csv, db, cp = sys.argv[1:4]
	with open(csv, "w") as f:
	    f.write("sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,"
	            "session_started,sample_time\n")
	    for s in range(40):
	        for i in range(2):
	            f.write("box,kernel-%d,5e551000-0000-4000-8000-%012d,mem/memset memset -s 1GB -f default,"
	                    "memset -s 1GB -f default,bytes/sec,1,%d,0,%d,2026-10-01T00:%02d:00.000000Z,"
	                    "2026-10-01T00:%02d:00.000000Z\n" % (s % 2, s, i, 1000 + s + i, s, s))
	subprocess.run([cp, "import", "--store", db, csv], check=True, stdout=subprocess.DEVNULL)
	con = sqlite3.connect(db)
	for sid, in con.execute("SELECT id FROM session").fetchall():
	    env = {"settings": {"thp_enabled": "madvise"}, "pad": "x" * (5 << 20)}
	    con.execute("UPDATE session SET environment = ? WHERE id = ?", (json.dumps(env), sid))
	con.commit()
	con.close()
	out = subprocess.run([cp, "show", "--store", db, "--format", "json"], stdout=subprocess.PIPE)
	assert out.returncode == 0, out.returncode
	assert json.loads(out.stdout)["blocks"][0]["settings_differ"] == []
	peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
	assert peak_mb < 100, "show's peak RSS %.0f MB with 200 MB of environments stored" % peak_mb
	EOF
}

@test "show: an unknown swprofile is named, with the ones the store has" {
	run --separate-stderr "$CP" show --swprofile nosuch
	refused 2 "swprofile 'nosuch' has no samples here; the store has '$WITH', '$WITHOUT'"
	run --separate-stderr "$CP" show --swprofile "$WITH" --swprofile nosuch
	refused 2 "swprofile 'nosuch' has no samples here; the store has '$WITH', '$WITHOUT'"
	run --separate-stderr "$CP" show --columns sut --swprofile nosuch
	refused 2 "swprofile 'nosuch' has no samples here"
}

@test "show: a base that is not a column" {
	run --separate-stderr "$CP" show --base nosuch
	refused 2 "base 'nosuch' is not among the columns '$WITH', '$WITHOUT'"
	# present in the store, but not among the columns asked for
	run --separate-stderr "$CP" show --swprofile "$WITH" --base "$WITHOUT"
	refused 2 "base '$WITHOUT' is not among the columns '$WITH'"
	run --separate-stderr "$CP" show --store "$S/param.db" --columns param:f --base nosuch
	refused 2 "base 'nosuch' is not among the columns 'default', 'x86-64-movnti', 'x86-64-stosb'"
}

@test "show: names with C1 controls (U+009B, CSI) or bidi overrides (U+202E) reach no terminal, as C0 ones do not" {
	local csi=$'\xc2\x9b' rlo=$'\xe2\x80\xae' fix="$BATS_TEST_DIRNAME/../fixtures/show"
	# every SUT class and swprofile name of the seed gets one of each, and an ESC
	sed "2,\$s/^aws-m7g.metal,next-20260821 /aws${csi}31m,next${rlo}-$(printf '\033')[2J/" "$fix/seed.csv" >"$D/c1.csv"
	grep -q "$csi" "$D/c1.csv"
	"$CP" import --store "$D/c1.db" "$D/c1.csv" >/dev/null
	for args in "show" "show --format compact" "show --header" "list suts" "list swprofiles" "list sessions"; do
		run --separate-stderr "$CP" $args --store "$D/c1.db"
		[ "$status" -eq 0 ]
		[[ "$output" == *"aws 31m"* || "$output" == *"next - [2J"* ]] || { echo "$args: $output"; return 1; }
		[[ "$output$stderr" != *"$csi"* && "$output$stderr" != *"$rlo"* && "$output$stderr" != *$'\e'* ]] ||
			{ echo "$args printed a control"; return 1; }
	done
	# and a message quoting a name
	run --separate-stderr "$CP" show --store "$D/c1.db" --swprofile "a${csi}31m${rlo}b"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"swprofile 'a 31m b'"* && "$stderr" != *"$csi"* && "$stderr" != *"$rlo"* ]]
}

@test "show: a (?) line explains only (?) cells: a (-) cell of 2 sessions gets its own line, not a (?) one" {
	# base: 2 sessions whose levels (1 and 100) leave the mean indistinguishable from 0: (-);
	# patch: 2 sessions
	{
		echo sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time
		for s in 1:base:1 2:base:100 3:patch:40 4:patch:60; do
			IFS=: read -r n k v <<<"$s"
			echo "box,$k,5eed0000-0000-4000-8000-00000000000$n,perf/x,x,s,0,0,0,$v,2026-08-22T0$n:00:00.000000Z,2026-08-22T0$n:00:01.000000Z"
		done
	} >"$D/two.csv"
	"$CP" import --store "$D/two.db" "$D/two.csv" >/dev/null
	run --separate-stderr "$CP" show --store "$D/two.db"
	[ "$status" -eq 0 ]
	[[ "$(grep -F '| x (s)' <<<"$output")" == *"| (-) "* ]]
	[[ "$output" == *"(-) too little data for a verdict: base mean is not distinguishable from 0"* ]]
	[[ "$output" != *"(?) no verdict yet"* ]] || { echo "$output"; return 1; }
}

@test "show: an empty store and a store that does not exist" {
	head -1 "$BATS_TEST_DIRNAME/../fixtures/show/seed.csv" > "$D/header.csv"
	"$CP" import --store "$D/empty.db" "$D/header.csv" >/dev/null
	run --separate-stderr "$CP" show --store "$D/empty.db"
	refused 2 "no samples match: the store is empty or the filters exclude everything" \
		"hint: 'clearpath list sessions' shows what the store holds"
	run --separate-stderr "$CP" show --store "$D/nosuch.db"
	refused 2 "no store at $D/nosuch.db"
	[ ! -e "$D/nosuch.db" ]
	CLEARPATH_STORE=$D/nosuch2.db run --separate-stderr "$CP" show
	refused 2 "no store at $D/nosuch2.db"
	[ ! -e "$D/nosuch2.db" ]
}

@test "show: bad option values are refused with what was expected" {
	run --separate-stderr "$CP" show --format nosuch
	refused 2 "unknown format 'nosuch': expected box, grid, compact, markdown, csv or json"
	run --separate-stderr "$CP" show --columns nosuch
	refused 2 "invalid value 'nosuch' for --columns: expected swprofile, sut or param:NAME"
	run --separate-stderr "$CP" show --columns param:
	refused 2 "invalid value 'param:' for --columns"
	run --separate-stderr "$CP" show --rule nosuch
	refused 2 "invalid value 'nosuch' for --rule: expected nested or fastpath"
	for a in 0 0.6 x 0.05x -1; do
		run --separate-stderr "$CP" show --alpha "$a"
		refused 2 "invalid value '$a' for --alpha: expected a number from 1e-09 to 0.5"
	done
	run --separate-stderr "$CP" show --min-effect -1
	refused 2 "invalid value '-1' for --min-effect: expected a number from 0 to 1000"
	run --separate-stderr "$CP" show --color sometimes
	refused 2 "invalid value 'sometimes' for --color: expected auto, always or never"
	run --separate-stderr "$CP" show --nosuch
	refused 2 "--nosuch is not an option of 'show'" "see 'clearpath show --help'"
	run --separate-stderr "$CP" show --format
	refused 2 "--format is not an option of 'show' (or it needs a value)"
	run --separate-stderr "$CP" show extra
	refused 2 "unexpected argument 'extra' to 'show'"
}

@test "show: --help lists every option and exits 0" {
	run --separate-stderr "$CP" show --help
	[ "$status" -eq 0 ]
	for o in --store --sut --swprofile --base --benchmark --columns --format --stats --rule \
		--min-effect --alpha --color --fail-on-regression; do
		[[ "$output" == *"    $o "* ]] || { echo "no $o"; return 1; }
	done
}

@test "show: csv names the SUT class of every block" {
	run --separate-stderr "$CP" show --format csv
	[[ "$output" == *aws-m7g.metal* && "$output" == *cesw-aarch64-ampereone-1s-a192-32x* ]]
}

@test "show: golden --header in every table format" {
	for f in box grid compact markdown json; do
		golden "header-$f" --store "$S/header.db" --header --format "$f"
	done
}

@test "show: absurd ratios print whole: exponent form past 10000%, -99.9999% is not -100%, +inf%, no abort" {
	# three sessions (the fewest a verdict needs) of three samples per kernel; "patched" is base x ratio
	# (x1.00, x1.01, ... per sample)
	python3 - "$D/absurd.csv" <<-'EOF2'
	import sys
	rows = ["sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,"
	        "session_started,sample_time"]
	cases = [("huge", 1.0, 1e4), ("tiny", 1.0, 1e-6), ("vast", 1e-150, 1e150), ("over", 1e-300, 1e300)]
	for k, sw in enumerate(["base", "patched"]):
	    for s in range(3):
	        sid = 3 * k + s + 1
	        for name, b, p in cases:
	            for it in range(3):
	                v = (p if k else b) * (1 + 0.01 * (it + s))
	                rows.append("box,%s,00000000-0000-4000-8000-%012d,mem/memset memset -s %s,memset -s %s,"
	                            "bytes/sec,1,%d,0,%r,2026-08-2%dT08:00:00Z,2026-08-2%dT08:00:1%dZ"
	                            % (sw, sid, name, name, it, v, sid, sid, it))
	open(sys.argv[1], "w").write("\n".join(rows) + "\n")
	EOF2
	"$CP" import --store "$D/absurd.db" "$D/absurd.csv" >/dev/null
	for f in grid compact csv; do
		run --separate-stderr "$CP" show --store "$D/absurd.db" --format "$f" --stats
		[ "$status" -eq 0 ] || { echo "$f: exit $status: $stderr"; return 1; }
		[[ "$output" == *"(I) +1.00e+06% [+9.66e+05, +1.03e+06] at 10200.00 n=9/3 cv=1.20%"* ]] || { echo "$f: $output"; return 1; }
		[[ "$output" == *"(R) -99.9999% [-99.99990339, -99.99989649] at 1.020000e-06 n=9/3"* ]]
		[[ "$output" == *"(I) +1.00e+302% [+9.66e+301, +1.04e+302] at 1.020000e+150 n=9/3"* ]]
		# a base of 1e-150 is not 0.00
		[[ "$output" == *"1.020000e-150 ±2.44% n=9/3 cv=1.20%"* ]]
		[[ "$output" != *"-100.00"* ]]
	done
	run --separate-stderr "$CP" show --store "$D/absurd.db" --format grid
	[[ "$output" == *"| (I) +1.00e+302% |"* ]]
	# a ratio past what a double holds is an infinite change, not a column without a base
	[[ "$output" == *"| memset -s over (bytes/sec)             | 1.020000e-300 |       (-) +inf% |"* ]] || { echo "$output"; return 1; }
	[[ "$output" == *"|    (R) -99.9999% |"* || "$output" == *"(R) -99.9999% |"* ]]
	# json keeps the numbers
	run --separate-stderr "$CP" show --store "$D/absurd.db" --format json
	[ "$status" -eq 0 ]
	json_check 'pct = {r["resultclass"]: r["columns"][1]["change_pct"] for r in d["blocks"][0]["results"] if "change_pct" in r["columns"][1]}
assert abs(pct["memset -s vast"] / 1e302 - 1) < 1e-9 and -100 < pct["memset -s tiny"] < -99.9998, pct'
}

@test "show: --header prints what every column shares once (param:f: three strategies on one kernel)" {
	for f in grid compact; do
		golden "header-shared-$f" --store "$S/param-header.db" --columns param:f --header --format "$f"
	done
	run --separate-stderr "$CP" show --store "$S/param-header.db" --columns param:f --header --format markdown
	[ "$status" -eq 0 ]
	[ "$(grep -c 'console=ttyS0,115200n8' <<< "$output")" -eq 1 ]
	[ "$(grep -c 'THP enabled madvise' <<< "$output")" -eq 1 ]
	[ "$(grep -c 'kernel 6\.18\.0' <<< "$output")" -eq 1 ]
	# json keeps every column's own values
	run --separate-stderr "$CP" show --store "$S/param-header.db" --columns param:f --header --format json
	[ "$status" -eq 0 ]
	json_check 'cols = d["blocks"][0]["header"]["columns"]
assert len(cols) == 3 and all(c["kernel_release"] == "6.18.0" and "ttyS0" in c["cmdline"] and c["hugepages"] == "2MB: 512" for c in cols), cols'
}

@test "show: --header names the machine once, each column's kernel, cmdline, THP, hugepages, sessions and dates" {
	run "$CP" show --store "$S/header.db" --header --format grid
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nMachine: Neoverse-V1 (aarch64), 64 cores, 1 socket, 252.0GB memory, 1 NUMA node.\n'* ]]
	[[ "$output" == *$'\nMachine: Ampere-1a (aarch64), 192 cores, 1 socket, 1.0TB memory, 2 NUMA nodes.\n'* ]]
	[[ "$output" == *$'\nMeasured: 8 sessions, 72 samples, from 2026-08-22 08:00 UTC to 2026-08-23 14:00 UTC.\n'* ]]
	[[ "$output" == *$'\n'"$WITH: kernel 6.17.0-rc2-next-20260821-00001-gclearpage; 4 sessions, 36 samples, from 2026-08-23 08:00 UTC to 2026-08-23 14:00 UTC."$'\n'* ]]
	[[ "$output" == *$'\n  THP enabled always, defrag madvise; hugepages 2MB: 0, 1GB: 32.\n'* ]]
	[[ "$output" == *"transparent_hugepage=madvise"* ]]
	# the header comes between the title and the table
	[ "$(sed -n 2p <<< "$output")" = "Machine: Neoverse-V1 (aarch64), 64 cores, 1 socket, 252.0GB memory, 1 NUMA node." ]
}

@test "show: without --header the tables are as before; csv never carries it" {
	run "$CP" show --store "$S/header.db" --format grid
	[ "$status" -eq 0 ]
	[[ "$output" != *"Machine:"* ]]
	"$CP" show --store "$S/header.db" --format csv >"$D/plain.csv"
	"$CP" show --store "$S/header.db" --format csv --header >"$D/header.csv"
	cmp "$D/plain.csv" "$D/header.csv"
}

@test "show: --header on imported samples without fingerprints says what is not recorded" {
	run "$CP" show --header --format grid
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nMachine: not recorded.\n'* ]]
	[[ "$output" == *"$WITHOUT (base): kernel not recorded; 4 sessions, 36 samples, from 2026-08-22 08:00 UTC to 2026-08-22 14:00 UTC."* ]]
	[[ "$output" != *"cmdline:"* ]]
}

@test "show: --header with machines as columns names each column's machine" {
	run "$CP" show --store "$S/header.db" --header --columns sut --format grid
	[ "$status" -eq 0 ]
	[[ "$output" != *$'\nMachine:'* ]]
	[[ "$output" == *$'\n  Machine: aws-m7g.metal: Neoverse-V1 (aarch64), 64 cores, 1 socket, 252.0GB memory, 1 NUMA node.\n'* ]]
	[[ "$output" == *$'\n  Machine: cesw-aarch64-ampereone-1s-a192-32x: Ampere-1a (aarch64), 192 cores, 1 socket, 1.0TB memory, 2 NUMA nodes.\n'* ]]
}

@test "show: --header in JSON is data: per block, per column, unknown values null" {
	run "$CP" show --store "$S/header.db" --header --format json
	[ "$status" -eq 0 ]
	python3 - "$output" <<-'EOF'
	import json, sys
	doc = json.loads(sys.argv[1])
	h = doc["blocks"][1]["header"]
	assert (h["sessions"], h["samples"]) == (8, 72), h
	base, patched = h["columns"]
	assert base["base"] and not patched["base"]
	assert patched["machine"] == {"sut": "cesw-aarch64-ampereone-1s-a192-32x", "cpu": "Ampere-1a", "arch": "aarch64",
	                              "cores": 192, "sockets": 1, "numa_nodes": 2, "memory_bytes": 1099511627776,
	                              "llc_bytes": None, "llc_level": None}, patched
	assert patched["kernel_release"] == "6.17.0-rc2-next-20260821-00001-gclearpage"
	assert (patched["thp_enabled"], patched["thp_defrag"]) == ("always", "madvise")
	assert patched["hugepages"] == "2MB: 0, 1GB: 32"
	assert (patched["first"], patched["last"]) == ("2026-08-23T09:00:00.000000Z", "2026-08-23T15:00:00.000000Z")
	EOF
	run "$CP" show --header --format json
	python3 -c 'import json, sys; c = json.loads(sys.argv[1])["blocks"][0]["header"]["columns"][0]; assert c["machine"]["cpu"] is None and c["kernel_release"] is None and c["sessions"] == 4, c' "$output"
	run "$CP" show --format json
	python3 -c 'import json, sys; assert "header" not in json.loads(sys.argv[1])["blocks"][0]' "$output"
}

# Every line of "$output" at most $1 columns wide, and every cell of the JSON comparison $2 in it:
# each column's name, each base mean and each change as the text formats print them ($3: raw or human).
fits_and_whole() {
	python3 - "$1" "$2" "$3" "$output" <<-'EOF'
	import json, sys
	width, doc, units, out = int(sys.argv[1]), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
	for line in out.split("\n"):
	    assert len(line) <= width, "%d columns: %r" % (len(line), line)
	def human(v):
	    # perf's units, 1024-based: bytes/sec, KB/sec, MB/sec, GB/sec (and no further)
	    for p in ["bytes", "KB", "MB", "GB"]:
	        if abs(v) < 1024 or p == "GB":
	            return "%.2f %s/sec" % (v, p)
	        v /= 1024
	flat = " ".join(out.split())
	for b in doc["blocks"]:
	    for r in b["results"]:
	        for c in r["columns"]:
	            assert c["swprofile"] in flat, c["swprofile"]
	            want = (human(c["level"]) if units == "human" else "%.2f" % c["level"]) if c["base"] \
	                else "%+.2f%%" % c["change_pct"]
	            assert want in flat, (r["resultclass"], c["swprofile"], want)
	        assert r["resultclass"] in flat, r["resultclass"]
	    for c in b["geomean"]["columns"]:
	        if not c["base"]:
	            assert "%+.2f%%" % c["change_pct"] in flat, c
	EOF
}

@test "show --width: at 60, 80, 100 and 200 columns a 9-column comparison loses no column and no line is wider" {
	"$CP" show --store "$S/wide.db" --format json >"$D/wide.json"
	for w in 60 80 100 200; do
		for f in box grid markdown compact; do
			for u in raw human; do
				run --separate-stderr "$CP" show --store "$S/wide.db" --width "$w" --format "$f" --units "$u"
				[ "$status" -eq 0 ] || { echo "--width $w --format $f: exit $status"; return 1; }
				fits_and_whole "$w" "$D/wide.json" "$u" || { echo "--width $w --format $f --units $u"; return 1; }
			done
		done
	done
	# the header and the notes wrap too
	run --separate-stderr "$CP" show --store "$S/header.db" --header --stats --width 60 --format grid
	"$CP" show --store "$S/header.db" --format json >"$D/header.json"
	fits_and_whole 60 "$D/header.json" raw
}

@test "show --width: tables split, each repeating Benchmark, Result Class and the base; compact when even that is too wide" {
	run --separate-stderr "$CP" show --store "$S/wide.db" --width 160 --format grid
	[ "$status" -eq 0 ]
	# three tables, each with the key columns, every other column in exactly one
	[ "$(grep -c '^| Benchmark | Result Class *| 6.17.0-rc2-clear-0 (base) |' <<< "$output")" -eq 3 ]
	for k in 1 2 3 4 5 6 7 8; do
		[ "$(grep -c "| 6.17.0-rc2-clear-$k |" <<< "$output")" -eq 1 ]
	done
	# the title once, above the first; the legend once, under the last
	[ "$(grep -c '^Results for' <<< "$output")" -eq 1 ]
	[ "$(grep -c '^(I) improvement' <<< "$output")" -eq 1 ]
	[[ "$(tail -n 3 <<< "$output")" == *"Undecided:"* ]]
	# even one column beside the keys does not fit in 100: compact, letters and all
	run --separate-stderr "$CP" show --store "$S/wide.db" --width 100 --format grid
	[[ "$output" == *$'\n  I: 6.17.0-rc2-clear-8\n'* ]]
	[[ "$output" != *"+---"* ]]
	# and says so: grid was asked for, compact printed
	[[ "$stderr" == *"no split of the table fits 100 columns"*"printed as --format compact instead of grid"* ]]
	run --separate-stderr "$CP" show --store "$S/wide.db" --width 160 --format grid
	[ -z "$stderr" ]
	# wide enough: one table, as without --width
	"$CP" show --store "$S/wide.db" --format grid >"$D/plain"
	"$CP" show --store "$S/wide.db" --format grid --width 400 >"$D/w400"
	"$CP" show --store "$S/wide.db" --format grid --width 0 >"$D/w0"
	cmp "$D/plain" "$D/w400"
	cmp "$D/plain" "$D/w0"
}

@test "show --width: the default is \$COLUMNS when stdout is not a terminal; csv and json ignore it" {
	"$CP" show --store "$S/wide.db" --format grid --width 90 >"$D/w90"
	COLUMNS=90 "$CP" show --store "$S/wide.db" --format grid >"$D/columns90"
	cmp "$D/w90" "$D/columns90"
	COLUMNS=junk "$CP" show --store "$S/wide.db" --format grid >"$D/junk"
	"$CP" show --store "$S/wide.db" --format grid >"$D/plain"
	cmp "$D/plain" "$D/junk"
	for f in csv json; do
		"$CP" show --store "$S/wide.db" --format "$f" >"$D/$f"
		"$CP" show --store "$S/wide.db" --format "$f" --width 40 >"$D/$f.40"
		cmp "$D/$f" "$D/$f.40"
	done
	for bad in -1 abc 1.5 ''; do
		run --separate-stderr "$CP" show --width "$bad"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"--width"* ]]
	done
}

@test "show --width narrower than the indents ends: every width from 1 to 12, every text format, bounded output" {
	# --width 2, 5 and 6 once wrote blank lines forever (rpt_wrap made no progress when the
	# continuation indent left no column): a file limit and a timeout stop such a loop
	for f in box grid compact markdown; do
		for w in 1 2 3 4 5 6 7 8 9 10 11 12; do
			run --separate-stderr bash -c 'ulimit -f 2000; exec timeout 60 "$@" >"$0"' "$D/out" \
				"$CP" show --store "$S/header.db" --header --stats --format "$f" --width "$w"
			[ "$status" -eq 0 ] || { echo "--format $f --width $w: exit $status $stderr"; return 1; }
			[ "$(wc -c <"$D/out")" -lt 200000 ] || { echo "--format $f --width $w: $(wc -c <"$D/out") bytes"; return 1; }
		done
	done
}

@test "show --width narrower than the key columns of a one-column store: compact, never an empty table" {
	# box, grid and markdown once printed nothing and exited 0: no column beside the keys
	# (Benchmark, Result Class, base) made a part, so no part was rendered
	local h=sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time
	printf '%s\n' "$h" \
		"box,k,5eed0000-0000-4000-8000-000000000001,mem/memset -s 1MB,memset -s 1MB a long result class name,bytes/sec,1,0,0,1e9,2026-08-22T08:00:00.000000Z,2026-08-22T08:00:01.000000Z" \
		>"$D/one.csv"
	"$CP" import --store "$D/one.db" "$D/one.csv" >/dev/null
	for f in box grid markdown; do
		run --separate-stderr "$CP" show --store "$D/one.db" --format "$f" --width 40
		[ "$status" -eq 0 ]
		[[ "$output" == *"a long result class"* ]] || { echo "--format $f: '$output'"; return 1; }
		[[ "$output" == *"1000000000.00"* ]] || { echo "--format $f: '$output'"; return 1; }
		while IFS= read -r line; do
			[ "${#line}" -le 40 ] || { echo "--format $f: ${#line} columns: $line"; return 1; }
		done <<<"$output"
	done
}

@test "show --profile on a store without profile shares says so, not that the store is empty" {
	run --separate-stderr "$CP" show --store "$S/seed.db" --profile
	refused 2 "no --profile samples match" "--profile' (or a plan's 'profile: true') stores them"
	[[ "$stderr" != *"the store is empty"* ]]
}

@test "show: a mean too long for its cell (an imported 1e300) is printed in exponent form, never cut" {
	local h=sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time
	printf '%s\n' "$h" \
		"box,k,5eed0000-0000-4000-8000-000000000001,mem/memset -s 1MB,memset,bytes/sec,1,0,0,1e300,2026-08-22T08:00:00.000000Z,2026-08-22T08:00:01.000000Z" \
		>"$D/big.csv"
	"$CP" import --store "$D/big.db" "$D/big.csv" >/dev/null
	# the cell once held the first 63 of the 303 digits: a number 10^237 times too small
	run --separate-stderr "$CP" show --store "$D/big.db" --format csv
	[ "$status" -eq 0 ]
	[[ "$output" == *",1.000000e+300"* ]] || { echo "$output"; return 1; }
	run --separate-stderr "$CP" show --store "$D/big.db" --format csv --units human
	[[ "$output" == *",1.000000e+300"* ]] || { echo "$output"; return 1; }
}

@test "show: golden --width per format on the 9-column comparison" {
	for f in box grid markdown; do
		golden "wide-$f-120" --store "$S/wide.db" --format "$f" --width 120
	done
	golden wide-compact-60 --store "$S/wide.db" --format compact --width 60
	golden header-grid-72 --store "$S/header.db" --header --format grid --width 72
}

@test "show --units: human next to raw; raw in files and pipes, and --units raw is the goldens' form" {
	for f in box grid compact markdown; do
		golden "human-$f" --format "$f" --units human
	done
	golden human-grid-stats --store "$S/gaps.db" --stats --units human
	run --separate-stderr "$CP" show --format grid --units human
	# perf's GB/sec (2^30 bytes), the number bench prints, and the row says so
	[[ "$(row_of 'memset -k 1GB')" == *"memset -k 1GB -f default -s 16GB (GB/sec) "*" 59.54 GB/sec |"* ]]
	[[ "$(row_of 'mmap -p 4KB')" == *" 46.28 GB/sec |"* ]]
	[[ "$output" == *"Units: GB/sec, MB/sec, KB/sec: 2^30, 2^20, 2^10 bytes per second, as perf bench prints them;"* ]]
	"$CP" show --format grid --units raw >"$D/raw"
	"$CP" show --format grid >"$D/default"
	cmp "$D/raw" "$D/default"
	run --separate-stderr "$CP" show --units metric
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"expected human or raw"* ]]
	# JSON is numbers either way
	"$CP" show --format json --units human >"$D/h.json"
	"$CP" show --format json >"$D/r.json"
	cmp "$D/h.json" "$D/r.json"
}

@test "show: columns measured in one session still show the size of each change (was +nan%)" {
	local st="$BATS_TEST_TMPDIR/one.db"
	# two memset functions in one invocation (default alone where the CPU has no more: arm64): one session holds every column
	"$CP" run --store "$st" --swprofile k1 -- mem memset -f default,c-loop -s 1MB -l 2 >/dev/null 2>&1
	run --separate-stderr "$CP" show --store "$st" --columns param:f --format grid
	[ "$status" -eq 0 ]
	[[ "$output" == *"fewer than 2 sessions measured both columns"* ]]
	[[ "$output" != *nan* ]]
	# each non-base cell of the memset row is a change in percent
	local row
	row=$(grep -F 'memset -s 1MB -l 2 (bytes/sec)' <<<"$output")
	[ "$(grep -o '[-+][0-9.]*%' <<<"$row" | wc -l)" -ge 1 ]
	[ "$(grep -o '[-+][0-9.]*%' <<<"$row" | wc -l)" -eq "$(($(tr -cd '|' <<<"$row" | wc -c) - 4))" ]
}

@test "show --stats: a noise floor whose sessions differ less than their repeats says so, not 'differ by 0.00%'" {
	# three calibration sessions with the same mean and spread repeats: the between-session
	# estimate is negative, truncated at 0
	python3 - "$D/floor.csv" <<'EOF2'
import sys
rows = ["sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,"
        "session_started,sample_time"]
sid = 0
for swp, vals in (("6.1 (calibration)", [(9, 10, 11)] * 3), ("base", [(10, 10.1, 10.2), (10.3, 10.2, 10.4)]),
                  ("patched", [(11, 11.1, 11.2), (11.3, 11.2, 11.4)])):
    for s in vals:
        sid += 1
        for it, v in enumerate(s):
            rows.append("box,%s,00000000-0000-4000-8000-%012d,mem/memset memset -s 1MB,memset -s 1MB,bytes/sec,1,"
                        "%d,0,%r,2026-08-2%dT08:00:00Z,2026-08-2%dT08:00:1%dZ" % (swp, sid, it, v * 1e9, sid, sid, it))
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
EOF2
	"$CP" import --store "$D/floor.db" "$D/floor.csv" >/dev/null
	run --separate-stderr "$CP" show --store "$D/floor.db" --stats
	[ "$status" -eq 0 ]
	[[ "$output" == *"Noise floor of memset -s 1MB (clearpath calibrate, 3 sessions): sessions differ no more than the repeats explain, repeats by "* ]] || { echo "$output"; return 1; }
	[[ "$output" != *"sessions differ by 0.00%"* ]]
}

@test "show --fdr: the marks keep each table's false discovery rate; JSON has raw and adjusted p-values" {
	run --separate-stderr "$CP" show --format json
	[ "$status" -eq 0 ]
	json_check 'm = d["blocks"][0]["marks"]
assert m["control"] == "per_cell" and m["cells"] == 3 and abs(m["false_marks_expected"] - 0.15) < 1e-12, m
assert d["fdr"] is None
c = [r["columns"][1] for r in d["blocks"][0]["results"]]
assert all(x["p_adjusted"] >= x["p_value"] for x in c), c
assert all(x["judged_alpha"] == 0.05 and x["looks"] == 1 for x in c), c'
	run --separate-stderr "$CP" show --format json --fdr 0.05
	[ "$status" -eq 0 ]
	json_check 'm = d["blocks"][0]["marks"]
assert m["control"] == "false_discovery_rate" and m["level"] == 0.05 and m["false_marks_expected"] is None, m
assert d["fdr"] == 0.05
for r in d["blocks"][0]["results"]:
    x = r["columns"][1]
    assert (x["verdict"] in ("improvement", "regression")) == (x["p_adjusted"] <= 0.05 and abs(x["change_pct"]) >= 0.5), x'
	run --separate-stderr "$CP" show --format grid --fdr 0.05
	[[ "$output" == *"adjusted over this table's 3 cells (Benjamini-Hochberg) is at most 0.05"* ]]
	run --separate-stderr "$CP" show --fdr 0.7
	refused 2 "fdr"
}

@test "show: rows whose buffers the machine's last-level cache holds are said to measure the cache (fingerprint llc_bytes)" {
	# a 20GB cache holds the 16GB memset buffer, not the 32GB mmap ones
	edited_store "UPDATE sut SET fingerprint = json_object('cpu', 'Neoverse-V1', 'llc_bytes', 21474836480, 'llc_level', 3)
	  WHERE name = 'aws-m7g.metal';"
	run --separate-stderr "$CP" show --store "$D/edit.db" --sut 'aws-*'
	[ "$status" -eq 0 ]
	[[ "$output" == *"Cache-resident: 1 of 3 rows clear buffers of at most 16GB, within this machine's 20GB L3 cache: the rates measure the cache more than memory"* ]] || { echo "$output"; return 1; }
	run --separate-stderr "$CP" show --store "$D/edit.db" --format json
	json_check 'b = d["blocks"][0]
assert b["llc_bytes"] == 21474836480 and b["llc_level"] == 3, b
res = {r["resultclass"]: (r["buffer_bytes"], r["cache_resident"]) for r in b["results"]}
assert res["memset -k 1GB -f default -s 16GB"] == (16 << 30, True), res
assert res["mmap -p 1GB -f demand -s 32GB -l 5"] == (32 << 30, False), res
assert "llc_bytes" not in d["blocks"][1] and not any(r["cache_resident"] for r in d["blocks"][1]["results"])
assert any(n["kind"] == "cache" for n in b["notes"]), b["notes"]'
	# a machine whose cache is not recorded (the fixture's other one): nothing said
	[[ "$(sed -n '/cesw/,$p' <<< "$(CLEARPATH_STORE="$D/edit.db" "$CP" show)")" != *"Cache-resident"* ]]
}

@test "show: the fleet summary is each machine's table cells, a line per SUT class and result class" {
	"$CP" show --format grid >"$D/grid.txt"
	"$CP" show --format grid --stats >"$D/stats.txt"
	run python3 "$BATS_TEST_DIRNAME/fleet_check.py" "$D/grid.txt" "$D/stats.txt" 2
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$output" = "6 fleet lines agree with their tables" ]
	# human units too: the very text of the cells
	"$CP" show --format grid --units human >"$D/human.txt"
	python3 "$BATS_TEST_DIRNAME/fleet_check.py" "$D/human.txt"
}

@test "show --format json: the fleet's numbers are the blocks' cells, double for double" {
	run --separate-stderr "$CP" show --format json
	[ "$status" -eq 0 ]
	json_check '
cells = {}
for b in d["blocks"]:
    for r in b["results"]:
        cells[(b["sut"], r["benchmark"], r["resultclass"])] = r["columns"]
lines = 0
for f in d["fleet"]:
    assert f["base"] == d["base"] and f["column"] != d["base"], f
    for s in f["suts"]:
        cols = cells[(s["sut"], f["benchmark"], f["resultclass"])]
        base = [c for c in cols if c["base"]][0]
        cell = [c for c in cols if c["swprofile"] == f["column"]][0]
        assert s["base_level"] == base["level"], s
        for k in ("change_pct", "change_ci95_low", "change_ci95_high", "verdict", "state"):
            assert s[k] == cell[k], (k, s, cell)
        lines += 1
assert lines == len(cells) == 6, (lines, len(cells))'
}

@test "show: no fleet summary for one SUT class, nor with machines as the columns" {
	run --separate-stderr "$CP" show --sut 'aws-*'
	[ "$status" -eq 0 ]
	[[ "$output" != *"Fleet summary"* ]]
	run --separate-stderr "$CP" show --columns sut
	[ "$status" -eq 0 ]
	[[ "$output" != *"Fleet summary"* ]]
	run --separate-stderr "$CP" show --columns sut --format json
	json_check 'assert d["fleet"] == [], d["fleet"]'
}

@test "show: a result class only some SUT classes have gets a fleet line for each that has it, once" {
	grep -v '^aws-m7g.metal,.*mmap -p 4KB' "$BATS_TEST_DIRNAME/../fixtures/show/seed.csv" |
		grep -v '^cesw.*memset' >"$D/part.csv"
	"$CP" import --store "$D/part.db" "$D/part.csv" >/dev/null
	"$CP" show --store "$D/part.db" --format grid >"$D/grid.txt"
	run python3 "$BATS_TEST_DIRNAME/fleet_check.py" "$D/grid.txt"
	[ "$output" = "4 fleet lines agree with their tables" ] || { echo "$output"; return 1; }
	[[ "$(sed -n '/^Fleet summary/,$p' "$D/grid.txt" | grep -c 'cesw-aarch64')" -eq 2 ]]
}

@test "show: a machine without the base for a result class has no fleet line (its cell is a level, not a change); by parameter, no fleet" {
	grep -v '^cesw[^,]*,next-20260821 without this patch,.*mmap -p' "$BATS_TEST_DIRNAME/../fixtures/show/seed.csv" >"$D/nobase.csv"
	"$CP" import --store "$D/nobase.db" "$D/nobase.csv" >/dev/null
	"$CP" show --store "$D/nobase.db" --format grid >"$D/grid.txt"
	run python3 "$BATS_TEST_DIRNAME/fleet_check.py" "$D/grid.txt"
	[ "$output" = "4 fleet lines agree with their tables" ] || { echo "$output"; return 1; }
	# the level the cesw table prints for its patched mmap column is under no 'change' heading
	run --separate-stderr "$CP" show --store "$D/nobase.db" --format json
	json_check 'lines = [(f["resultclass"], s["sut"]) for f in d["fleet"] for s in f["suts"]]
assert len(lines) == 4 and not any(c.startswith("mmap") and s.startswith("cesw") for c, s in lines), lines
assert all(s["change_pct"] is not None for f in d["fleet"] for s in f["suts"]), d["fleet"]'
	# blocks by parameter are a SUT and a swprofile each, not SUT classes: no fleet of them
	run --separate-stderr "$CP" show --store "$D/nobase.db" --columns param:f
	[ "$status" -eq 0 ]
	[[ "$output" != *"Fleet summary"* ]] || { echo "$output"; return 1; }
}

# Store $1 of SUT class box, memset -s 1GB: base has 8 sessions whose levels alternate between
# 100 and 108 (+0.1 per pair) unless $2 is "one" (then 104 + 0.2 * (s % 3)), patch 6 around 107.
# Every session has 3 samples of level -0.1, level, level +0.1 (GB/sec).  Prints the gap between the
# two modes' mean levels in % of the lower, as the note prints it ("%.2f").
two_mode_store() {
	python3 - "$1.csv" "${2:-two}" <<'EOF2'
import sys
out, shape = sys.argv[1:]
rows = ["sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,"
        "session_started,sample_time"]
base = [(100, 108)[s % 2] + 0.1 * (s // 2) if shape == "two" else 104 + 0.2 * (s % 3) for s in range(8)]
patch = [107 + 0.2 * (s % 3) for s in range(6)]
n = 0
for col, levels in (("base", base), ("patch", patch)):
    for level in levels:
        n += 1
        for it, d in enumerate((-0.1, 0, 0.1)):
            rows.append("box,%s,00000000-0000-4000-8000-%012d,mem/memset memset -s 1GB,memset -s 1GB,bytes/sec,1,"
                        "%d,0,%r,2026-08-%02dT08:00:00Z,2026-08-%02dT08:00:1%dZ"
                        % (col, n, it, (level + d) * 1e9, n, n, it))
open(out, "w").write("\n".join(rows) + "\n")
lo, hi = sorted(base)[:4], sorted(base)[4:]
print("%.2f" % (100 * (sum(hi) / 4 - sum(lo) / 4) / (sum(lo) / 4)))
EOF2
	"$CP" import --store "$1" "$1.csv" >/dev/null
}

@test "show and report: a column whose sessions fall into 2 modes gets a line under the table; one mode none" {
	local st="$D/modes.db" gap note
	gap=$(two_mode_store "$st")
	[ "$gap" = 7.99 ] # the fixture: 4 sessions around 100.15, 4 around 108.15
	note="Sessions of base in memset -s 1GB fall into 2 modes $gap% apart (4 and 4 sessions): it takes more boots"
	run --separate-stderr "$CP" show --store "$st" --format grid
	[ "$status" -eq 0 ]
	[[ "$output" == *"$note"* ]] || { echo "$output"; return 1; }
	run --separate-stderr "$CP" show --store "$st" --format json
	[ "$status" -eq 0 ]
	# the base's modes make the patch's spread the row's: +3% on 6 tight sessions is then no verdict
	json_check 'base, patch = d["blocks"][0]["results"][0]["columns"]
assert base["modes"] == 2 and patch["modes"] == 1, (base, patch)
assert patch["modes_shared"] and not patch["decided"] and patch["verdict"] == "none", patch
assert any(n["kind"] == "warning" and n["text"].startswith(sys.argv[1]) for n in d["blocks"][0]["notes"]), d["blocks"][0]["notes"]' "$note"
	if report_drawn --store "$st" -o "$D/modes.html"; then
		grep -qF "<li class=\"warning\">$note" "$D/modes.html" || { grep -n 'li' "$D/modes.html"; return 1; }
	fi
	# one mode: no such line anywhere, and the same patch is decided on its own spread
	st="$D/one.db"
	two_mode_store "$st" one >/dev/null
	run --separate-stderr "$CP" show --store "$st" --format grid
	[ "$status" -eq 0 ]
	[[ "$output" != *"modes"* ]] || { echo "$output"; return 1; }
	run --separate-stderr "$CP" show --store "$st" --format json
	json_check 'base, patch = d["blocks"][0]["results"][0]["columns"]
assert base["modes"] == 1 and not patch["modes_shared"] and patch["verdict"] == "improvement", (base, patch)'
	if report_drawn --store "$st" -o "$D/one.html"; then
		! grep -q "fall into 2 modes" "$D/one.html"
	fi
}
