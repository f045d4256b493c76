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

@test "calibrate: show leaves the calibration out of the columns and prints it as the noise floor" {
	"$CP" calibrate --quiet --force --sut box --sessions 2 "$D/tiny.yaml" >/dev/null
	for k in base patched; do
		"$CP" plan run --quiet --force --sut box --swprofile "$k" --sessions 2 "$D/tiny.yaml" >/dev/null
	done
	run --separate-stderr "$CP" show
	[ "$status" -eq 0 ]
	[[ "$(tr -s ' ' <<< "$output")" == *"| base (base) | patched |"* ]]
	[[ "$output" != *calibration* && "$output" != *"Noise floor"* ]]
	run --separate-stderr "$CP" show --stats
	[[ "$output" == *"Noise floor of memset -f default -s 2MB -l 2 (clearpath calibrate, 2 sessions): sessions differ by "*"; 4 sessions per column detect "* ]]
	run --separate-stderr "$CP" show --format json
	json_check 'r = [r for r in d["blocks"][0]["results"] if r["resultclass"].startswith("memset")][0]
f = r["noise_floor"]
assert f["sessions"] == 2 and f["within_session_pct"] >= 0, f
assert [c["swprofile"] for c in r["columns"]] == ["base", "patched"], r'
	# named, a calibration is a column like any other
	run --separate-stderr "$CP" show --swprofile "$(uname -r) (calibration)" --swprofile base
	[ "$status" -eq 0 ]
	[[ "$output" == *"(calibration) (base)"* ]]
	# a constant metric has no spread to plan with
	run --separate-stderr "$CP" show --stats
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
