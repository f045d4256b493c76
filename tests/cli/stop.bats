#!/usr/bin/env bats
# stop: killing `run` or `plan run` (SIGTERM, SIGKILL) stops its session process, leaves no half invocation, resumes exactly.

load helpers

# Every run here passes --force: other tests on a shared machine may resize the hugepage pools,
# which are part of the swprofile's fingerprint, and these tests are about stopping, not fingerprints.

setup() {
	setup_store
}

teardown() {
	# whatever a failed test left running goes, so no test measures beside the next one
	[ -n "${parent:-}" ] && kill -9 "$parent" 2>/dev/null || true
	[ -n "${child:-}" ] && kill -9 "$child" 2>/dev/null || true
	true
}

# wait_for CMD...: true once CMD succeeds, polling for at most 30 seconds
wait_for() {
	for _ in $(seq 300); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

has_samples() {
	[ -e "$STORE" ] && [ "$(store_sql 'select count(*) from sample' 2>/dev/null || echo 0)" -ge "$1" ]
}

gone() {
	! kill -0 "$1" 2>/dev/null
}

# The session process of $parent, once there is one.
session_of() {
	wait_for pgrep -P "$1" >/dev/null && pgrep -P "$1"
}

# Every invocation stored whole: each (session, warmup, iteration) has every result class its benchmark has.
no_partial_invocation() {
	[ "$(store_sql 'PRAGMA integrity_check')" = ok ]
	[ "$(store_sql 'select count(*) from (select s.session_id, r.benchmark_id b, s.warmup, s.iteration, count(*) n
		from sample s join resultclass r on r.id = s.resultclass_id group by 1, 2, 3, 4) g
		where n != (select count(*) from resultclass c where c.benchmark_id = g.b)')" -eq 0 ]
}

# kill the parent of a `run` with $1 mid-session
run_killed() {
	"$CP" run --quiet --force --warmups 0 --repeats 500 -- mem memset -s 16MB -l 5 -f default,c-loop \
		>"$D/out" 2>&1 3>&- &
	parent=$!
	child=$(session_of "$parent")
	[ -n "$child" ]
	wait_for has_samples 4
	kill "-$1" "$parent"
	wait "$parent" || rc=$?
	# the session stops with its parent: no clearpath process measures on
	wait_for gone "$child"
	n=$(store_sql 'select count(*) from sample')
	sleep 0.5
	[ "$(store_sql 'select count(*) from sample')" -eq "$n" ]
	[ "$n" -lt 1000 ]
	no_partial_invocation
	[ "$(store_sql 'select count(*) from session where complete = 0')" -eq 1 ]
}

@test "run: SIGTERM to the parent stops the session, which stores no half invocation" {
	run_killed TERM
	[ "$rc" -eq 143 ]
	grep -q "session 1 stopped by signal 15" "$D/out"
}

@test "run: SIGKILL to the parent stops the session too (it dies with its parent)" {
	run_killed KILL
	[ "$rc" -eq 137 ]
}

# A plan whose gate exec blocks the first time it runs, so the kill lands mid-session.
gate_plan() {
	export MARK="$D/gate-entered"
	cat >"$D/gate.yaml" <<'EOF2'
name: gate
defaults: {warmups: 0, repeats: 2, sessions: 2}
benchmarks:
  - mem memset -f default,c-loop -s 4MB -l 2
  - mem memset -f default -s 2MB
  - exec: {name: gate, command: "if [ -e \"$MARK\" ]; then echo v 1; else touch \"$MARK\"; sleep 30.25; echo v 1; fi", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
}

# kill the parent of a `plan run` with $1 while its first session waits in the gate; then --resume
plan_killed_then_resumed() {
	gate_plan
	"$CP" plan run --quiet --force --seed 9 "$D/gate.yaml" >"$D/out" 2>&1 3>&- &
	parent=$!
	wait_for test -e "$MARK"
	child=$(pgrep -P "$parent")
	[ -n "$child" ]
	kill "-$1" "$parent"
	wait "$parent" || rc=$?
	wait_for gone "$child"
	# the gate's command went with its session, though it runs in a process group of its own
	wait_for eval '! pgrep -f "sleep 30.25" >/dev/null'
	no_partial_invocation
	[ "$(store_sql 'select count(*) from session')" -eq 1 ]
	[ "$(store_sql 'select session from run_state where plan = "gate"')" -eq 0 ]
	# resuming gives the plan's two sessions, and nothing runs beside it
	run "$CP" plan run --quiet --force --resume "$D/gate.yaml"
	echo "resume: $output"
	[ "$status" -eq 0 ]
	[ "$(store_sql 'select count(*) from session where complete = 1')" -eq 2 ]
	[ "$(store_sql 'select count(*) from session')" -eq 3 ]
	[ "$(store_sql "select count(*) from sample s join resultclass r on r.id = s.resultclass_id where r.name = 'gate'")" -eq 4 ]
	no_partial_invocation
	[ "$(store_sql 'select count(*) from run_state')" -eq 0 ]
}

@test "plan run: SIGTERM to the parent stops the session and its exec; --resume then runs exactly the plan's sessions" {
	plan_killed_then_resumed TERM
	[ "$rc" -eq 143 ]
	grep -q "plan run --resume" "$D/out"
}

@test "plan run: SIGKILL to the parent stops the session and its exec; --resume then runs exactly the plan's sessions" {
	plan_killed_then_resumed KILL
	[ "$rc" -eq 137 ]
}

# refused_resume SESSION SCALE: --resume of the gate plan, whose stored state says SESSION (0-based) and SCALE, exits 2
refused_resume() {
	gate_plan
	touch "$MARK"
	"$CP" plan run --quiet --force --sessions 1 "$D/gate.yaml" >/dev/null
	store_sql "insert into run_state (plan, sut, swprofile, host, seed, session, scale, updated) values ('gate', '', '', '', 1, $1, $2, 'x')"
	run "$CP" plan run --force --resume "$D/gate.yaml"
	[ "$status" -eq 2 ]
}

@test "plan run --resume: a resume state that does not fit the plan is refused with a clear message" {
	refused_resume 5 1
	[[ "$output" == *"the resume state of 'gate' is for session 6, but it has 2 session(s)"* ]]
	[[ "$output" == *"without --resume"* ]]
}

@test "plan run --resume: an interrupted run is resumed at its own scale, or refused with the one to use" {
	refused_resume 0 2
	[[ "$output" == *"the interrupted run of 'gate' ran its sizes divided by 2, not by 1"* ]]
	[[ "$output" == *"resume it with --scale 2"* ]]
	run "$CP" plan run --quiet --force --resume --scale 2 "$D/gate.yaml"
	[ "$status" -eq 0 ]
	[ "$(store_sql "select count(*) from resultclass where name = 'memset -f default -s 1MB'")" -eq 1 ]
	[ "$(store_sql 'select count(*) from run_state')" -eq 0 ]
}
