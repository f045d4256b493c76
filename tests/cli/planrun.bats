#!/usr/bin/env bats
# planrun: `clearpath plan run` on small plans: sessions, seeded order, exec units, --resume.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	setup_store
}

# sql QUERY: print rows of the store, '|'-separated
sql() {
	store_sql "$1"
}
plan() {
	cat >"$D/$1.yaml"
}

@test "plan run: every benchmark in every session, the seed and order stored with each session" {
	plan tiny <<'EOF2'
name: tiny
defaults: {warmups: 1, repeats: 2, sessions: 2}
benchmarks:
  - mem memset -f default -s 2MB -l 2
  - mem clear -f default -s 2MB -k 4KB
  - exec: {name: echo-rate, command: "echo rate 42.5", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	run "$CP" plan run --seed 11 "$D/tiny.yaml"
	[ "$status" -eq 0 ]
	# 3 units x (1 warmup + 2 repeats) x 2 sessions, one headline class each
	[ "$(sql 'select count(*) from sample')" -eq 18 ]
	[ "$(sql 'select count(*) from session where complete = 1')" -eq 2 ]
	[ "$(sql 'select count(*) from sample where warmup = 1')" -eq 6 ]
	run sql "select json_extract(environment, '$.plan_seed'), json_extract(environment, '$.plan_session') from session order by started"
	[ "${lines[0]}" = "11|1" ]
	[ "${lines[1]}" = "11|2" ]
	# the exec's value and unit made it in
	[ "$(sql "select distinct s.value from sample s join resultclass r on r.id = s.resultclass_id where r.name = 'echo-rate'")" = "42.5" ]
	# the resume state is gone once the plan completed, and never was a file beside the store
	[ "$(sql 'select count(*) from run_state')" -eq 0 ]
	[ -z "$(ls "$D" | grep plan-)" ]
}

@test "plan run: the same seed gives the same order; the order is a permutation of the plan" {
	plan order <<'EOF2'
name: order
defaults: {warmups: 0, repeats: 1, sessions: 1}
benchmarks:
  - bench: mem memset
    args: {f: default, l: 1}
    matrix: {s: [1MB, 2MB, 3MB, 4MB, 5MB, 6MB]}
EOF2
	"$CP" plan run --seed 5 --store "$D/a.db" "$D/order.yaml" >/dev/null
	"$CP" plan run --seed 5 --store "$D/b.db" "$D/order.yaml" >/dev/null
	a=$(STORE="$D/a.db" sql "select json_extract(environment, '$.plan_order') from session")
	b=$(STORE="$D/b.db" sql "select json_extract(environment, '$.plan_order') from session")
	[ "$a" = "$b" ]
	python3 -c 'import json,sys; o=json.loads(sys.argv[1]); assert sorted(o)==sorted("memset -f default -s %dMB -l 1" % i for i in range(1,7)), o' "$a"
}

@test "plan run: a failing exec records an error row with its stderr tail and the run goes on" {
	plan bad <<'EOF2'
name: bad
defaults: {warmups: 0, repeats: 2, sessions: 1}
benchmarks:
  - exec: {name: broken, command: "echo boom >&2; exit 3", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
  - exec: {name: nomatch, command: "echo nothing here", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
  - mem memset -f default -s 1MB
EOF2
	run "$CP" plan run --max-failures 0 "$D/bad.yaml"
	[ "$status" -eq 0 ]
	[ "$(sql "select count(*) from error where message like '%exited with status 3%boom%'")" -eq 2 ]
	[ "$(sql "select count(*) from error where message like '%does not match%'")" -eq 2 ]
	[ "$(sql 'select count(*) from sample')" -eq 2 ]
}

@test "plan run: an exec printing nan, inf or 1e999 records an error row and the session goes on" {
	plan nonfinite <<'EOF2'
name: nonfinite
defaults: {warmups: 0, repeats: 1, sessions: 1}
benchmarks:
  - exec: {name: nan, command: "echo v nan", regex: 'v ([-a-z0-9.]+)', unit: s, higher_is_better: false}
  - exec: {name: inf, command: "echo v -inf", regex: 'v ([-a-z0-9.]+)', unit: s, higher_is_better: false}
  - exec: {name: huge, command: "echo v 1e999", regex: 'v ([-a-z0-9.]+)', unit: s, higher_is_better: false}
  - exec: {name: fine, command: "echo v 2.5", regex: 'v ([-a-z0-9.]+)', unit: s, higher_is_better: false}
EOF2
	run "$CP" plan run --max-failures 0 "$D/nonfinite.yaml"
	[ "$status" -eq 0 ]
	[ "$(sql "select count(*) from error where message like '%is not a finite number%'")" -eq 3 ]
	[ "$(sql 'select count(*) from sample')" -eq 1 ]
	[ "$(sql 'select count(*) from session where complete = 1')" -eq 1 ]
}

@test "plan run prints no terminal escape from the plan's names or an exec's stderr" {
	run "$CP" plan run --max-failures 0 tests/fixtures/plans/escapes.yaml
	[ "$status" -eq 0 ]
	! printf '%s' "$output" | grep -q $'[\x01-\x08\x0b-\x1f\x7f]'
	echo "$output" | grep -E 'session [0-9a-f]{8} \(1/1\)  e \[2Jx +1\.00 u \[5m  \(mean of 1\)'
	echo "$output" | grep -F "'fails ' exited with status 1; stderr: boom [2J"
}

@test "plan run: Ctrl-C stops the session, keeps what it stored and says how to resume" {
	plan sleepy <<EOF2
name: sleepy
defaults: {warmups: 0, repeats: 1, sessions: 1}
benchmarks:
  - exec: {name: sleeper, command: "touch '$D/started'; sleep 30; echo v 1", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
	# Ctrl-C signals the whole foreground process group: a group of its own, SIGINT not ignored
	run python3 - "$CP" "$D/sleepy.yaml" "$D/started" <<'PY'
import os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "plan", "run", "--swprofile", "it's patched", sys.argv[2]], stderr=subprocess.PIPE, text=True,
                     start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
for _ in range(600):
    if os.path.exists(sys.argv[3]):
        break
    time.sleep(0.05)
os.killpg(p.pid, signal.SIGINT)
err = p.communicate(timeout=60)[1]
print("status", p.returncode)
print(err)
PY
	echo "$output" | grep -Fx "status -2"	# it dies of the SIGINT, as a shell expects
	# the hint repeats the swprofile: without it the rest would go under the kernel release
	echo "$output" | grep -F "hint: to continue from the first unfinished benchmark: clearpath plan run --resume --swprofile 'it'\\''s patched' $D/sleepy.yaml"
	[ "$(sql 'select count(*) from session where complete = 0')" -eq 1 ]
	# the exec's own process group went too, not left sleeping
	sleep 0.5
	! pgrep -f "$D/started"
}

@test "plan run: an exec past its timeout is killed and recorded" {
	plan slow <<'EOF2'
name: slow
defaults: {warmups: 0, repeats: 1, sessions: 1, timeout: 1s}
benchmarks:
  - exec: {name: sleeper, command: "sleep 30; echo v 1", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
	start=$(date +%s)
	run "$CP" plan run --max-failures 0 "$D/slow.yaml"
	[ $(( $(date +%s) - start )) -lt 20 ]
	[ "$(sql "select count(*) from error where message like '%timed out after 1s%'")" -eq 1 ]
}

@test "plan run --resume continues an interrupted plan from the first unit not completed" {
	plan res <<'EOF2'
name: res
defaults: {warmups: 0, repeats: 1, sessions: 2}
benchmarks:
  - mem memset -f default -s 1MB
  - exec: {name: marker, command: "if [ -e \"$MARK\" ]; then echo v 1; else touch \"$MARK\"; kill -9 $PPID; sleep 5; fi", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
	export MARK="$D/killed-once"
	# the first time the exec runs it kills its session process: the plan stops part way
	run "$CP" plan run --seed 3 "$D/res.yaml"
	[ "$status" -ne 0 ]
	# the resume state is in the store: session 1 of the plan, seed 3
	[ "$(sql "select seed, session, host = '$(hostname)' from run_state where plan = 'res'")" = "3|0|1" ]
	[ "$(sql 'select count(*) from session where complete = 0')" -eq 1 ]
	run "$CP" plan run --resume "$D/res.yaml"
	[ "$status" -eq 0 ]
	[ "$(sql 'select count(*) from run_state')" -eq 0 ]
	# two complete sessions with both units, plus the interrupted one kept as it was
	[ "$(sql 'select count(*) from session where complete = 1')" -eq 2 ]
	[ "$(sql "select count(*) from sample s join resultclass r on r.id = s.resultclass_id where r.name = 'marker'")" -eq 2 ]
	# resuming again has nothing to do
	run "$CP" plan run --resume "$D/res.yaml"
	[ "$status" -eq 2 ]
	[[ "$output" == *"nothing to resume"* ]]
}

# A plan "lab" of 3 sessions whose exec kills its session process the first time it runs for machine
# class $1 (the run stops part way), and each time after that measures.
lab_plan() {
	plan lab <<'EOF2'
name: lab
defaults: {warmups: 0, repeats: 1, sessions: 3}
benchmarks:
  - mem memset -f default -s 1MB
  - exec: {name: marker, command: "if [ -e \"$MARK.$SUT\" ]; then echo v 1; else touch \"$MARK.$SUT\"; kill -9 $PPID; sleep 5; fi", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
}

@test "plan run: machines running one plan into one store at once keep their own state; each --resume finds its own" {
	lab_plan
	export MARK="$D/killed"
	# three machines (classes) at once: each stops in its first session, none disturbs another
	for sut in box-a box-b box-c; do
		SUT=$sut "$CP" plan run --quiet --seed 5 --sut $sut "$D/lab.yaml" >"$D/$sut.out" 2>&1 &
	done
	wait
	[ "$(sql 'select count(*) from run_state')" -eq 3 ]
	[ "$(sql "select group_concat(sut, ' ') from (select sut from run_state where plan = 'lab' and session = 0 order by sut)")" = "box-a box-b box-c" ]
	# they go on at once, each from its own state, to the end
	pids=()
	for sut in box-a box-b box-c; do
		SUT=$sut "$CP" plan run --quiet --resume --sut $sut "$D/lab.yaml" >"$D/$sut.out" 2>&1 &
		pids+=($!)
	done
	rc=0
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=$?
	done
	cat "$D"/box-*.out
	[ "$rc" -eq 0 ]
	! grep -q "is gone" "$D"/box-*.out
	[ "$(sql 'select count(*) from run_state')" -eq 0 ]
	# every machine: 3 complete sessions with both units, and the one cut short
	run sql "select u.name, sum(s.complete), count(*) from session s join sut u on u.id = s.sut_id group by u.name order by u.name"
	[ "${lines[*]}" = "box-a|3|4 box-b|3|4 box-c|3|4" ]
	[ "$(sql "select count(*) from sample x join resultclass r on r.id = x.resultclass_id where r.name = 'marker'")" -eq 9 ]
}

@test "plan run: calibrate of the same plan keeps to its own state; the interrupted run resumes after it" {
	lab_plan
	export MARK="$D/killed" SUT=box
	run "$CP" plan run --seed 5 --sut box "$D/lab.yaml"
	[ "$status" -ne 0 ]
	# calibrating the same plan on the same machine runs to its end (its exec measures now) ...
	"$CP" calibrate --quiet --sut box --sessions 2 "$D/lab.yaml" >/dev/null
	# ... and leaves the interrupted run's state as it was
	[ "$(sql "select swprofile not like '%(calibration)', session from run_state")" = "1|0" ]
	run "$CP" plan run --quiet --resume --sut box "$D/lab.yaml"
	[ "$status" -eq 0 ]
	[ "$(sql 'select count(*) from run_state')" -eq 0 ]
	# --resume names the run it looks for when there is none
	run --separate-stderr "$CP" plan run --resume --sut other "$D/lab.yaml"
	refused 2 "nothing to resume: no interrupted run of 'lab' on $(hostname) (SUT other, swprofile"
}

@test "plan run --resume: a run interrupted under an older clearpath (its state kept by plan name) goes on" {
	lab_plan
	export MARK="$D/killed" SUT=box
	touch "$MARK.box"
	# a store of schema v2, whose resume state is keyed by the plan's name alone: session 2 of 3 next
	cp "$BATS_TEST_DIRNAME/../fixtures/store-v1/results.db" "$STORE"
	python3 - "$STORE" <<-'EOF2'
	import sqlite3, sys
	db = sqlite3.connect(sys.argv[1])
	db.executescript("""
	CREATE TABLE resume (name TEXT PRIMARY KEY, seed INTEGER NOT NULL, session INTEGER NOT NULL
	  CHECK (session >= 0), scale INTEGER NOT NULL CHECK (scale >= 1), updated TEXT NOT NULL);
	CREATE TABLE resume_done (name TEXT NOT NULL REFERENCES resume(name) ON DELETE CASCADE,
	  unit TEXT NOT NULL, PRIMARY KEY (name, unit));
	INSERT INTO resume VALUES ('lab', 5, 1, 1, '2026-08-22T08:00:00.000000Z');
	PRAGMA user_version = 2;
	""")
	EOF2
	run "$CP" plan run --quiet --resume --force --sut box "$D/lab.yaml"
	[ "$status" -eq 0 ]
	[ "$(sql 'select count(*) from run_state')" -eq 0 ]
	run sql "select json_extract(environment, '$.plan_session'), json_extract(environment, '$.plan_seed')
		from session where json_extract(environment, '$.plan') = 'lab' order by started"
	[ "${lines[*]}" = "2|5 3|5" ]
}

@test "plan run --scale auto runs the sizes that fit and names them in the result classes" {
	plan big <<'EOF2'
name: big
defaults: {warmups: 0, repeats: 1, sessions: 1}
benchmarks:
  - mem memset -f default -s 4GB
EOF2
	# the fixture machine has 1GB available: 4GB is scaled to 512MB (the first power of two that fits)
	CLEARPATH_SYSROOT="$PWD/tests/fixtures/sysroot" run "$CP" plan run "$D/big.yaml"
	[ "$status" -eq 3 ]
	CLEARPATH_SYSROOT="$PWD/tests/fixtures/sysroot" run "$CP" plan run --scale auto "$D/big.yaml"
	[ "$status" -eq 0 ]
	[ "$(sql 'select name from resultclass')" = "memset -f default -s 512MB" ]
	# an explicit divisor is taken as given
	CLEARPATH_SYSROOT="$PWD/tests/fixtures/sysroot" run "$CP" plan run --scale 64 --store "$D/s64.db" "$D/big.yaml"
	[ "$status" -eq 0 ]
	[ "$(STORE="$D/s64.db" sql 'select name from resultclass')" = "memset -f default -s 64MB" ]
}

@test "plan run: usage errors exit 2" {
	run "$CP" plan run
	[ "$status" -eq 2 ]
	run "$CP" plan run --bogus plans/quick.yaml
	[ "$status" -eq 2 ]
	run "$CP" plan run --scale 3 plans/quick.yaml
	[ "$status" -eq 2 ]
	# a seed past 2^64-1 is no seed (it ran with 2^64-1 instead)
	run "$CP" plan run --seed 99999999999999999999 plans/quick.yaml
	[ "$status" -eq 2 ]
	[[ "$output" == *"--seed takes a whole number, not '99999999999999999999'"* ]]
	[ ! -e "$STORE" ]
	run "$CP" plan run --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--resume"* ]]
}

@test "plan run --sessions 1 runs one session whatever the plan says (one per boot)" {
	plan four <<'EOF2'
name: four
defaults: {warmups: 0, repeats: 1, sessions: 4}
benchmarks:
  - mem memset -f default -s 1MB
EOF2
	run "$CP" plan run --sessions 1 "$D/four.yaml"
	[ "$status" -eq 0 ]
	[ "$(sql 'select count(*) from session')" -eq 1 ]
	run "$CP" plan run --sessions 1 "$D/four.yaml"
	[ "$(sql 'select count(*) from session')" -eq 2 ]
}

@test "plan run: a plan file edited while the run goes on stops it, not measured as the same run" {
	# the first session's exec edits the plan: the next session would read another plan
	plan edited <<EOF2
name: edited
defaults: {warmups: 0, repeats: 1, sessions: 3}
benchmarks:
  - exec: {name: editor, command: "sed -i 's/repeats: 1,/repeats: 2,/' '$D/edited.yaml'; echo v 1", regex: 'v ([0-9]+)', unit: u, higher_is_better: true}
EOF2
	run --separate-stderr "$CP" plan run --quiet "$D/edited.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"$D/edited.yaml changed since this run started"* ]]
	[ "$(sql 'select count(*) from session')" -eq 1 ]
	[ "$(sql 'select count(*) from sample')" -eq 1 ]
}

@test "plan run: the per-session lines line up in a file however long a result class is" {
	cat >"$D/long.yaml" <<-'EOF2'
	name: long
	defaults: {warmups: 0, repeats: 1, sessions: 1}
	benchmarks:
	  - exec: {name: short, command: "echo v 2.5", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
	  - exec: {name: a-result-class-name-well-past-the-sixty-columns-the-lines-used-to-pad-to, command: "echo v 1234567.5", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
	EOF2
	"$CP" plan run "$D/long.yaml" >"$D/plan.log"
	[ "$(grep -c '(mean of 1)' "$D/plan.log")" -eq 2 ]
	# one column for "(mean of", whichever the line
	[ "$(awk '/mean of/ { print index($0, "(mean of") }' "$D/plan.log" | sort -u | wc -l)" -eq 1 ]
	grep -qE ' 1234567\.50 s  \(mean of 1\)$' "$D/plan.log"
}

@test "a session says which of its results came from buffers the last-level cache holds (fixture: a 480MB L3)" {
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run --separate-stderr "$CP" run --quiet --warmups 0 --repeats 1 -- \
		mem memset -f default -s 1MB
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" == *"  cache-resident: 1 of 1 results from buffers of at most 1MB, within this machine's 480MB L3 cache: they measure the cache more than memory"* ]]
	# no topology, no claim
	CLEARPATH_SYSROOT=tests/fixtures/small-box run --separate-stderr "$CP" run --quiet --force --warmups 0 --repeats 1 -- \
		mem memset -f default -s 1MB
	[ "$status" -eq 0 ]
	[[ "$output" != *"cache-resident"* ]]
}

@test "plan run with buffers: past-cache runs and stores the raised buffers, in every session process (fixture: a 480MB L3)" {
	plan pc <<'EOF2'
name: pc
buffers: past-cache
defaults: {warmups: 0, repeats: 1, sessions: 2}
benchmarks:
  - mem memset -f default -s 64MB
EOF2
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run --separate-stderr "$CP" plan run --quiet "$D/pc.yaml"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(sql "SELECT count(*) FROM sample s JOIN resultclass r ON r.id = s.resultclass_id
		WHERE r.name = 'memset -f default -s 1GB'")" -eq 2 ]
	[[ "$output" != *"cache-resident"* ]]
}
