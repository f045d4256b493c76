#!/usr/bin/env bats
# doctor.bats: `clearpath doctor` on this machine, on the fixture trees, and --fix (for real only as root).

bats_require_minimum_version 1.5.0
load helpers

setup() {
	CP=${CLEARPATH:-./clearpath}
	FIXTURES=$(cd "$BATS_TEST_DIRNAME/../fixtures/doctor" && pwd)
	POOL=/sys/kernel/mm/hugepages/hugepages-2048kB
}

# Every output line is a check line, the fix line under one, or one of theirs wrapped (at most
# 100 columns); a PASS has nothing to fix.
only_check_lines() {
	! printf '%s\n' "$1" | grep -vE '^(PASS|WARN|FAIL)  [a-zA-Z0-9.-]+ +|^ {27}fix: |^ {27}[^ ]|^ {32}[^ ]'
	! printf '%s\n' "$1" | grep -E '^.{101}'
	! printf '%s\n' "$1" | awk '/^(PASS|WARN|FAIL)  /{st = $1} /^ +fix: / && st == "PASS"' | grep .
}

# The report without the checks named by the regex $2 (their wrapped lines too).
without_checks() {
	printf '%s\n' "$1" | awk -v re="$2" '/^(PASS|WARN|FAIL)  /{skip = ($2 ~ re)} !skip'
}

@test "doctor checks this machine: one line per check, exit 0 or 3" {
	run "$CP" doctor
	[ "$status" -eq 0 ] || [ "$status" -eq 3 ]
	only_check_lines "$output"
	for c in cpu.governor cpu.boost thp hugetlb.1GB-support memory swap page-reporting load busy-processes \
		 virtualisation numa numa.balancing isolation perf.paranoid perf.hw-events perf.profile; do
		printf '%s\n' "$output" | grep -qE "^(PASS|WARN|FAIL)  $c " || { echo "no $c"; false; }
	done
	# a FAIL line and exit 3 go together
	if printf '%s\n' "$output" | grep -q '^FAIL'; then [ "$status" -eq 3 ]; else [ "$status" -eq 0 ]; fi
}

@test "doctor --format json is an array of {check, status, value, detail, fix}" {
	command -v jq >/dev/null || skip "jq is not installed"
	run "$CP" doctor --format json
	[ "$status" -eq 0 ] || [ "$status" -eq 3 ]
	printf '%s' "$output" | jq -e 'type == "array" and length > 10 and
		all(.[]; (keys == ["check", "detail", "fix", "status", "value"]) and
			 (.status | IN("PASS", "WARN", "FAIL")))'
}

@test "doctor on the VM fixture: the host controls frequency, no pdpe1gb, THP defrag always" {
	# perf.* and numa's policy are probed live, so they stay out of the comparison
	CLEARPATH_SYSROOT=$FIXTURES/vm run "$CP" doctor
	[ "$status" -eq 0 ]
	only_check_lines "$output"
	diff -u - <(without_checks "$output" '^(perf[.]|numa)') <<'OUT'
PASS  cpu.governor         not exposed: a virtual machine: the host controls the frequency; compare
                           only runs on the same host type
PASS  cpu.boost            not exposed: a virtual machine: the host controls boost/turbo; compare
                           only runs on the same host type
WARN  thp                  enabled=madvise defrag=always: defrag 'always' stalls THP faults on
                           compaction, so fault times vary with fragmentation
                           fix: echo madvise > /sys/kernel/mm/transparent_hugepage/defrag
PASS  hugetlb.2MB          total 0, free 0: no free pages: -p 2MB runs need pages reserved first
                           ('doctor --fix --hugepages 2MB:N')
WARN  hugetlb.1GB-support  not supported: the CPU lacks the pdpe1gb flag (or the hypervisor hides
                           it)
                           fix: ask for a VM type that passes pdpe1gb through (e.g. -cpu host)
PASS  memory               MemAvailable 3.0GB: keep -s well below this
PASS  swap                 none: no swap device
WARN  page-reporting       virtio0 reports free blocks of order >= 9 (2MB): the host discards the
                           blocks the guest frees; a THP or hugetlb fault that reuses one waits for
                           the host to fault it in and zero it again, so clear rates vary
                           several-fold from run to run
                           fix: clearpath doctor --fix (or: echo 11 >
                                /sys/module/page_reporting/parameters/page_reporting_order) until
                                reboot; boot with page_reporting.page_reporting_order=11 to keep it,
                                or turn reporting off in the VMM (QEMU: virtio-balloon
                                free-page-reporting=off)
PASS  load                 0.00 on 2 CPUs: the machine is mostly idle
PASS  busy-processes       none visible: no process used 5% or more of a CPU over 200 ms
WARN  virtualisation       QEMU Standard PC (Q35 + ICH9, 2009): a virtual machine: the host decides
                           frequency, THP backing and neighbours, so expect more noise
                           fix: compare only runs made on the same instance type; prefer bare metal
                                for final numbers
PASS  isolation            none: fine for memory clearing; isolcpus=/nohz_full= on a spare CPU would
                           cut scheduler noise further
OUT
}

@test "doctor on the x86 fixture: powersave, turbo and THP always are warnings" {
	CLEARPATH_SYSROOT=$FIXTURES/x86-metal run "$CP" doctor
	[ "$status" -eq 0 ]
	only_check_lines "$output"
	output=$(unwrapped "$output")
	[[ "$output" == *"WARN  cpu.governor         powersave (0/4 CPUs on performance)"* ]]
	[[ "$output" == *"echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo"* ]]
	[[ "$output" == *"WARN  thp                  enabled=always defrag=madvise: with 'always', -p 4KB mmap results measure THP faults"* ]]
	[[ "$output" == *"PASS  hugetlb.1GB          total 2, free 1"* ]]
	[[ "$output" == *"WARN  numa                 2 nodes"* ]]
	[[ "$output" == *"WARN  numa.balancing       on (1), 2 nodes: "*"fix: clearpath doctor --fix (or: sysctl -w kernel.numa_balancing=0) until reboot; "* ]]
	[[ "$output" == *"PASS  page-reporting       no balloon: "* ]]
}

@test "doctor page-reporting: a balloon that reports 2MB blocks warns; order 11, no reporting bit or no driver pass" {
	root=$BATS_TEST_TMPDIR/vm
	mkdir "$root"
	cp -R "$FIXTURES/vm/." "$root/"
	order=$root/sys/module/page_reporting/parameters/page_reporting_order
	CLEARPATH_SYSROOT=$root run "$CP" doctor --format json
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
r = [c for c in json.load(sys.stdin) if c["check"] == "page-reporting"]
assert len(r) == 1, r
r = r[0]
assert r["status"] == "WARN" and r["value"] == "virtio0 reports free blocks of order >= 9 (2MB)", r
assert "echo 11 > /sys/module/page_reporting/parameters/page_reporting_order" in r["fix"], r
assert "page_reporting.page_reporting_order=11" in r["fix"], r
'
	echo 11 > "$order"
	CLEARPATH_SYSROOT=$root run "$CP" doctor
	output=$(unwrapped "$output")
	[[ "$output" == *"PASS  page-reporting       virtio0: page_reporting_order 11, largest buddy order 10: "* ]]
	echo garbage > "$order"
	CLEARPATH_SYSROOT=$root run "$CP" doctor
	output=$(unwrapped "$output")
	[[ "$output" == *"WARN  page-reporting       virtio0 reports free blocks, page_reporting_order 'garbage': "* ]]
	echo 9 > "$order"
	# bit 5 (VIRTIO_BALLOON_F_REPORTING) cleared
	sed -i 's/^\(.....\)1/\10/' "$root/sys/bus/virtio/devices/virtio0/features"
	CLEARPATH_SYSROOT=$root run "$CP" doctor
	[[ "$output" == *"PASS  page-reporting       virtio0 without free page reporting: "* ]]
	rm "$root/sys/bus/virtio/devices/virtio0/driver"
	CLEARPATH_SYSROOT=$root run "$CP" doctor
	[[ "$output" == *"PASS  page-reporting       no balloon: "* ]]
}

@test "doctor --fix on a VM whose balloon reports 2MB blocks raises page_reporting_order to 11, with the undo" {
	cp -R "$FIXTURES/vm/." "$BATS_TEST_TMPDIR/"
	order=/sys/module/page_reporting/parameters/page_reporting_order
	CLEARPATH_SYSROOT=$BATS_TEST_TMPDIR run "$CP" doctor --fix
	[ "$status" -eq 0 ]
	[[ "$output" == *"changed $order: 9 -> 11"$'\n'"  undo: echo 9 > $order"$'\n'* ]]
	[ "$(cat "$BATS_TEST_TMPDIR$order")" = 11 ]
	[[ "$output" == *"PASS  page-reporting       virtio0: page_reporting_order 11, largest buddy order 10: "* ]]
	# one node: balancing stays on
	[ "$(cat "$BATS_TEST_TMPDIR/proc/sys/kernel/numa_balancing")" = 1 ]
	CLEARPATH_SYSROOT=$BATS_TEST_TMPDIR run "$CP" doctor --fix
	[[ "$output" != *"changed"* ]]
}

@test "doctor on the arm64 fixture: 1GB pages depend on the base page size" {
	CLEARPATH_SYSROOT=$FIXTURES/arm64-metal run "$CP" doctor
	[ "$status" -eq 0 ]
	only_check_lines "$output"
	output=$(unwrapped "$output")
	[[ "$output" == *"PASS  hugetlb.512MB"* ]]
	[[ "$output" == *"WARN  hugetlb.1GB-support  not offered: arm64 has 1GB pages only in kernels built with 4KB or 16KB base pages"* ]]
	[[ "$output" == *"WARN  load                 6.50 on 4 CPUs"* ]]
}

@test "doctor exits 3 when stated needs do not fit" {
	CLEARPATH_SYSROOT=$FIXTURES/vm run "$CP" doctor --hugepages 2MB:64 --needs-memory 1TB
	[ "$status" -eq 3 ]
	[[ "$output" == *"FAIL  hugetlb.2MB          total 0, free 0: the runs need 64 free 2MB pages"* ]]
	[[ "$output" == *"fix: clearpath doctor --fix --hugepages 2MB:64"* ]]
	[[ "$output" == *"FAIL  memory               MemAvailable 3.0GB: the runs need 1.0TB"* ]]
	CLEARPATH_SYSROOT=$FIXTURES/x86-metal run "$CP" doctor --hugepages 2MB:16 --needs-memory 1GB
	[ "$status" -eq 0 ]
}

@test "doctor usage errors exit 2; --help exits 0" {
	run "$CP" doctor --bogus
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown doctor option '--bogus'"* ]]
	run "$CP" doctor --format yaml
	[ "$status" -eq 2 ]
	run "$CP" doctor --hugepages 4KB:3
	[ "$status" -eq 2 ]
	run "$CP" doctor --needs-memory
	[ "$status" -eq 2 ]
	run "$CP" doctor --for no/such/plan.yaml
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot read plan no/such/plan.yaml"* ]]
	run "$CP" doctor --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--fix"* ]]
}

@test "doctor --for PLAN checks the plan's largest needs against the machine" {
	# the VM fixture has neither 32GB available nor 1GB pages reserved: the seed plan cannot run there
	CLEARPATH_SYSROOT="$BATS_TEST_DIRNAME/../fixtures/doctor/vm" run "$CP" doctor --for "$BATS_TEST_DIRNAME/../../plans/seed.yaml"
	[ "$status" -eq 3 ]
	[[ "$output" == *"FAIL  memory"*"32.0GB"* ]]
	[[ "$output" == *"FAIL  hugetlb.1GB"* ]]
}

@test "doctor --for a plan with a 70-character unknown key refuses it cleanly (once read out of bounds)" {
	run "$CP" doctor --for "$BATS_TEST_DIRNAME/../fixtures/plans/long-key.yaml"
	[ "$status" -eq 2 ]
	[[ "$output" == *"long-key.yaml:3:1: an unknown key (70 characters, not shown) in a plan; valid keys: name,"* ]]
}

@test "doctor --fix writes into a fixture copy and prints how to undo each change" {
	cp -R "$FIXTURES/x86-metal/." "$BATS_TEST_TMPDIR/"
	CLEARPATH_SYSROOT=$BATS_TEST_TMPDIR run "$CP" doctor --fix --hugepages 2MB:20
	[[ "$output" == *"changed /sys/kernel/mm/transparent_hugepage/enabled: always -> madvise"* ]]
	[[ "$output" == *"undo: echo powersave > /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"* ]]
	[[ "$output" == *"undo: echo 16 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages")" = 20 ]
	[ "$(cat "$BATS_TEST_TMPDIR/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor")" = performance ]
	[[ "$output" == *"changed /proc/sys/kernel/numa_balancing: 1 -> 0"$'\n'"  undo: echo 1 > /proc/sys/kernel/numa_balancing"* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/proc/sys/kernel/numa_balancing")" = 0 ]
	[[ "$output" == *"PASS  thp                  enabled=madvise"* ]]
	# the fixture's free_hugepages does not move the way the kernel's would, so the check still fails
	[ "$status" -eq 3 ]
}

@test "doctor --fix never asks the kernel for more hugepages than memory holds; absurd counts are refused" {
	cp -R "$FIXTURES/x86-metal/." "$BATS_TEST_TMPDIR/"
	# the fixture has 255000000 kB available: 200000 2MB pages (400GB) do not fit
	CLEARPATH_SYSROOT=$BATS_TEST_TMPDIR run "$CP" doctor --fix --hugepages 2MB:200000
	[ "$status" -eq 3 ]
	[[ "$output" == *"reserving 199984 more 2MB pages takes more memory than the"*"nothing was reserved"* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages")" = 16 ]
	# a count past 2^32 (which wrapped around in count x page size) is no count
	run "$CP" doctor --hugepages 2MB:99999999999999
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad --hugepages '2MB:99999999999999'"* ]]
}

@test "doctor prints no terminal escape from what the machine says (a DMI product name)" {
	cp -R "$FIXTURES/vm/." "$BATS_TEST_TMPDIR/"
	printf 'Evil\033[2J\033]0;title\007Box\n' >"$BATS_TEST_TMPDIR/sys/class/dmi/id/product_name"
	CLEARPATH_SYSROOT=$BATS_TEST_TMPDIR run "$CP" doctor
	[[ "$output" == *"Evil [2J ]0;title Box"* ]]
	! printf '%s' "$output" | grep -q $'\033'
	! printf '%s' "$output" | grep -q $'\007'
}

@test "doctor --fix refuses without root and changes nothing" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to another user"
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	before=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$CP" doctor --fix --hugepages 2MB:4
	[ "$status" -eq 2 ]
	[[ "$output" == *"needs root; nothing was changed"* ]]
	[ "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)" = "$before" ]
}

# The real --fix: reserve a few 2MB pages, check, and always put everything back.
save_real() {
	SAVED="$BATS_TEST_TMPDIR/saved"
	: > "$SAVED"
	for f in "$POOL/nr_hugepages" /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do
		[ -w "$f" ] && printf '%s %s\n' "$f" "$(cat "$f")" >> "$SAVED"
	done
	f=/sys/kernel/mm/transparent_hugepage/enabled
	[ -w "$f" ] && printf '%s %s\n' "$f" "$(sed 's/.*\[\(.*\)\].*/\1/' "$f")" >> "$SAVED"
	# --fix may raise the free page reporting order of a VM and turn NUMA balancing off
	for f in /sys/module/page_reporting/parameters/page_reporting_order /proc/sys/kernel/numa_balancing; do
		[ -w "$f" ] && printf '%s %s\n' "$f" "$(cat "$f")" >> "$SAVED"
	done
	return 0
}

teardown() {
	[ -n "${SAVED:-}" ] && [ -f "$SAVED" ] || return 0
	# write back only what changed: a value such as an unset order (-1) reads but cannot be written
	while read -r f v; do [ "$(cat "$f")" = "$v" ] || echo "$v" > "$f"; done < "$SAVED"
}

@test "doctor --fix --hugepages 2MB:4 reserves pages on this machine (root only)" {
	[ "$(id -u)" -eq 0 ] || skip "not root: --fix needs root"
	[ -w "$POOL/nr_hugepages" ] || skip "no writable 2MB hugetlb pool here"
	save_real
	old=$(cat "$POOL/nr_hugepages")
	run "$CP" doctor --fix --hugepages 2MB:4
	[ "$status" -eq 0 ] || [ "$status" -eq 3 ]
	[ "$(cat "$POOL/free_hugepages")" -ge 4 ] || skip "the kernel could not find 4 free 2MB pages"
	[[ "$output" == *"PASS  hugetlb.2MB"* ]]
	if [ "$(cat "$POOL/nr_hugepages")" != "$old" ]; then
		[[ "$output" == *"undo: echo $old > $POOL/nr_hugepages"* ]]
	fi
}

@test "doctor wraps at the terminal's width (here \$COLUMNS), not at 100 columns whatever it is" {
	COLUMNS=72 CLEARPATH_SYSROOT="$FIXTURES/vm" run "$CP" doctor
	# a line past 72 columns is one word too long for any line, alone after the indent
	! printf '%s\n' "$output" | grep -E '^.{73}' | grep -vE '^ +(fix: )?[^ ]+$'
	printf '%s\n' "$output" | grep -qE '^.{60}'
	COLUMNS=200 CLEARPATH_SYSROOT="$FIXTURES/vm" run "$CP" doctor
	printf '%s\n' "$output" | grep -qE '^.{101}'
}

@test "doctor page-reporting: a command line that asks for order 11 the kernel did not take says so, and no 'boot with' advice" {
	root=$BATS_TEST_TMPDIR/vm
	mkdir "$root"
	cp -R "$FIXTURES/vm/." "$root/"
	echo "console=ttyS0 page_reporting.page_reporting_order=11 root=/dev/vda1" >"$root/proc/cmdline"
	CLEARPATH_SYSROOT=$root run "$CP" doctor --format json
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
r = [c for c in json.load(sys.stdin) if c["check"] == "page-reporting"][0]
assert r["status"] == "WARN", r
assert "asks for page_reporting.page_reporting_order=11, but the order in effect is 9" in r["detail"], r
assert "boot with" not in r["fix"] and "after each boot" in r["fix"], r
'
}

# Calibration sessions of SUT class box under "6.1 (calibration)" in store $1: $2 boots of memset -s 1GB
# alternating between 100 and 92 (two modes 8.7% apart) unless $3 is "one", and of memset -s 1MB around 50.
calibrated() {
	python3 - "$1.csv" "$2" "${3:-two}" <<'EOF2'
import sys
out, k, shape = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = ["sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,"
        "session_started,sample_time"]
for s in range(k):
    big = (100, 92)[s % 2] + 0.1 * (s // 2) if shape == "two" else 100 + 0.2 * (s % 3)
    for size, level in (("1GB", big), ("1MB", 50 + 0.1 * (s % 3))):
        for it, d in enumerate((-0.1, 0, 0.1)):
            rows.append("box,6.1 (calibration),00000000-0000-4000-8000-%012d,mem/memset memset -s %s,memset -s %s,"
                        "bytes/sec,1,%d,0,%r,2026-08-%02dT08:00:00Z,2026-08-%02dT08:00:1%dZ"
                        % (s + 1, size, size, it, (level + d) * 1e9, s + 1, s + 1, it))
open(out, "w").write("\n".join(rows) + "\n")
EOF2
	"$CP" import --store "$1" "$1.csv" >/dev/null
}

# The doctor's modes lines of store $1 for SUT class box, as JSON [status, value, detail] per line.
modes_of() {
	"$CP" doctor --store "$1" --sut box --format json |
		python3 -c 'import json, sys; print(json.dumps([[r["status"], r["value"], r["detail"]] for r in json.load(sys.stdin) if r["check"] == "modes"]))'
}

@test "doctor --store: calibration sessions that fall into two modes warn, per result class; one mode passes" {
	local st="$BATS_TEST_TMPDIR/cal.db"
	calibrated "$st" 6
	run "$CP" doctor --store "$st" --sut box
	[ "$status" -eq 0 ] || [ "$status" -eq 3 ]
	only_check_lines "$output"
	[[ "$output" == *"WARN  modes                2 modes 8.7% apart: memset -s 1GB (bytes/sec) under 6.1 (calibration): 3"* ]] || { echo "$output"; false; }
	[[ "$output" == *"fix: more sessions per kernel"* ]]
	run modes_of "$st"
	[ "$status" -eq 0 ]
	[[ "$output" == '[["WARN", "2 modes 8.7% apart", "memset -s 1GB (bytes/sec) under 6.1 (calibration): 3 of 6 sessions in the lower mode'* ]]
	[[ "$output" != *"memset -s 1MB"* ]]
	# one mode: one PASS for the store
	st="$BATS_TEST_TMPDIR/one.db"
	calibrated "$st" 6 one
	run modes_of "$st"
	[ "$output" = '[["PASS", "one mode", "the calibration'"'"'s sessions of SUT class box fall into one mode (2 result classes with 4 sessions or more)"]]' ]
	# three sessions cannot tell
	st="$BATS_TEST_TMPDIR/three.db"
	calibrated "$st" 3
	run modes_of "$st"
	[[ "$output" == '[["WARN", "cannot tell", "the calibration of SUT class box has fewer than 4 sessions per result class'* ]]
}

@test "doctor --store: no calibration of this SUT class says so; --sut needs --store; a missing store is refused" {
	local st="$BATS_TEST_TMPDIR/cal.db"
	calibrated "$st" 6
	# the SUT class detected: the fixture's DMI product
	CLEARPATH_SYSROOT=$FIXTURES/vm run "$CP" doctor --store "$st" --format json
	[[ "$output" == *'"value": "not calibrated"'* ]]
	[[ "$output" == *"no calibration sessions of SUT class Standard PC (Q35 + ICH9, 2009)"* ]]
	run --separate-stderr "$CP" doctor --sut box
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--sut names the SUT class to read in --store: give --store too"* ]]
	run --separate-stderr "$CP" doctor --store "$BATS_TEST_TMPDIR/none.db"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"no store at $BATS_TEST_TMPDIR/none.db"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/none.db" ]
	# without --store nothing is read from any store
	CLEARPATH_STORE=$st run "$CP" doctor
	[[ "$output" != *modes* ]]
}
