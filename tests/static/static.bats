#!/usr/bin/env bats
# static.bats: one static clearpath ($STATIC_BIN, run through $STATIC_EMULATOR when set) is
# linked statically, runs a bench and a run into a store that the normal build ($CLEARPATH) reads.

setup() {
	[ -n "${STATIC_BIN:-}" ] || skip "STATIC_BIN not set: run 'make check-static'"
	D="$BATS_TEST_TMPDIR"
	if [ -n "${STATIC_EMULATOR:-}" ]; then
		# run's session processes start the same way (harness/spawn.c)
		export CLEARPATH_EMULATOR=$STATIC_EMULATOR
		SB=("$STATIC_EMULATOR" "$STATIC_BIN")
	else
		SB=("$STATIC_BIN")
	fi
}

@test "static: no program interpreter and no dynamic section" {
	run readelf -l -d "$STATIC_BIN"
	[ "$status" -eq 0 ]
	[[ "$output" != *"Requesting program interpreter"* ]]
	[[ "$output" == *"There is no dynamic section in this file."* ]]
	if [ -z "${STATIC_EMULATOR:-}" ]; then
		run ldd "$STATIC_BIN"
		[[ "$output" == *"not a dynamic executable"* ]]
	fi
}

@test "static: --version names the architecture it was built for" {
	run "${SB[@]}" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^clearpath\ [^\ ]+\ \(${STATIC_BIN##*clearpath-}\)$ ]]
}

@test "static: a small bench" {
	run "${SB[@]}" bench mem memset -s 1MB -f default -l 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"GB/sec"* ]]
}

@test "static: a run into a store the normal build reads" {
	run "${SB[@]}" run --quiet --store "$D/r.db" --warmups 0 --repeats 2 --sessions 2 --sut box \
		-- mem memset -s 1MB -f default -l 2
	[ "$status" -eq 0 ]
	run "$CLEARPATH" list sessions --store "$D/r.db" --format json
	[ "$status" -eq 0 ]
	[ "$(printf '%s' "$output" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')" -eq 2 ]
}

@test "static: a PostgreSQL store is refused: built without PostgreSQL support, exit 3" {
	run "${SB[@]}" list suts --store postgresql://user@127.0.0.1:1/results
	[ "$status" -eq 3 ]
	[[ "$output" == *"built without PostgreSQL support"* ]]
}
