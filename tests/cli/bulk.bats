#!/usr/bin/env bats
# bulk.bats: import writes samples in batches (multi-row inserts of 500, src/store/batch.c) and keeps what
# writing them one by one guaranteed, on SQLite and on a real PostgreSQL server (tests/pg-server): a sample
# refused in a later batch refuses the whole file and is named by its line, a re-import adds nothing, and
# files of several batches round-trip exactly.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	pg_file_start
}

teardown_file() {
	pg_file_stop
}

setup() {
	pg_test_db bulk
	# 1300 samples: three batches, the last one short
	gen_samples "$D/s.csv" 1300
	"$CP" import --store "$D/ref.db" "$D/s.csv" >/dev/null
	"$CP" export --store "$D/ref.db" --whole "$D/w.csv"
}

# gen_samples FILE N: N samples in the export's sample form, 4 sessions of 2 result classes.
gen_samples() {
	awk -v n="$2" 'BEGIN {
		print "sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time"
		for (k = 0; k < n; k++) {
			s = k % 4; c = int(k / 4) % 2; i = int(k / 8)
			printf "box,kernel-%d,b0000000-0000-4000-8000-%012d,mem/memset memset -s %dMB -f default,memset -s %dMB -f default,bytes/sec,1,%d,0,%d.25,2026-09-0%dT08:00:00.000000Z,2026-09-0%dT08:%02d:%02d.000000Z\n",
				s % 2, s, c + 1, c + 1, i, 1000000 + k * 7, s + 1, s + 1, int(i / 60) % 60, i % 60
		}
	}' >"$1"
}

# The line of FILE holding the sample form's row of iteration IT in session S's first result class.
line_of() {
	grep -n "b0000000-0000-4000-8000-00000000000$2,mem/memset memset -s 1MB -f default,memset -s 1MB -f default,bytes/sec,1,$3,0" "$1" |
		cut -d: -f1
}

# Put a few samples of other sessions into store $1, so a refused import has something to leave alone.
first_import() {
	gen_samples "$D/first.csv" 8
	sed -i 's/b0000000-/c0000000-/' "$D/first.csv"
	"$CP" import --store "$1" "$D/first.csv" >/dev/null
	"$CP" export --store "$1" --whole "$D/before.csv"
}

# Both stores of a test: a SQLite file and a fresh PostgreSQL database.
stores() {
	echo "$D/t.db" "$PG"
}

@test "bulk: a file of several batches round-trips exactly through either backend, both forms" {
	"$CP" export --store "$D/ref.db" "$D/ref.csv"
	"$CP" export --store "$D/ref.db" --whole --format json "$D/ref.json"
	"$CP" show --store "$D/ref.db" --color never >"$D/ref.txt"
	for st in $(stores); do
		run "$CP" import --store "$st" "$D/w.csv"
		[ "$status" -eq 0 ]
		[ "$output" = "imported 1300 samples in 4 new sessions from $D/w.csv" ]
		"$CP" export --store "$st" "$D/out.csv"
		cmp "$D/ref.csv" "$D/out.csv"
		"$CP" export --store "$st" --whole "$D/out-w.csv"
		cmp "$D/w.csv" "$D/out-w.csv"
		"$CP" export --store "$st" --whole --format json "$D/out.json"
		cmp "$D/ref.json" "$D/out.json"
		"$CP" show --store "$st" --color never >"$D/out.txt"
		cmp "$D/ref.txt" "$D/out.txt"
	done
	# the sample form the same way, into another database
	tests/pg-server createdb "$PGDIR" "${DB}s"
	for st in "$D/t2.db" "$PGBASE/${DB}s"; do
		run "$CP" import --store "$st" "$D/s.csv"
		[ "$status" -eq 0 ]
		[ "$output" = "imported 1300 samples in 4 new sessions from $D/s.csv" ]
		"$CP" export --store "$st" "$D/out.csv"
		cmp "$D/ref.csv" "$D/out.csv"
	done
}

@test "bulk: importing a file of several batches twice adds nothing, in either form" {
	for st in $(stores); do
		for f in s.csv w.csv; do
			"$CP" import --store "$st" "$D/$f" >/dev/null
			"$CP" export --store "$st" --whole "$D/before.csv"
			run --separate-stderr "$CP" import --store "$st" "$D/$f"
			[ "$status" -eq 0 ]
			[ "$output" = "imported 0 samples in 0 new sessions from $D/$f (all were stored already)" ]
			"$CP" export --store "$st" --whole "$D/after.csv"
			cmp "$D/before.csv" "$D/after.csv"
		done
	done
}

@test "bulk: a sample the schema refuses in a later batch refuses the file, named by its line; nothing stays" {
	# an error for iteration 100 of session 3's first class, declared before its samples: that sample
	# (in the third batch of samples) is refused by the trigger, as an invocation has samples or an error
	err='error,,,b0000000-0000-4000-8000-000000000003,,,,,,,mem/memset memset -s 1MB -f default,,,,100,0,,2026-09-04T09:00:00.000000Z,failed,,,'
	awk -F, -v e="$err" '{ print } $1 == "session" && $4 == "b0000000-0000-4000-8000-000000000003" { print e }' \
		"$D/w.csv" >"$D/bad.csv"
	line=$(grep -n '^sample,,,b0000000-0000-4000-8000-000000000003,,,,,,,mem/memset memset -s 1MB -f default,memset -s 1MB -f default,bytes/sec,1,100,0,' "$D/bad.csv" | cut -d: -f1)
	[ "$line" -gt 1000 ]
	for st in $(stores); do
		first_import "$st"
		run --separate-stderr "$CP" import --store "$st" "$D/bad.csv"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"this invocation already has an error"* ]]
		[[ "$stderr" == *"$D/bad.csv: line $line: this sample cannot be stored"* ]]
		[[ "$stderr" == *"nothing from $D/bad.csv was imported"* ]]
		"$CP" export --store "$st" --whole "$D/after.csv"
		cmp "$D/before.csv" "$D/after.csv"
	done
}

@test "bulk: a sample twice in a later batch is named by its line; nothing stays" {
	# sample form: the same sample again with another value, after 1300 lines
	dup=$(sed -n "$(line_of "$D/s.csv" 1 7)p" "$D/s.csv")
	{ cat "$D/s.csv"; echo "$dup" | awk -F, -v OFS=, '{ $10 = "5.5" } 1'; } >"$D/bad-s.csv"
	[ "$(tail -n 1 "$D/bad-s.csv" | cut -d, -f10)" != "$(echo "$dup" | cut -d, -f10)" ]
	# the same value again is a re-import, not a contradiction
	{ cat "$D/s.csv"; echo "$dup"; } >"$D/same-s.csv"
	# whole form: a sample line twice in a new session
	wdup=$(grep -m 1 '^sample,' "$D/w.csv")
	{ sed '$d' "$D/w.csv"; echo "$wdup"; tail -n 1 "$D/w.csv"; } >"$D/bad-w.csv"
	for st in $(stores); do
		first_import "$st"
		run --separate-stderr "$CP" import --store "$st" "$D/bad-s.csv"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"$D/bad-s.csv: line 1302, column 10 (value): this sample is already stored with value 1000399.25"* ]]
		run --separate-stderr "$CP" import --store "$st" "$D/bad-w.csv"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"$D/bad-w.csv: line $(($(wc -l <"$D/bad-w.csv") - 1)): this sample appears twice in session"* ]]
		"$CP" export --store "$st" --whole "$D/after.csv"
		cmp "$D/before.csv" "$D/after.csv"
		run "$CP" import --store "$st" "$D/same-s.csv"
		[ "$status" -eq 0 ]
		[ "$output" = "imported 1300 samples in 4 new sessions from $D/same-s.csv" ]
	done
}

@test "bulk: re-importing sessions whose stored sample differs, in a later batch, names that line" {
	line=$(grep -n '^sample,' "$D/w.csv" | sed -n 1200p | cut -d: -f1)
	awk -F, -v OFS=, -v l="$line" 'NR == l { $17 = $17 + 1 } { print }' "$D/w.csv" >"$D/bad.csv"
	! cmp -s "$D/w.csv" "$D/bad.csv"
	for st in $(stores); do
		"$CP" import --store "$st" "$D/w.csv" >/dev/null
		run --separate-stderr "$CP" import --store "$st" "$D/bad.csv"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"$D/bad.csv: line $line: session b0000000-0000-4000-8000-"*" is already in the store with other content: this sample's value or time differs"* ]]
		"$CP" export --store "$st" --whole "$D/after.csv"
		cmp "$D/w.csv" "$D/after.csv"
	done
}

# peak_kb COMMAND...: run it, its output to /dev/null; the peak RSS in KB of it (python's view of its children).
# Under ASan freed memory waits in a quarantine (256 MB) before reuse: none here, so RSS means the same.
peak_kb() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
sys.exit(r.returncode) if r.returncode else print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

@test "bulk: export from PostgreSQL streams its rows: 60 times the samples, about the same peak memory" {
	"$CP" import --store "$PG" "$D/s.csv" >/dev/null
	small=$(peak_kb "$CP" export --store "$PG" -)
	# 78000 more samples, written by the server itself: iterations past the file's
	tests/pg-server psql "$PGDIR" -d "$DB" -c "INSERT INTO sample (session_id, resultclass_id, iteration, warmup,
		value, time) SELECT session_id, resultclass_id, iteration + 1000 * g, warmup, value, time
		FROM sample, generate_series(1, 60) g"
	"$CP" export --store "$PG" "$D/big.csv"
	[ "$(wc -l <"$D/big.csv")" -eq $((1 + 1300 * 61)) ]
	big=$(peak_kb "$CP" export --store "$PG" -)
	# holding the whole result took about 40 MB more here; one row at a time, a few
	echo "peak RSS: $small KB for 1300 samples, $big KB for 79300" >&3
	[ "$big" -lt $((small + 12000)) ]
}

@test "bulk: merge between backends, into a store holding some of the sessions, equals SQLite's own merge" {
	# the golden store: sessions with errors (with and without an iteration), an incomplete one
	"$CP" import --store "$D/gold.db" tests/golden/export/whole.csv >/dev/null
	"$CP" import --store "$PG" tests/golden/export/whole.csv >/dev/null
	tests/pg-server createdb "$PGDIR" "${DB}m"
	some=$(grep -m 2 '^session,' tests/golden/export/whole.csv | cut -d, -f4 | sed 's/^/--session /')
	# shellcheck disable=SC2086
	"$CP" export --store "$D/gold.db" --whole $some "$D/some.csv"
	for st in "$D/native.db" "$D/from-pg.db" "$PGBASE/${DB}m"; do
		"$CP" import --store "$st" "$D/some.csv" >/dev/null
	done
	"$CP" merge --into "$D/native.db" "$D/gold.db"
	"$CP" merge --into "$D/from-pg.db" "$PG"
	"$CP" merge --into "$PGBASE/${DB}m" "$D/gold.db"
	"$CP" export --store "$D/native.db" --whole "$D/native.csv"
	for st in "$D/from-pg.db" "$PGBASE/${DB}m"; do
		"$CP" export --store "$st" --whole "$D/out.csv"
		cmp "$D/native.csv" "$D/out.csv"
	done
	[ "$(grep -c '^error,' "$D/native.csv")" -eq 2 ]
	[ "$(grep -c '^session,' "$D/native.csv")" -eq 17 ]
}
