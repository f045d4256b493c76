#!/usr/bin/env bats
# output: a command whose stdout cannot be written (/dev/full) says so and exits 1, whatever the command.

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_DIRNAME/../.."
	CP=${CLEARPATH:-./clearpath}
	[ -w /dev/full ] || skip "no /dev/full"
}

# full CMD...: run clearpath with stdout on /dev/full
full() {
	run --separate-stderr bash -c '"$@" >/dev/full' full "$CP" "$@"
}

@test "show, bench, plan show and doctor exit 1 when stdout is /dev/full" {
	store="$BATS_TEST_TMPDIR/s.db"
	"$CP" import --store "$store" tests/fixtures/show/seed.csv >/dev/null
	full show --store "$store"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"cannot write the output to stdout"* ]]
	# output past stdout's buffer fails while show still writes: the same word, not a render error
	full show --store "$store" --stats --format box
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"cannot write the output to stdout: No space left on device"* ]]
	full bench mem memset -f default -s 1MB
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"cannot write the output to stdout"* ]]
	full plan show plans/quick.yaml
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"cannot write the output to stdout: No space left on device"* ]]
	CLEARPATH_SYSROOT=tests/fixtures/doctor/vm full doctor
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"cannot write the output to stdout"* ]]
}

@test "a command that fails keeps its own exit code and message when stdout is full too" {
	full plan show tests/fixtures/plans/typo-key.yaml
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"unknown key 'repeat'"* ]]
	[[ "$stderr" != *"cannot write the output"* ]]
}

@test "--help, -h and --version exit 1 when stdout is /dev/full" {
	for opt in --help -h --version; do
		full "$opt"
		[ "$status" -eq 1 ] || { echo "$opt: status $status"; return 1; }
		[[ "$stderr" == *"cannot write the output to stdout"* ]]
	done
}

@test "list exits 1 like every command when stdout is /dev/full (it said exit 3, 'Input/output error')" {
	store="$BATS_TEST_TMPDIR/s.db"
	"$CP" import --store "$store" tests/fixtures/show/seed.csv >/dev/null
	for fmt in table json; do
		full list sessions --store "$store" --format "$fmt"
		[ "$status" -eq 1 ] || { echo "$fmt: status $status: $stderr"; return 1; }
		[[ "$stderr" == *"cannot write the output to stdout"* ]]
	done
}
