#!/usr/bin/env bats
# whole_pg.bats: export --whole and its import against a PostgreSQL store (a real server, tests/pg-server):
# the same bytes as SQLite's, errors with and without an iteration included.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	pg_file_start
}

teardown_file() {
	pg_file_stop
}

setup() {
	pg_test_db w
}

@test "whole, PostgreSQL: sqlite -> export --whole -> PostgreSQL -> export --whole gives the same bytes, show too" {
	# both errors of the session under the same warmup flag: one with an iteration, one without
	awk -F, -v OFS=, '$1 == "error" && $15 == "0" { $16 = 0 } { print }' tests/golden/export/whole.csv > "$D/in.csv"
	"$CP" import --store "$D/a.db" "$D/in.csv" >/dev/null
	for fmt in csv json; do
		"$CP" export --store "$D/a.db" --whole --format $fmt "$D/a.$fmt"
	done
	run "$CP" import --store "$PG" "$D/a.json"
	[ "$status" -eq 0 ]
	[ "$output" = "imported 192 samples and 2 errors in 17 new sessions from $D/a.json" ]
	for fmt in csv json; do
		"$CP" export --store "$PG" --whole --format $fmt "$D/pg.$fmt"
		cmp "$D/a.$fmt" "$D/pg.$fmt"
	done
	"$CP" show --store "$PG" >"$D/pg.txt" 2>&1
	"$CP" show --store "$D/a.db" >"$D/a.txt" 2>&1
	cmp "$D/a.txt" "$D/pg.txt"
	# idempotent there too
	run --separate-stderr "$CP" import --store "$PG" "$D/a.csv"
	[ "$output" = "imported 0 samples in 0 new sessions from $D/a.csv (all were stored already)" ]
}

# A session with the doctor's warnings recorded (the x86-metal fixture machine) in SQLite store $1, its header in $2.
doctor_session() {
	CLEARPATH_SYSROOT=$PWD/tests/fixtures/doctor/x86-metal "$CP" run --store "$1" --warmups 0 --repeats 1 --quiet \
		-- mem memset -s 1MB -f default >/dev/null 2>&1
	"$CP" show --store "$1" --header --format grid >"$2"
	grep -q 'Doctor WARN cpu.governor in 1 of 1 session' "$2"
}

@test "whole, PostgreSQL: the doctor's warnings survive export --whole -> import into PostgreSQL" {
	doctor_session "$D/a.db" "$D/a.txt"
	"$CP" export --store "$D/a.db" --whole --format json "$D/a.json"
	"$CP" import --store "$PG" "$D/a.json" >/dev/null
	"$CP" show --store "$PG" --header --format grid >"$D/pg.txt"
	diff -u "$D/a.txt" "$D/pg.txt"
}

@test "whole, PostgreSQL: the doctor's warnings survive merge into PostgreSQL and export --whole from it" {
	doctor_session "$D/a.db" "$D/a.txt"
	"$CP" merge --into "$PG" "$D/a.db" >/dev/null
	"$CP" show --store "$PG" --header --format grid >"$D/pg.txt"
	diff -u "$D/a.txt" "$D/pg.txt"
	"$CP" export --store "$PG" --whole --format csv "$D/pg.csv"
	"$CP" import --store "$D/b.db" "$D/pg.csv" >/dev/null
	"$CP" show --store "$D/b.db" --header --format grid >"$D/b.txt"
	diff -u "$D/a.txt" "$D/b.txt"
}

# Two profiled sessions sampled at different frequencies in SQLite store $1, show --profile's text in $2.
profile_sessions() {
	[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ] ||
		skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	skip_emulated "no perf_event_open under a user-mode emulator"
	for hz in 1000 250; do
		"$CP" run --store "$1" --warmups 0 --repeats 1 --quiet --swprofile "at $hz" --force \
			-- mem mmap -p 4KB -f demand -s 16MB --profile --profile-freq $hz >/dev/null 2>&1
	done
	"$CP" show --store "$1" --profile --format grid >"$2"
	grep -q '^  sampled with  *cpu-clock at 1000 Hz  *cpu-clock at 250 Hz$' "$2"
}

@test "whole, PostgreSQL: how each profile was sampled survives export --whole -> import, the same bytes back" {
	profile_sessions "$D/a.db" "$D/a.txt"
	"$CP" export --store "$D/a.db" --whole --format json "$D/a.json"
	"$CP" import --store "$PG" "$D/a.json" >/dev/null
	"$CP" show --store "$PG" --profile --format grid >"$D/pg.txt"
	diff -u "$D/a.txt" "$D/pg.txt"
	"$CP" export --store "$PG" --whole --format json "$D/pg.json"
	cmp "$D/a.json" "$D/pg.json"
}

@test "whole, PostgreSQL: how each profile was sampled survives merge into PostgreSQL and out again" {
	profile_sessions "$D/a.db" "$D/a.txt"
	"$CP" merge --into "$PG" "$D/a.db" >/dev/null
	"$CP" show --store "$PG" --profile --format json >"$D/pg.json"
	python3 - "$D/pg.json" <<'PY'
import json, sys
(p,) = json.load(open(sys.argv[1]))["blocks"][0]["profiles"]
assert [c["sampling"]["ways"] for c in p["columns"]] == [
    [{"event": "cpu-clock", "hz": 1000, "sessions": 1}], [{"event": "cpu-clock", "hz": 250, "sessions": 1}]], p
PY
	"$CP" export --store "$PG" --whole --format csv "$D/pg.csv"
	"$CP" export --store "$D/a.db" --whole --format csv "$D/a.csv"
	cmp "$D/a.csv" "$D/pg.csv"
	"$CP" merge --into "$D/b.db" "$PG" >/dev/null
	"$CP" show --store "$D/b.db" --profile --format grid >"$D/b.txt"
	diff -u "$D/a.txt" "$D/b.txt"
}

@test "whole, PostgreSQL: a session merged into a server while it ran is completed by its finished form, both ways" {
	U=5eed0001-0000-4000-8000-000000000002
	"$CP" import --store "$D/full.db" tests/golden/export/whole.csv >/dev/null
	cp "$D/full.db" "$D/half.db"
	STORE=$D/half.db store_sql "DELETE FROM sample WHERE session_id = (SELECT id FROM session WHERE uuid = '$U')
		AND iteration >= 1"
	STORE=$D/half.db store_sql "UPDATE session SET complete = 0, ended = NULL WHERE uuid = '$U'"
	"$CP" merge --into "$PG" "$D/half.db" >/dev/null
	run "$CP" merge --into "$PG" "$D/full.db"
	[ "$status" -eq 0 ]
	[ "$output" = "$D/full.db: 0 sessions added, 1 completed" ]
	"$CP" export --store "$D/full.db" --whole "$D/want.csv"
	"$CP" export --store "$PG" --whole "$D/pg.csv"
	cmp "$D/want.csv" "$D/pg.csv"
	# from the server into a store that holds the half: the same
	"$CP" merge --into "$D/lab.db" "$D/half.db" >/dev/null
	run "$CP" merge --into "$D/lab.db" "$PG"
	[ "${lines[0]##*: }" = "0 sessions added, 1 completed" ]
	"$CP" export --store "$D/lab.db" --whole "$D/lab.csv"
	cmp "$D/want.csv" "$D/lab.csv"
	# and the half again adds nothing, takes nothing
	run "$CP" merge --into "$PG" "$D/half.db"
	[ "${lines[0]##*: }" = "0 sessions added" ]
	"$CP" export --store "$PG" --whole "$D/pg.csv"
	cmp "$D/want.csv" "$D/pg.csv"
}
