#!/usr/bin/env bats
# calibrate.bats: `clearpath calibrate` on a tiny plan: the noise table, what is stored, and show's noise floor.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	setup_store
	cat >"$D/tiny.yaml" <<-'EOF2'
	name: tiny
	defaults: {warmups: 0, repeats: 3, sessions: 1}
	benchmarks:
	  - mem memset -f default -s 2MB -l 2
	  - exec: {name: echo-rate, command: "echo rate 42.5", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
	EOF2
}

# --force everywhere: other jobs on a shared machine may change THP (doctor --fix tests) between
# sessions, which changes the swprofile fingerprint; that is not what these tests are about.
# (Resizing the hugepage pools no longer does: the fingerprint holds no page counts.)

@test "calibrate: N sessions under the calibration swprofile, and the spread per result class" {
	run --separate-stderr "$CP" calibrate --quiet --force --sut box --sessions 2 "$D/tiny.yaml"
	[ "$status" -eq 0 ]
	rel=$(uname -r)
	[[ "$output" == *"Noise floor of SUT Class box, swprofile $rel (calibration):"* ]]
	[[ "$output" == *"| sessions | between sessions | within a session | 4 sessions detect | sessions for 1% |"* ]]
	# two sessions may differ less than their repeats say: that estimate is truncated at 0, and said so
	[[ "$(grep -F 'memset -f default -s 2MB -l 2 (bytes/sec)' <<< "$output")" =~ \|\ +2\ \|\ +([0-9.]+%|within\ repeats)\ \|\ +[0-9.]+%\ \| ]]
	# a constant metric has no spread: nothing to plan with
	[[ "$(grep -F 'echo-rate (GB/sec)' <<< "$output")" =~ \|\ +2\ \|\ +0\.00%\ \|\ +0\.00%\ \|\ +-\ \|\ +-\ \|$ ]]
	# stored: 2 sessions x 2 benchmarks x 3 repeats, under the calibration swprofile
	run "$CP" list swprofiles --format json
	json_check 'import os
names = [s["name"] for s in d]
assert os.uname().release + " (calibration)" in names, names'
	run "$CP" export --format csv -
	[ "$(grep -c ' (calibration),' <<< "$output")" -eq 12 ]
	# again adds sessions to the same calibration; --target changes what is planned for
	run --separate-stderr "$CP" calibrate --quiet --force --sut box --sessions 2 --target 5 "$D/tiny.yaml"
	[ "$status" -eq 0 ]
	[[ "$output" == *"| sessions for 5% |"* ]]
	[[ "$(grep -F 'memset -f default' <<< "$output")" =~ \|\ +4\ \| ]]
}

# A plan of tiny.yaml's memset and an exec whose value is 100 plus a counter (a file per plan): a spread
# without randomness, so the noise floor's numbers do not depend on this machine's noise.
counted() {
	cat >"$D/counted.yaml" <<-EOF2
	name: counted
	defaults: {warmups: 0, repeats: 3, sessions: 1}
	benchmarks:
	  - mem memset -f default -s 2MB -l 2
	  - exec: {name: rate, command: "n=\$(cat $D/counted.n 2>/dev/null || echo 0); echo \$((n + 1)) > $D/counted.n; echo rate \$((100 + n))", regex: 'rate ([0-9]+)', unit: GB/sec, higher_is_better: true}
	EOF2
}

@test "calibrate: show on a store that holds only a calibration says so and how to see it, not 'the store is empty'" {
	"$CP" calibrate --quiet --force --sut box --sessions 2 "$D/tiny.yaml" >/dev/null
	cal="$(uname -r) (calibration)"
	run --separate-stderr "$CP" show
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"what matches is calibration ('$cal'), which show leaves out of its columns"* ]]
	[[ "$stderr" == *"--swprofile '$cal'"* ]]
	[[ "$stderr" != *"store is empty"* ]]
	# the hint's command works
	run --separate-stderr "$CP" show --swprofile "$cal"
	[ "$status" -eq 0 ]
	# a filter that leaves nothing, calibration or not, is still said as before
	run --separate-stderr "$CP" show --sut nosuch
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the filters exclude everything"* ]]
}

@test "calibrate: show leaves the calibration out of the columns and prints it as the noise floor" {
	counted
	"$CP" calibrate --quiet --force --sut box --sessions 2 "$D/counted.yaml" >/dev/null
	for k in base patched; do
		"$CP" plan run --quiet --force --sut box --swprofile "$k" --sessions 2 "$D/counted.yaml" >/dev/null
	done
	run --separate-stderr "$CP" show
	[ "$status" -eq 0 ]
	[[ "$(tr -s ' ' <<< "$output")" == *"| base (base) | patched |"* ]]
	[[ "$output" != *calibration* && "$output" != *"Noise floor"* ]]
	run --separate-stderr "$CP" show --stats
	# the memset's numbers are this machine's noise: only that it is there
	[[ "$output" == *"Noise floor of memset -f default -s 2MB -l 2 (clearpath calibrate, 2 sessions): sessions differ "* ]]
	# the counter's are known: sessions 100 101 102 and 103 104 105, a between-session sd of 2.04 (1.99% of
	# 102.5), repeats 1 (0.98%); the levels 101 and 104 spread 2.07%: (t(.975, 6) + t(.8, 6)) x 2.07% x
	# sqrt(2 / 4) = 4.91% for 4 sessions, 69 for 1%; 2 sessions cannot bound the spread, so "at least"
	[[ "$output" == *"Noise floor of rate (clearpath calibrate, 2 sessions): sessions differ by 1.99%, repeats by 0.98%; 4 sessions per column detect at least 4.91%, 1% takes at least 69."* ]] || { echo "$output"; return 1; }
	run --separate-stderr "$CP" show --format json
	json_check 'r = [r for r in d["blocks"][0]["results"] if r["resultclass"] == "rate"][0]
f = r["noise_floor"]
assert f["sessions"] == 2 and abs(f["within_session_pct"] - 100 / 102.5) < 1e-9, f
assert [c["swprofile"] for c in r["columns"]] == ["base", "patched"], r'
	# calibrate's own table says the same
	run --separate-stderr "$CP" calibrate --quiet --force --sut box --sessions 2 "$D/counted.yaml"
	[ "$status" -eq 0 ]
	[[ "$(grep -F 'rate (GB/sec)' <<< "$output")" =~ \|\ +4\ \|\ +[0-9.]+%\ \|\ +[0-9.]+%\ \| ]]
	# named, a calibration is a column like any other
	run --separate-stderr "$CP" show --swprofile "$(uname -r) (calibration)" --swprofile base
	[ "$status" -eq 0 ]
	[[ "$output" == *"(calibration) (base)"* ]]
}

@test "calibrate: a constant metric has no spread to plan with" {
	"$CP" calibrate --quiet --force --sut box --sessions 2 "$D/tiny.yaml" >/dev/null
	run --separate-stderr "$CP" show --stats --swprofile "$(uname -r) (calibration)"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Noise floor of echo-rate (clearpath calibrate, 2 sessions): sessions differ by 0.00%, repeats by 0.00%; no spread to plan with."* ]]
}

@test "calibrate: bad usage is refused" {
	run --separate-stderr "$CP" calibrate --sessions 1 "$D/tiny.yaml"
	refused 2 "--sessions"
	run --separate-stderr "$CP" calibrate
	refused 2 "calibrate needs exactly one plan file"
	run --separate-stderr "$CP" calibrate --target 0 "$D/tiny.yaml"
	refused 2 "invalid value '0' for --target"
	run --separate-stderr "$CP" calibrate --swprofile '' "$D/tiny.yaml"
	refused 2 "--swprofile needs a name, not an empty one"
	run --separate-stderr "$CP" calibrate --seed 99999999999999999999 "$D/tiny.yaml"
	refused 2 "--seed takes a whole number"
	[ ! -e "$STORE" ]
	run "$CP" calibrate --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: clearpath calibrate [options] PLAN"* ]]
}
