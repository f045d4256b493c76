#!/usr/bin/env bats
# store.bats: `clearpath run` into the store, and list/export/import/merge over it, on the real binary.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	CP=${CLEARPATH:-./clearpath}
	FIX="$BATS_TEST_DIRNAME/../fixtures"
	# a directory of its own: bats keeps its --separate-stderr files in BATS_TEST_TMPDIR
	D=$BATS_TEST_TMPDIR/w
	mkdir -p "$D"
	export CLEARPATH_STORE="$D/r.db"
	unset CLEARPATH_SYSROOT
	# One function, so one result class per invocation: counts below are exact.
	MEMSET=(mem memset -s 4MB -l 2 -f default)
}

teardown() {
	[ -z "${FULL:-}" ] || ! mountpoint -q "$FULL" || umount "$FULL"
}

# Print the rows of SQL query $2 on database $1, fields joined by '|' (python3 is in the test image).
sql() {
	python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join(map(str, r)))' "$@"
}

# Run statement $2 on database $1 and commit.
sql_write() {
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' "$@"
}

# A small run into $CLEARPATH_STORE: run options, then the memset command line.
small_run() {
	"$CP" run --quiet "$@" -- "${MEMSET[@]}"
}

samples() {
	sql "${1:-$CLEARPATH_STORE}" "SELECT count(*) FROM sample"
}

@test "run: warmups flagged, repeats stored, each session its own process on this boot" {
	run --separate-stderr small_run --warmups 1 --repeats 2 --sessions 3
	[ "$status" -eq 0 ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(DISTINCT uuid), count(DISTINCT boot_id), sum(complete) FROM session")" = "3|1|3" ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT DISTINCT boot_id FROM session")" = "$(cat /proc/sys/kernel/random/boot_id)" ]
	# per session: warmup 0, repeats 0 and 1
	run sql "$CLEARPATH_STORE" "SELECT warmup, group_concat(iteration) FROM (SELECT * FROM sample
		ORDER BY warmup, iteration) GROUP BY session_id, warmup ORDER BY session_id, warmup DESC"
	[ "$output" = $'1|0\n0|0,1\n1|0\n0|0,1\n1|0\n0|0,1' ]
}

@test "run: CLEARPATH_EMULATOR starts each session process through that program" {
	# An "emulator" that logs its arguments and runs the binary it was given, as qemu would
	# (through the real emulator when this clearpath is itself emulated: make check-arm64).
	printf '#!/bin/sh\necho "$@" >> "%s"\nexec %s "$@"\n' "$D/emu.log" "${CLEARPATH_EMULATOR:-}" > "$D/emu"
	chmod +x "$D/emu"
	CLEARPATH_EMULATOR=$D/emu run --separate-stderr small_run --warmups 0 --repeats 1 --sessions 2
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(*), sum(complete) FROM session")" = "2|2" ]
	[ "$(grep -c -- " run --session-child " "$D/emu.log")" -eq 2 ]
	# the session child is the very binary running now, not one found on PATH
	read -r first _ < "$D/emu.log"
	[ -x "$first" ] && [ "$(basename "$first")" != emu ]
	# a store of its own: nothing but the missing emulator can refuse this run
	CLEARPATH_EMULATOR=$D/nosuch run --separate-stderr small_run --repeats 1 --store "$D/nosuch.db"
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"cannot re-execute clearpath for a session"* ]]
}

@test "run: one summary line per session, and --sut/--swprofile name what is stored" {
	# a machine without cache topology (the small-box fixture): no cache-resident line after a
	# session's means, whatever this machine's last-level cache holds
	CLEARPATH_SYSROOT=$FIX/small-box run --separate-stderr small_run --warmups 0 --repeats 2 --sessions 2 \
		--sut box --swprofile base
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	mapfile -t L <<< "$output"
	[ "${#L[@]}" -eq 2 ] || { echo "$output"; return 1; }
	[[ "${L[0]}" =~ ^session\ [0-9a-f]{8}\ \(1/2\)\ +memset\ -f\ default\ -s\ 4MB\ -l\ 2\ .*\(mean\ of\ 2\)$ ]]
	[[ "${L[1]}" == *"(2/2)"* ]]
	# a machine whose last-level cache holds the 4MB buffer (vm-x86: 480MB L3): each session's
	# means, then its cache-resident line
	CLEARPATH_SYSROOT=$FIX/vm-x86 run --separate-stderr small_run --warmups 0 --repeats 2 --sessions 2 \
		--store "$D/l3.db"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	mapfile -t L <<< "$output"
	[ "${#L[@]}" -eq 4 ] || { echo "$output"; return 1; }
	[[ "${L[0]}" == *"(1/2)"*"(mean of 2)" && "${L[1]}" == *"(1/2)  cache-resident: 1 of 1 results"*"480MB L3"* ]]
	[[ "${L[2]}" == *"(2/2)"*"(mean of 2)" && "${L[3]}" == *"(2/2)  cache-resident: 1 of 1 results"* ]]
	[ "$(sql "$CLEARPATH_STORE" "SELECT name FROM sut")" = box ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT name FROM swprofile")" = base ]
}

@test "run: a changed fingerprint under the same swprofile is refused with the diff, accepted with --force" {
	small_run --swprofile p --sut box --repeats 1
	stored=$(sql "$CLEARPATH_STORE" "SELECT fingerprint FROM swprofile")
	# small-box has THP "always" and no /proc/cmdline: the kernel looks reconfigured on that class.
	CLEARPATH_SYSROOT=$FIX/small-box run --separate-stderr small_run --swprofile p --sut box --repeats 1
	refused 2 "swprofile 'p' already exists with a different fingerprint on this SUT class" 'thp_enabled:' \
		'-> "always"' "cmdline:" "--force"
	# one hint, said once
	[ "$(grep -c 'hint:' <<<"$stderr")" -eq 1 ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(*) FROM session")" -eq 1 ]
	CLEARPATH_SYSROOT=$FIX/small-box run --separate-stderr small_run --swprofile p --sut box --repeats 1 --force \
		--sessions 2
	[ "$status" -eq 0 ]
	# one warning for the run, not one more per session process
	[ "$(grep -c 'keeps its stored fingerprint' <<<"$stderr")" -eq 1 ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(*) FROM session")" -eq 3 ]
	# the profile keeps the fingerprint its first sessions were measured under
	[ "$(sql "$CLEARPATH_STORE" "SELECT fingerprint FROM swprofile")" = "$stored" ]
}

# A simulated boot in $D/$1 (CLEARPATH_FAKE_BOOT): kernel release $3 with command line $2.
fake_boot() {
	mkdir -p "$D/$1"
	echo "$2" >"$D/$1/cmdline"
	echo "${3:-6.18.0-lab}" >"$D/$1/release"
}

@test "run: one swprofile on machines of several classes, each its own cmdline; a change within a class refused" {
	fake_boot a "console=ttyAMA0,115200 root=/dev/vda quiet"
	fake_boot b "console=ttyS0,115200 root=/dev/sda quiet"
	fake_boot a2 "console=ttyAMA0,115200 root=/dev/vda quiet mitigations=off"
	fake_boot c "console=ttyS0" 6.19.0-other
	CLEARPATH_FAKE_BOOT=$D/a small_run --swprofile base --sut box-a --repeats 1
	# another machine class, its own console: no --force, nothing refused
	CLEARPATH_FAKE_BOOT=$D/b run --separate-stderr small_run --swprofile base --sut box-b --repeats 1
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	CLEARPATH_FAKE_BOOT=$D/a small_run --swprofile base --sut box-a --repeats 1
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(*) FROM session")" -eq 3 ]
	run sql "$CLEARPATH_STORE" "SELECT u.name, json_extract(x.fingerprint, '$.cmdline') FROM swprofile_sut x
		JOIN sut u ON u.id = x.sut_id ORDER BY u.name"
	[ "${lines[*]}" = "box-a|console=ttyAMA0,115200 root=/dev/vda quiet box-b|console=ttyS0,115200 root=/dev/sda quiet" ]
	# within one class's column a changed cmdline is refused, as always
	CLEARPATH_FAKE_BOOT=$D/a2 run --separate-stderr small_run --swprofile base --sut box-a --repeats 1
	refused 2 "swprofile 'base' already exists with a different fingerprint on this SUT class" \
		'cmdline: "console=ttyAMA0,115200 root=/dev/vda quiet" -> "console=ttyAMA0,115200 root=/dev/vda quiet mitigations=off"' \
		"--force"
	# another kernel under the name is refused on any class, a new one too
	CLEARPATH_FAKE_BOOT=$D/c run --separate-stderr small_run --swprofile base --sut box-c --repeats 1
	refused 2 "swprofile 'base' already exists with a different fingerprint (its kernel_release, the same on every machine)" \
		'kernel_release: "6.18.0-lab" -> "6.19.0-other"'
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(*) FROM session")" -eq 3 ]
}

@test "merge and import: the swprofile rule of run, per machine class; what run refuses they refuse" {
	fake_boot a "console=ttyAMA0,115200 quiet"
	fake_boot b "console=ttyS0,115200 quiet"
	fake_boot a2 "console=ttyAMA0,115200 quiet mitigations=off"
	fake_boot c "console=ttyS0" 6.19.0-other
	for m in a b a2; do
		CLEARPATH_FAKE_BOOT=$D/$m small_run --swprofile base --sut "box-${m:0:1}" --repeats 1 --store "$D/$m.db"
	done
	CLEARPATH_FAKE_BOOT=$D/c small_run --swprofile base --sut box-c --repeats 1 --store "$D/c.db"
	# each machine's store into the lab's: every class its own cmdline
	"$CP" merge --into "$D/lab.db" "$D/a.db" "$D/b.db" >/dev/null
	[ "$(sql "$D/lab.db" "SELECT count(*) FROM swprofile_sut")" -eq 2 ]
	# box-a's kernel with another cmdline: refused whole, as run refuses it, by merge (either engine) and import
	run --separate-stderr "$CP" merge --into "$D/lab.db" "$D/a2.db"
	refused 2 "swprofile 'base' already exists with a different fingerprint on SUT class 'box-a' (as the source has it)" \
		'cmdline: "console=ttyAMA0,115200 quiet" -> "console=ttyAMA0,115200 quiet mitigations=off"' \
		"nothing from $D/a2.db was merged"
	"$CP" export --store "$D/a2.db" --whole "$D/a2.csv"
	grep -q '^sut_swprofile,box-a,base,,' "$D/a2.csv"
	run --separate-stderr "$CP" import --store "$D/lab.db" "$D/a2.csv"
	refused 2 "the store holds another fingerprint of that swprofile on that class" "nothing from $D/a2.csv was imported"
	# another kernel under the name
	run --separate-stderr "$CP" merge --into "$D/lab.db" "$D/c.db"
	refused 2 "swprofile 'base' is another kernel there: its kernel_release differs"
	"$CP" export --store "$D/c.db" --whole "$D/c.csv"
	run --separate-stderr "$CP" import --store "$D/lab.db" "$D/c.csv"
	refused 2 "the store holds swprofile 'base' as another kernel"
	[ "$(sql "$D/lab.db" "SELECT count(*) FROM session")" -eq 2 ]
	# the whole form carries each class's fingerprint: export -> import -> export, and merge, the same bytes
	"$CP" export --store "$D/lab.db" --whole "$D/lab.csv"
	"$CP" import --store "$D/copy.db" "$D/lab.csv" >/dev/null
	"$CP" export --store "$D/copy.db" --whole "$D/copy.csv"
	cmp "$D/lab.csv" "$D/copy.csv"
	[ "$(grep -c '^sut_swprofile,' "$D/lab.csv")" -eq 2 ]
	"$CP" export --store "$D/lab.db" --whole --format json "$D/lab.json"
	"$CP" import --store "$D/copy-json.db" "$D/lab.json" >/dev/null
	"$CP" export --store "$D/copy-json.db" --whole "$D/copy-json.csv"
	cmp "$D/lab.csv" "$D/copy-json.csv"
}

@test "run: hugetlb pool counts are not the swprofile; page sizes and overcommit are" {
	ROOT=$D/pools
	cp -r "$FIX/small-box" "$ROOT"
	P=$ROOT/sys/kernel/mm/hugepages/hugepages-2048kB
	CLEARPATH_SYSROOT=$ROOT small_run --swprofile p --repeats 1
	stored=$(sql "$CLEARPATH_STORE" "SELECT fingerprint FROM swprofile")
	[[ "$stored" == *'"hugepage_overcommit":{"2MB":0}'* ]]
	[[ "$stored" != *'"hugepages"'* ]]
	# another job grows the pool and maps some of it: the same software, no --force needed
	echo 20 > "$P/nr_hugepages"
	echo 3 > "$P/free_hugepages"
	CLEARPATH_SYSROOT=$ROOT run --separate-stderr small_run --swprofile p --repeats 1
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(sql "$CLEARPATH_STORE" "SELECT fingerprint FROM swprofile")" = "$stored" ]
	# ... and each session still records the pool it saw
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(DISTINCT json_extract(environment, '$.settings.hugepages')) FROM session")" -eq 2 ]
	# allowing surplus pages changes where a hugetlb fault's page comes from: a setting
	echo 8 > "$P/nr_overcommit_hugepages"
	CLEARPATH_SYSROOT=$ROOT run --separate-stderr small_run --swprofile p --repeats 1
	refused 2 "swprofile 'p' already exists with a different fingerprint" \
		'hugepage_overcommit: {"2MB":0} -> {"2MB":8}'
}

@test "run: a swprofile stored with pool counts (older clearpath) takes today's form when all else agrees" {
	ROOT=$D/pools
	cp -r "$FIX/small-box" "$ROOT"
	CLEARPATH_SYSROOT=$ROOT small_run --swprofile p --repeats 1
	new=$(sql "$CLEARPATH_STORE" "SELECT fingerprint FROM swprofile")
	old=${new/'"hugepage_overcommit":{"2MB":0}'/'"hugepages":{"2MB":36}'}
	[ "$old" != "$new" ]
	sql_write "$CLEARPATH_STORE" "UPDATE swprofile SET fingerprint = '$old'"
	sql_write "$CLEARPATH_STORE" "UPDATE swprofile_sut SET fingerprint = '$old'"
	CLEARPATH_SYSROOT=$ROOT run --separate-stderr small_run --swprofile p --repeats 1
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(sql "$CLEARPATH_STORE" "SELECT fingerprint FROM swprofile")" = "$new" ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT fingerprint FROM swprofile_sut")" = "$new" ]
	# other page sizes are another kernel configuration, as before (on the machine class that ran it)
	sql_write "$CLEARPATH_STORE" "UPDATE swprofile_sut SET fingerprint = '${old/'{"2MB":36}'/'{"1GB":0,"2MB":36}'}'"
	CLEARPATH_SYSROOT=$ROOT run --separate-stderr small_run --swprofile p --repeats 1
	refused 2 "swprofile 'p' already exists with a different fingerprint" 'hugepages: {"1GB":0,"2MB":36} -> (absent)'
}

# A root claiming one free 1GB hugepage (vm-x86, whose CPU has pdpe1gb) makes run's preflight
# pass; the real kernel has no 1GB page free, so every mmap fails at run time.  1GB, not 2MB:
# other test suites on a shared machine reserve 2MB pages, nobody reserves 1GB ones.
failing_root() {
	local real=/sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages
	if [ -r "$real" ] && [ "$(cat "$real")" -gt 0 ]; then
		skip "this machine has a free 1GB hugepage, so the mmap would not fail"
	fi
	ROOT=$D/root
	cp -r "$FIX/vm-x86" "$ROOT"
	echo 1 > "$ROOT/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages"
	echo 1 > "$ROOT/sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages"
}

@test "run: a failing invocation is an error row and the session goes on" {
	failing_root
	CLEARPATH_SYSROOT=$ROOT run --separate-stderr "$CP" run --quiet --swprofile fx \
		--warmups 1 --repeats 3 --max-failures 0 -- mem mmap -p 1GB -s 1GB -l 1
	[[ "$stderr" == *"mmap of 1GB in 1GB pages failed"* ]]
	run sql "$CLEARPATH_STORE" "SELECT warmup, iteration, message FROM error ORDER BY id"
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[0]}" == "1|0|mmap of 1GB in 1GB pages failed"* ]]
	[[ "${lines[3]}" == "0|2|mmap of 1GB in 1GB pages failed"* ]]
	[ "$(samples)" -eq 0 ]
}

@test "run: every spelling and order of the same options is one benchmark, error rows too" {
	local spelling
	for spelling in "-f default -s 1MB -l 2" "-l 2 -s 1MB -f default" \
		"--size 1MB --nr_loops 2 --function default" "--size=1024KB -l2 -fdefault -p 4KB" \
		"-s 1048576 -k 0 --nr_loops=2 -f default --counters"; do
		# shellcheck disable=SC2086
		# --force: the identity is the question, not a hugepage pool another test changes meanwhile
		"$CP" run --quiet --force --warmups 0 --repeats 1 -- mem memset $spelling >/dev/null
	done
	run "$CP" list benchmarks --format json
	json_check 'h = [r for r in d if " :" not in r["resultclass"]]
assert len(h) == 1, d
assert h[0]["resultclass"] == "memset -f default -s 1MB -l 2" and h[0]["samples"] == 5, d
assert all(r["params"] == "-f default -s 1MB -l 2" for r in d), d'
	run "$CP" list benchmarks
	[ "$(grep -c "| mem/memset |" <<< "$output")" -eq 1 ]
	# another length is another benchmark
	"$CP" run --quiet --force --warmups 0 --repeats 1 -- mem memset -f default -s 2MB -l 2 >/dev/null
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(*) FROM benchmark")" -eq 2 ]
	# a failed invocation whose options parse belongs to the benchmark its results would have
	failing_root
	for spelling in "-p 1GB -s 1GB" "--size=1GB --page 1GB -l 1"; do
		# shellcheck disable=SC2086
		CLEARPATH_SYSROOT=$ROOT "$CP" run --quiet --force --swprofile fx --warmups 0 --repeats 1 \
			--max-failures 0 -- mem mmap $spelling 2>/dev/null
	done
	run sql "$CLEARPATH_STORE" "SELECT b.suite, b.params, count(*) FROM error e JOIN benchmark b ON b.id = e.benchmark_id GROUP BY b.id"
	[ "${#lines[@]}" -eq 1 ]
	[ "${lines[0]}" = "mem/mmap|-p 1GB -f all -s 1GB|2" ]
}

@test "an old store migrates on open: spellings merge into one benchmark, no sample is lost" {
	cp "$FIX/store-v1/results.db" "$D/old.db"
	[ "$(sql "$D/old.db" "PRAGMA user_version")" -eq 1 ]
	before=$(sql "$D/old.db" "SELECT count(*), sum(value) FROM sample")
	errors=$(sql "$D/old.db" "SELECT count(*) FROM error")
	run --separate-stderr "$CP" list benchmarks --store "$D/old.db" --format json
	[ "$status" -eq 0 ]
	json_check 'h = [r for r in d if r["suite"] == "mem/memset" and " :" not in r["resultclass"]]
assert len(h) == 1 and h[0]["samples"] == 17, d
assert h[0]["resultclass"] == "memset -f default -s 1MB -l 2", d
c = [r for r in d if " :" in r["resultclass"]]
assert len(c) == 4 and all(r["resultclass"].startswith("memset -f default -s 1MB -l 2 :") for r in c), d
# each class is its benchmark plus a metric, read from its name once
assert h[0]["metric"] == "" and h[0]["workload"] == "mem/memset", h
assert all(r["metric"] == r["resultclass"].split(" :")[1] and r["workload"] == "mem/memset" for r in c), c'
	[ "$(sql "$D/old.db" "PRAGMA user_version")" -ge 8 ]
	# benchmarks only error rows name have theirs too; what does not parse has none
	run sql "$D/old.db" "SELECT params, workload FROM benchmark WHERE id IN (SELECT benchmark_id FROM error) ORDER BY suite"
	[ "${lines[*]}" = "-s 1MB --bogus| -p 1GB -f all -s 1GB|mem/mmap" ]
	[ "$(sql "$D/old.db" "SELECT count(*), sum(value) FROM sample")" = "$before" ]
	[ "$(sql "$D/old.db" "SELECT count(*) FROM error")" = "$errors" ]
	# the plan session ran two spellings: their iterations follow each other now
	run sql "$D/old.db" "SELECT warmup, iteration FROM sample s JOIN session se ON se.id = s.session_id WHERE se.uuid LIKE '03fe7e45%' ORDER BY warmup, iteration"
	[ "${lines[*]}" = "0|0 0|1 0|2 0|3 1|0 1|1" ]
	# the raw error rows: the two mmap spellings are one benchmark, the line that does not parse stays as it was
	run sql "$D/old.db" "SELECT b.suite, b.params, count(*) FROM error e JOIN benchmark b ON b.id = e.benchmark_id GROUP BY b.id ORDER BY b.suite"
	[ "${lines[0]}" = "mem/memset|-s 1MB --bogus|1" ]
	[ "${lines[1]}" = "mem/mmap|-p 1GB -f all -s 1GB|2" ]
	# new runs of any spelling land on the migrated benchmark
	"$CP" run --quiet --force --store "$D/old.db" --warmups 0 --repeats 1 -- mem memset --nr_loops 2 -s 1MB -f default >/dev/null
	run "$CP" list benchmarks --store "$D/old.db" --format json
	json_check 'h = [r for r in d if r["suite"] == "mem/memset" and " :" not in r["resultclass"]]
assert len(h) == 1 and h[0]["samples"] == 18, d'
	run "$CP" show --store "$D/old.db" --format csv
	[ "$status" -eq 0 ]
}

@test "a store d2c8860 wrote (schema v4) migrates: every sample kept, metrics and workloads as data, its export as it was" {
	V4=$FIX/store-v4
	cp "$V4/results.db" "$D/v4.db"
	[ "$(sql "$D/v4.db" "PRAGMA user_version")" -eq 4 ]
	before=$(sql "$D/v4.db" "SELECT count(*), sum(value) FROM sample")
	errors=$(sql "$D/v4.db" "SELECT count(*) FROM error")
	# importing its own export migrates it (the store is written) and adds nothing
	run --separate-stderr "$CP" import --store "$D/v4.db" "$V4/export.csv"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(sql "$D/v4.db" "PRAGMA user_version")" -ge 8 ]
	[ "$(sql "$D/v4.db" "SELECT count(*), sum(value) FROM sample")" = "$before" ]
	[ "$(sql "$D/v4.db" "SELECT count(*) FROM error")" = "$errors" ]
	# the names that release wrote, this one writes byte for byte
	"$CP" export --store "$D/v4.db" "$D/export.csv"
	cmp "$V4/export.csv" "$D/export.csv"
	# and every view of it is the one a store that never needed migrating gives (sessions whole:
	# their environments say how profiles were sampled)
	"$CP" export --whole --store "$D/v4.db" "$D/whole.csv"
	"$CP" import --store "$D/fresh.db" "$D/whole.csv" >/dev/null
	v4_views "$D/v4.db" "$D/v4"
	v4_views "$D/fresh.db" "$D/fresh"
	for v in show profile param answer; do diff "$D/fresh.$v" "$D/v4.$v"; done
	# each class's metric and each benchmark's workload, read from the names once
	run sql "$D/v4.db" "SELECT DISTINCT b.workload || '|' || coalesce(r.metric, 'NULL') FROM resultclass r
		JOIN benchmark b ON b.id = r.benchmark_id WHERE r.name LIKE 'memset -f default -s 1MB%' OR r.name LIKE 'rate%'
		OR r.name LIKE 'clear -k 4KB -f default%' OR r.name LIKE 'mmap -f demand -s 64MB -l 2 :profile:clear_page%' ORDER BY 1"
	[ "${lines[*]}" = "mem/clear| mem/clear|combined mem/clear|then-read mem/memset| mem/memset|context-switches mem/memset|cpu-migrations mem/memset|page-faults mem/memset|task-clock mem/mmap|profile:clear_page_erms |NULL" ]
	# the exec's value, named by its plan, under each of its two commands
	[ "$(sql "$D/v4.db" "SELECT count(*) FROM resultclass WHERE metric IS NULL AND name = 'rate of echo'")" -eq 2 ]
}

@test "run: --max-failures N consecutive failures stop the session with a clear message" {
	failing_root
	CLEARPATH_SYSROOT=$ROOT run --separate-stderr "$CP" run --quiet --swprofile fx \
		--warmups 0 --repeats 6 --max-failures 2 -- mem mmap -p 1GB -s 1GB -l 1
	refused 3 "2 invocations in a row failed; stopping this session (kept, marked incomplete)"
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(*) FROM error")" -eq 2 ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT complete FROM session")" -eq 0 ]
}

@test "run: the bench command line must follow '--' and name a real workload" {
	run --separate-stderr "$CP" run --repeats 2 mem memset -s 4MB
	refused 2 "the bench command line goes after '--'"
	run --separate-stderr "$CP" run --repeats 2
	refused 2 "run needs a bench command line after '--'"
	run --separate-stderr "$CP" run -- mem nosuch -s 4MB
	refused 2 "unknown workload 'mem nosuch'"
	run --separate-stderr "$CP" run -- mem memset -f nosuch
	refused 2
	# the workload's --help is its options, exit 0 (it was exit 2, saying to use -f help), nothing run
	run --separate-stderr "$CP" run -- mem memset --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: clearpath bench mem memset [options]"* ]]
	[ -z "$stderr" ]
	[ ! -e "$CLEARPATH_STORE" ]
}

@test "run: the progress line only on a terminal" {
	run --separate-stderr "$CP" run --repeats 2 -- "${MEMSET[@]}"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	command -v script >/dev/null || skip "no script(1) to give clearpath a terminal"
	# script(1) gives clearpath a pty; it still exits 0 and stores as without one
	run script -qec "$(printf '%q ' "$CP" run --repeats 2 -- "${MEMSET[@]}")" /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *"clearpath: session 1/1  step 3/3  elapsed"* ]]
	[ "$(samples)" -eq 6 ]
}

@test "run: kill -9 mid-session keeps every committed sample, the store intact, the session incomplete" {
	"$CP" run --quiet --warmups 0 --repeats 50 -- mem memset -s 64MB -l 20 -f default \
		>"$D/out" 2>&1 3>&- &
	parent=$!
	for _ in $(seq 200); do
		sleep 0.05
		# python's sqlite3 would create the file: leave that to clearpath
		[ -e "$CLEARPATH_STORE" ] || continue
		n=$(sql "$CLEARPATH_STORE" "SELECT count(*) FROM sample" 2>/dev/null || echo 0)
		[ "$n" -ge 3 ] && break
	done
	child=$(pgrep -P "$parent")
	[ -n "$child" ]
	seen=$(samples)
	kill -9 "$child"
	wait "$parent" || rc=$?
	[ "${rc:-0}" -eq 1 ]
	grep -q "session 1 died with signal 9; what it stored is kept, marked incomplete" "$D/out"
	[ "$(sql "$CLEARPATH_STORE" "PRAGMA integrity_check")" = ok ]
	# everything seen before the kill is there, iterations without a gap, fewer than asked
	n=$(samples)
	[ "$n" -ge "$seen" ] && [ "$n" -lt 50 ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT max(iteration) + 1 FROM sample")" -eq "$n" ]
	run "$CP" list sessions --format json
	json_check 'assert len(d) == 1 and d[0]["complete"] is False and d[0]["samples"] >= 3, d'
}

@test "run: four concurrent runs into one store keep every sample" {
	for i in 1 2 3 4; do
		small_run --warmups 1 --repeats 2 >"$D/out$i" 2>&1 3>&- &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p"; done
	# 4 runs x (1 warmup + 2 repeats) x 1 result class
	[ "$(samples)" -eq 12 ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(*), sum(complete) FROM session")" = "4|4" ]
	[ "$(sql "$CLEARPATH_STORE" "SELECT count(*) FROM sut")" -eq 1 ]
}

@test "export -> import -> export is byte-identical, in CSV and in JSON" {
	small_run --warmups 1 --repeats 2 --sessions 2 >/dev/null
	"$CP" export --format csv "$D/a.csv"
	[ "$(wc -l < "$D/a.csv")" -eq 7 ]
	head -1 "$D/a.csv" | grep -qx 'sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time'
	run "$CP" import --store "$D/new.db" "$D/a.csv"
	[ "$status" -eq 0 ]
	[ "$output" = "imported 6 samples in 2 new sessions from $D/a.csv" ]
	"$CP" export --store "$D/new.db" "$D/b.csv"
	cmp "$D/a.csv" "$D/b.csv"
	"$CP" export --format json "$D/a.json"
	"$CP" export --store "$D/new.db" --format json - > "$D/b.json"
	cmp "$D/a.json" "$D/b.json"
	python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))) == 6' "$D/a.json"
	# no temporary file is left beside the exports
	[ "$(cd "$D" && echo *)" = "a.csv a.json b.csv b.json new.db r.db" ]
}

@test "import: twice adds nothing; stdin works" {
	small_run --repeats 2 >/dev/null
	"$CP" export "$D/a.csv"
	run "$CP" import --store "$D/new.db" - < "$D/a.csv"
	[ "$output" = "imported 3 samples in 1 new session from <stdin>" ]
	run "$CP" import --store "$D/new.db" "$D/a.csv"
	[ "$status" -eq 0 ]
	[ "$output" = "imported 0 samples in 0 new sessions from $D/a.csv (all were stored already)" ]
	[ "$(samples "$D/new.db")" -eq 3 ]
}

@test "import: a malformed line names line and column, exits 2 and imports nothing" {
	small_run --repeats 2 >/dev/null
	"$CP" export "$D/a.csv"
	small_run --repeats 2 --store "$D/t.db" >/dev/null
	before=$(samples "$D/t.db")
	# line 3's value (column 10) is not a number; line 2 is fine but must not be imported either
	awk -F, -v OFS=, 'NR == 3 { $10 = "fast" } { print }' "$D/a.csv" > "$D/bad.csv"
	run --separate-stderr "$CP" import --store "$D/t.db" "$D/bad.csv"
	refused 2 "bad.csv: line 3, column 10 (value): 'fast' is not a finite number" "nothing from"
	[ -z "$output" ]
	[ "$(samples "$D/t.db")" -eq "$before" ]
	# an unterminated quote is a malformed record too
	{ cat "$D/a.csv"; printf '"box,unterminated\n'; } > "$D/quote.csv"
	run --separate-stderr "$CP" import --store "$D/t.db" "$D/quote.csv"
	refused 2 "quote.csv: line 5, column"
	[ "$(samples "$D/t.db")" -eq "$before" ]
	run --separate-stderr "$CP" import --store "$D/t.db" "$D/nosuch.csv"
	refused 2 "cannot read $D/nosuch.csv"
	# a refused file leaves no new store behind, nor the directory made for it
	run --separate-stderr "$CP" import --store "$D/newdir/n.db" "$D/bad.csv"
	refused 2 "bad.csv: line 3"
	run --separate-stderr "$CP" merge --into "$D/newdir/n.db" "$D/bad.csv"
	[ "$status" -eq 2 ]
	[ ! -e "$D/newdir" ]
}

@test "import: a file that is one JSON scalar is refused as that, exit 2, no store made; JSON after blank lines is JSON" {
	for v in 42 '"x"' true null ' -3.5e2 '; do
		printf '%s\n' "$v" > "$D/scalar.json"
		run --separate-stderr "$CP" import --store "$D/new.db" "$D/scalar.json"
		refused 2 "scalar.json holds a single JSON" "not a clearpath export" "a JSON array of records"
		[[ "$stderr" != *"header says"* ]]
		run --separate-stderr "$CP" import --store "$D/new.db" - < "$D/scalar.json"
		refused 2 "<stdin> holds a single JSON"
	done
	[ ! -e "$D/new.db" ]
	small_run --repeats 2 >/dev/null
	"$CP" export --whole --format json "$D/w.json"
	run sh -c "{ printf '\n  \n'; cat \"$D/w.json\"; } | \"$CP\" import --store \"$D/new.db\" -"
	[ "$status" -eq 0 ]
	[ "$output" = "imported 3 samples in 1 new session from <stdin>" ]
}

@test "export: a failed export leaves no file; stdout errors are reported" {
	small_run --repeats 1 >/dev/null
	echo before > "$D/keep.csv"
	run --separate-stderr "$CP" export "$D/missing/x.csv"
	refused 2 "cannot create a file beside $D/missing/x.csv"
	run --separate-stderr "$CP" export "$D"
	refused 2 "export to $D failed"
	[ "$(cd "$D" && echo *)" = "keep.csv r.db" ]
	if [ -w /dev/full ]; then
		run --separate-stderr sh -c "\"$CP\" export - > /dev/full"
		refused 3 "writing the export"
	fi
	run --separate-stderr "$CP" export --format xml -
	refused 2 "unknown format 'xml' for 'export': expected csv or json"
}

@test "bad stores: each a clear message and the documented exit code" {
	# resource (3): a store that cannot be created
	run --separate-stderr small_run --store /proc/clearpath-test/r.db
	refused 3 "cannot create store directory /proc/clearpath-test"
	touch "$D/file"
	run --separate-stderr small_run --store "$D/file/r.db"
	refused 3 "cannot open store $D/file/r.db"
	# usage (2): not a clearpath store, a newer schema, none at all
	echo "hello" > "$D/text.db"
	run --separate-stderr "$CP" list sessions --store "$D/text.db"
	refused 2 "text.db is not a clearpath store: not an SQLite database"
	sql "$D/other.db" "CREATE TABLE foo (x)"
	run --separate-stderr small_run --store "$D/other.db"
	refused 2 "other.db is an SQLite database of another application, not a clearpath store"
	small_run --repeats 1 >/dev/null
	cp "$CLEARPATH_STORE" "$D/newer.db"
	sql "$D/newer.db" "PRAGMA user_version = 999"
	run --separate-stderr "$CP" export --store "$D/newer.db" -
	refused 2 "store $D/newer.db has schema v999" "upgrade clearpath"
	run --separate-stderr "$CP" list suts --store "$D/none.db"
	refused 2 "no store at $D/none.db"
	[ ! -e "$D/none.db" ]
}

@test "bad stores: clearpath's tables at schema version 0 are not 'empty': refused, exit 2, never touched" {
	small_run --repeats 1 >/dev/null
	cp "$CLEARPATH_STORE" "$D/zero.db"
	sql "$D/zero.db" "PRAGMA user_version = 0"
	sum=$(cksum <"$D/zero.db")
	"$CP" export "$D/s.csv"
	for cmd in "list sessions --store $D/zero.db" "show --store $D/zero.db" "export --store $D/zero.db -" \
		"import --store $D/zero.db $D/s.csv" "merge --into $D/zero.db $CLEARPATH_STORE" \
		"merge --into $D/m.db $D/zero.db"; do
		run --separate-stderr "$CP" $cmd
		echo "$cmd: $stderr"
		refused 2 "$D/zero.db is not a clearpath store: it holds" "tables but schema version 0" \
			"restore it from a backup"
		[[ "$stderr" != *"empty database"* && "$stderr" != *migrating* ]]
	done
	run --separate-stderr small_run --store "$D/zero.db"
	refused 2 "tables but schema version 0"
	[ "$(cksum <"$D/zero.db")" = "$sum" ]
	[ "$(sql "$D/zero.db" "PRAGMA user_version")" = 0 ]
	[ ! -e "$D/zero.db-wal" ]
}

@test "bad stores: a new store on a full disk leaves nothing behind (exit 3); a file that was there stays" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	small_run --repeats 1 >/dev/null
	"$CP" export "$D/s.csv"
	FULL=$D/full
	mkdir "$FULL"
	# 16 KB: room for the empty file, not for the schema (teardown unmounts it whatever happens)
	mount -t tmpfs -o size=16k tmpfs "$FULL"
	for cmd in "run --quiet --store $FULL/new.db -- ${MEMSET[*]}" "import --store $FULL/new.db $D/s.csv" \
		"merge --into $FULL/new.db $CLEARPATH_STORE" "run --quiet --store $FULL/dir/new.db -- ${MEMSET[*]}"; do
		run --separate-stderr "$CP" $cmd
		echo "$cmd: $stderr"
		refused 3 "database or disk is full" "the new store is not made and nothing of it is left"
		[ -z "$(ls -A "$FULL")" ]
	done
	: >"$FULL/empty.db"
	run --separate-stderr small_run --store "$FULL/empty.db"
	[ "$status" -eq 3 ]
	[ -e "$FULL/empty.db" ]
}

@test "bad stores: a store file read-only to its user is exit 3 with what to do, and stays as it was" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to another user"
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	small_run --repeats 1 >/dev/null
	# the directory is the user's (so SQLite may add its journal), the file is not; the test's own
	# directory is not open to that user, so this one lives in /tmp
	ro=$(mktemp -d /tmp/clearpath-ro.XXXXXX)
	cp "$CLEARPATH_STORE" "$ro/r.db"
	chmod 755 "$ro"
	chown 65534 "$ro"
	chmod 644 "$ro/r.db"
	sum=$(cksum <"$ro/r.db")
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$(realpath "$CP")" run --quiet --warmups 0 --repeats 1 --store "$ro/r.db" -- mem memset -f default -s 4KB
	after=$(cksum <"$ro/r.db")
	rm -rf "$ro"
	refused 3 "attempt to write a readonly database" "read-only to you" "nothing was written"
	[ "$after" = "$sum" ]
}

@test "bad stores: a corrupt database is a resource error, never a crash" {
	small_run --repeats 2 --sessions 2 >/dev/null
	cp "$CLEARPATH_STORE" "$D/corrupt.db"
	# overwrite pages in the middle of the file (past the header page)
	python3 -c 'import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(8192); f.write(b"\xff" * 12288)' "$D/corrupt.db"
	run --separate-stderr "$CP" list sessions --store "$D/corrupt.db"
	refused 3 "database disk image is malformed" "damaged"
	run --separate-stderr small_run --store "$D/corrupt.db"
	refused 3 "malformed"
	# an export that fails midway leaves the file it would replace as it was, and no temporary
	echo before > "$D/keep.csv"
	run --separate-stderr "$CP" export --store "$D/corrupt.db" "$D/keep.csv"
	refused 3 "nothing was exported to $D/keep.csv: it is unchanged"
	# the store's error is said once, not again as a failed write or as "export to ... failed"
	[ "$(grep -c malformed <<<"$stderr")" -eq 1 ]
	[[ "$stderr" != *"writing the export"* && "$stderr" != *"export to"* ]]
	[ "$(cat "$D/keep.csv")" = before ]
	[ "$(cd "$D" && echo *)" = "corrupt.db keep.csv r.db" ]
}

@test "merge: overlapping stores give no duplicate sessions; merging again adds nothing" {
	small_run --repeats 2 --sessions 2 --store "$D/a.db" >/dev/null
	"$CP" export --store "$D/a.db" "$D/a.csv"
	# b holds a's two sessions (imported) and one of its own
	"$CP" import --store "$D/b.db" "$D/a.csv" >/dev/null
	small_run --repeats 2 --store "$D/b.db" >/dev/null
	run "$CP" merge --into "$D/m.db" "$D/a.db" "sqlite://$D/b.db"
	[ "$status" -eq 0 ]
	[ "$output" = "$D/a.db: 2 sessions added"$'\n'"sqlite://$D/b.db: 1 session added" ]
	[ "$(sql "$D/m.db" "SELECT count(*), count(DISTINCT uuid) FROM session")" = "3|3" ]
	[ "$(samples "$D/m.db")" -eq 9 ]
	run "$CP" merge --into "$D/m.db" "$D/b.db"
	[ "$output" = "$D/b.db: 0 sessions added" ]
	[ "$(samples "$D/m.db")" -eq 9 ]
	run --separate-stderr "$CP" merge --into "$D/m.db" "$D/nosuch.db"
	refused 2 "no store at $D/nosuch.db"
	[ ! -e "$D/nosuch.db" ]
	run --separate-stderr "$CP" merge --into "$D/m.db" "$D/m.db"
	refused 2 "cannot merge $D/m.db into itself"
	run --separate-stderr "$CP" merge "$D/a.db"
	refused 2 "'merge' needs --into DST"
}

@test "list: each kind as a table and as JSON" {
	small_run --warmups 1 --repeats 2 --sut box --swprofile base >/dev/null
	run "$CP" list suts
	[[ "${lines[1]}" =~ ^\|\ SUT\ +\|\ Arch\ +\|\ Cores\ \|\ Memory\ \(bytes\)\ \|\ Sessions\ \|$ ]]
	[[ "${lines[3]}" =~ ^\|\ box\ .*\|\ +1\ \|$ ]]
	run "$CP" list suts --format json
	json_check 'assert [s["name"] for s in d] == ["box"] and d[0]["sessions"] == 1 and "arch" in d[0]["fingerprint"], d'
	run "$CP" list swprofiles
	[[ "${lines[1]}" == "| Swprofile | Kernel "* ]]
	[[ "${lines[3]}" =~ ^\|\ base\ .*\ 1\ \|$ ]]
	run "$CP" list swprofiles --format json
	json_check 'import os; assert d[0]["name"] == "base" and d[0]["fingerprint"]["kernel_release"] == os.uname().release, d'
	run "$CP" list benchmarks
	[ "${lines[3]}" = "| mem/memset | memset -f default -s 4MB -l 2 | bytes/sec | yes              |       3 |" ]
	run "$CP" list benchmarks --format json
	json_check 'assert d == [{"suite": "mem/memset", "params": "-f default -s 4MB -l 2", "key": "chunk=0 page=4KB function=default size=4MB nr_loops=2 cycles=false", "workload": "mem/memset", "resultclass": "memset -f default -s 4MB -l 2", "metric": "", "unit": "bytes/sec", "higher_is_better": True, "samples": 3}], d'
	run "$CP" list sessions
	[[ "${lines[3]}" =~ ^\|\ [0-9a-f-]{36}\ \|\ box\ +\|\ base\ +\|\ .*\|\ yes\ +\|\ +3\ \|\ +0\ \|$ ]]
	run "$CP" list sessions --format json
	json_check 'assert len(d) == 1 and d[0]["complete"] is True and d[0]["samples"] == 3 and d[0]["errors"] == 0 and d[0]["boot_id"], d'
	run --separate-stderr "$CP" list widgets
	refused 2 "cannot list 'widgets': expected suts, swprofiles, benchmarks or sessions"
	run --separate-stderr "$CP" list
	refused 2 "expected suts, swprofiles, benchmarks or sessions"
	run --separate-stderr "$CP" list suts --format xml
	refused 2 "expected table or json"
}
