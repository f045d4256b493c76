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
