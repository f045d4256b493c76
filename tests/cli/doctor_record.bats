#!/usr/bin/env bats
# doctor_record.bats: the doctor's warnings each session records as it starts (on fixture machines:
# x86-metal's powersave governor, boost, THP always, swap in use), shown by show --header and report,
# carried whole by export --whole, import and merge.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	setup_store
	unset COLUMNS CLEARPATH_SYSROOT
	X86=$PWD/tests/fixtures/doctor/x86-metal
}

# One short session of memset on the machine under sysroot $1 into store $2; more run options after.
session_on() {
	local root=$1 store=$2
	shift 2
	CLEARPATH_SYSROOT=$root run --separate-stderr "$CP" run --store "$store" --warmups 0 --repeats 1 --quiet \
		-- mem memset -s 1MB -f default "$@"
	[ "$status" -eq 0 ] || { echo "run failed: $stderr"; return 1; }
}

# The doctor record of the only session of store $1 as "checks: ...; warnings: ...; governor: VALUE".
record_of() {
	python3 - "$1" <<'PY'
import json, sqlite3, sys
(env,), = sqlite3.connect(sys.argv[1]).execute("SELECT environment FROM session").fetchall()
doc = json.loads(env)["doctor"]
gov = [w["value"] for w in doc["warnings"] if w["check"] == "cpu.governor"]
print("checks: %s; warnings: %s; governor: %s" % (" ".join(doc["checks"]),
      " ".join(w["check"] for w in doc["warnings"]), gov[0] if gov else "-"))
PY
}

@test "doctor record: a session records the cheap checks and what did not pass, with value and fix" {
	session_on "$X86" "$STORE"
	run record_of "$STORE"
	[ "$status" -eq 0 ]
	# numa's verdict also depends on this process's memory policy: not asserted here (test_doctor does)
	[[ "$output" == "checks: cpu.governor cpu.boost thp swap page-reporting load virtualisation numa numa.balancing; warnings: cpu.governor cpu.boost thp swap"* ]]
	[[ "$output" == *" numa.balancing; governor: "* ]]
	[[ "$output" == *"; governor: powersave (0/4 CPUs on performance)" ]]
	run store_sql "SELECT environment FROM session"
	[[ "$output" == *'"fix":"clearpath doctor --fix (or: cpupower frequency-set -g performance)"'* ]]
}

@test "doctor record: a session that counts also records the perf checks" {
	skip_emulated "perf events under a user-mode emulator"
	session_on "$X86" "$STORE" --counters
	run record_of "$STORE"
	[[ "$output" == "checks: cpu.governor cpu.boost thp swap page-reporting load virtualisation numa numa.balancing perf.paranoid perf.hw-events;"* ]]
}

@test "doctor record: show --header and the report list the warnings per column, with how many sessions had each" {
	session_on "$X86" "$STORE"
	session_on "$X86" "$STORE"
	run --separate-stderr "$CP" show --header --format grid
	[ "$status" -eq 0 ]
	[[ "$output" == *"  Doctor WARN cpu.governor in 2 of 2 sessions: powersave (0/4 CPUs on performance): the clock ramps up"*"; fix: clearpath doctor --fix (or: cpupower frequency-set -g performance)"* ]]
	[[ "$output" == *"  Doctor WARN thp in 2 of 2 sessions: enabled=always defrag=madvise: "* ]]
	# one line per finding, not one per session
	[ "$(printf '%s\n' "$output" | grep -c 'Doctor WARN cpu.governor')" -eq 1 ]
	run --separate-stderr "$CP" show --header --format json
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
col = json.load(sys.stdin)["blocks"][0]["header"]["columns"][0]
doc = col["doctor"]
assert doc["sessions_checked"] == 2, doc
gov = [w for w in doc["warnings"] if w["check"] == "cpu.governor"][0]
assert gov["sessions"] == 2 and gov["values"] == ["powersave (0/4 CPUs on performance)"], gov
'
	report_drawn -o "$D/r.html" || return 0
	grep -q '<p class="more">Doctor WARN cpu.governor in 2 of 2 sessions: powersave' "$D/r.html"
}

@test "doctor record: a VM whose balloon reports free pages records page-reporting, and the header shows its fix" {
	local vm=$PWD/tests/fixtures/doctor/vm
	session_on "$vm" "$STORE"
	run record_of "$STORE"
	[[ "$output" == *" page-reporting "*"; warnings: thp page-reporting virtualisation; governor: -" ]]
	run --separate-stderr "$CP" show --header --format grid
	[ "$status" -eq 0 ]
	[[ "$output" == *"  Doctor WARN page-reporting in 1 of 1 session: virtio0 reports free blocks of order >= 9 (2MB): "*"; fix: clearpath doctor --fix (or: echo 11 > /sys/module/page_reporting/parameters/page_reporting_order)"* ]]
}

@test "doctor record: a machine doctor --fix made fit records no warnings, which the header says" {
	local fit=$D/fit
	cp -R "$X86" "$fit"
	CLEARPATH_SYSROOT=$fit "$CP" doctor --fix >/dev/null
	echo 1 >"$fit/sys/devices/system/cpu/intel_pstate/no_turbo"
	sed -i 's/^SwapFree:.*/SwapFree:        8388604 kB/' "$fit/proc/meminfo"
	rm -r "$fit/sys/devices/system/node/node1"
	session_on "$fit" "$STORE"
	run record_of "$STORE"
	[[ "$output" == *"; warnings: ; governor: -" ]]
	run --separate-stderr "$CP" show --header --format grid
	[[ "$output" == *"  No doctor warnings recorded (1 session checked)."* ]]
	[[ "$output" != *"Doctor WARN"* ]]
}

@test "doctor record: export --whole (CSV and JSON) -> import, and merge, carry the record whole" {
	session_on "$X86" "$STORE"
	"$CP" show --header --format grid >"$D/a.txt"
	grep -q 'Doctor WARN cpu.governor in 1 of 1 session' "$D/a.txt"
	whole_copies
	want=$(store_sql "SELECT environment FROM session")
	for db in csv json m; do
		[ "$(STORE=$D/$db.db store_sql "SELECT environment FROM session")" = "$want" ]
		"$CP" show --store "$D/$db.db" --header --format grid >"$D/$db.txt"
		diff -u "$D/a.txt" "$D/$db.txt"
	done
}
