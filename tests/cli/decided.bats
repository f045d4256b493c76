#!/usr/bin/env bats
# decided.bats: `clearpath plan run --until-decided`: sessions are added while a comparison is undecided.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	setup_store
}

# A plan of one exec whose value is $1 plus a counter modulo $2 (a counter file per plan), $4 sessions
# (default 3, the fewest a verdict needs): spread without randomness.
plan() {
	cat >"$D/$3.yaml" <<-EOF2
	name: $3
	defaults: {warmups: 0, repeats: 3, sessions: ${4:-3}}
	benchmarks:
	  - exec: {name: rate, command: "n=\$(cat $D/$3.n 2>/dev/null || echo 0); echo \$((n + 1)) > $D/$3.n; echo rate \$(($1 + n % $2))", regex: 'rate ([0-9]+)', unit: GB/sec, higher_is_better: true}
	EOF2
}

# Sessions stored under swprofile $1.
sessions() {
	store_sql "SELECT count(*) FROM session s JOIN swprofile w ON w.id = s.swprofile_id WHERE w.name = '$1'"
}

# --force: other jobs on a shared machine may change THP (doctor --fix tests) between sessions.

@test "until-decided: no other swprofile yet, nothing to decide: the plan's sessions only" {
	plan 100 7 a
	run --separate-stderr "$CP" plan run --quiet --force --swprofile base --until-decided "$D/a.yaml"
	[ "$status" -eq 0 ]
	[[ "$output" == *"until-decided: 'base' has nothing to be compared with in this store yet; stopping at 3 sessions"* ]]
	[ "$(sessions base)" -eq 3 ]
}

@test "until-decided: a clear change is decided at the first look" {
	plan 100 3 a
	plan 150 3 b
	"$CP" plan run --quiet --force --swprofile base "$D/a.yaml" >/dev/null
	run --separate-stderr "$CP" plan run --quiet --force --swprofile patched --until-decided "$D/b.yaml"
	[ "$status" -eq 0 ]
	# looks at 3..10 sessions: 8, each at 0.05 / 8
	[[ "$output" == *"until-decided: 3 sessions, 0 of 1 cells undecided at alpha 0.00625"* ]]
	[[ "$output" == *"until-decided: every cell decided; the store records these looks, and 'clearpath show' judges these cells at alpha 0.00625"* ]]
	[ "$(sessions patched)" -eq 3 ]
	# a plain show later judges at that level, and says so (it judged at 0.05 before)
	run --separate-stderr "$CP" show --format json
	[ "$status" -eq 0 ]
	[ "$(jq '.blocks[0].results[0].columns[1].judged_alpha' <<<"$output")" = 0.00625 ]
	[ "$(jq '.blocks[0].results[0].columns[1].looks' <<<"$output")" = 8 ]
	run --separate-stderr "$CP" show --format grid
	[[ "$output" == *"Cells of patched are judged at alpha 0.00625: plan run --until-decided looked at them 8 times"* ]]
	[ "$(store_sql "SELECT swprofile || ' ' || looks || ' ' || looked FROM sequential")" = "patched 8 1" ]
}

@test "until-decided: an undecided cell gets one more session per look, up to --max-sessions" {
	plan 100 7 a
	plan 100 5 b 2
	"$CP" plan run --quiet --force --swprofile base "$D/a.yaml" >/dev/null
	run --separate-stderr "$CP" plan run --quiet --force --swprofile patched --until-decided --max-sessions 4 "$D/b.yaml"
	[ "$status" -eq 0 ]
	# looks at 2, 3 and 4 sessions; the one at 2 cannot mark anything: 2 count, each at 0.05 / 2
	[[ "$output" == *"until-decided: 2 sessions, 1 of 1 cells undecided at alpha 0.025"* ]]
	[[ "$output" == *"until-decided: 3 sessions, 1 of 1 cells undecided"* ]]
	[[ "$output" == *"until-decided: 4 sessions, 1 of 1 cells undecided"* ]]
	[[ "$output" == *"stopped at --max-sessions with cells undecided"* ]]
	[ "$(sessions patched)" -eq 4 ]
	# the added sessions are numbered after the plan's, of --max-sessions: not each "(1/1)"
	[ "$(grep -c '^session [0-9a-f]* (2/2) ' <<< "$output")" -ge 1 ]
	[ "$(grep -c '^session [0-9a-f]* (3/4) ' <<< "$output")" -ge 1 ]
	[ "$(grep -c '^session [0-9a-f]* (4/4) ' <<< "$output")" -ge 1 ]
	[ "$(grep -c '^session [0-9a-f]* (1/1) ' <<< "$output")" -eq 0 ]
}

@test "until-decided: --max-sessions alone is refused" {
	plan 100 3 a
	run --separate-stderr "$CP" plan run --max-sessions 4 "$D/a.yaml"
	refused 2 "--max-sessions goes with --until-decided"
}
