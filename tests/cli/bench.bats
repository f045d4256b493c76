#!/usr/bin/env bats
# bench.bats: the real binary's `bench mem memset|memcpy|mmap|all` outputs, exit codes and messages, on small sizes.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	CP=${CLEARPATH:-./clearpath}
	FIX="$BATS_TEST_DIRNAME/../fixtures"
	HP2=/sys/kernel/mm/hugepages/hugepages-2048kB
	unset CLEARPATH_SYSROOT
}

# The hugepage test records the pool it changed; put it back whatever happened.
teardown() {
	if [ -n "${HP_PREV:-}" ]; then
		echo "$HP_PREV" > "$HP2/nr_hugepages"
	fi
}

# A perf rate line: " %14lf <unit>/sec", as bench/mem-functions.c prints it.
RATE='^ [ 0-9]{5,}\.[0-9]{6} (GB|MB|KB|bytes)/sec$'

@test "memset: perf's default layout, line by line" {
	run --separate-stderr "$CP" bench mem memset -s 1MB -f default -l 2
	[ "$status" -eq 0 ]
	mapfile -t L <<< "$output"
	[ "${#L[@]}" -eq 5 ]
	[ "${L[0]}" = "# Running 'mem/memset' benchmark:" ]
	[ "${L[1]}" = "# function 'default' (Default memset() provided by glibc)" ]
	[ "${L[2]}" = "# Copying 1MB bytes ..." ]
	[ "${L[3]}" = "" ]
	[[ "${L[4]}" =~ $RATE ]]
	[ -z "$stderr" ]
}

@test "mmap: perf's layout for each function; the THP note on stderr" {
	run --separate-stderr "$CP" bench mem mmap -s 4MB
	[ "$status" -eq 0 ]
	mapfile -t L <<< "$output"
	[ "${L[0]}" = "# Running 'mem/mmap' benchmark:" ]
	[ "${L[1]}" = "# function 'demand' (Demand loaded mmap())" ]
	[ "${L[2]}" = "# Copying 4MB bytes ..." ]
	[ "${L[3]}" = "" ]
	[[ "${L[4]}" =~ $RATE ]]
	[ "${L[5]}" = "# function 'populate' (Eagerly populated mmap())" ]
	[[ "${L[8]}" =~ $RATE ]]
	# a `tail -1` parser takes the last rate, not a note (before, the THP line came last)
	[ "${#L[@]}" -eq 9 ]
	mapfile -t E <<< "$stderr"
	[ "${#E[@]}" -eq 2 ]
	[[ "${E[0]}" =~ ^"# THP: system setting '"(always|madvise|never|unknown)"', no madvise"$ ]]
	[ "${E[1]}" = "${E[0]}" ]
	# the note stays in JSON
	run --separate-stderr "$CP" bench --format json mem mmap -s 4MB -f demand
	[ "$status" -eq 0 ]
	json_check 'assert d[0]["note"].startswith("THP: system setting "), d'
}

@test "simple format: the function line, then bytes/sec as a plain number" {
	run --separate-stderr "$CP" bench --format simple mem memset -s 1MB -f default,c-loop
	[ "$status" -eq 0 ]
	mapfile -t L <<< "$output"
	[ "${#L[@]}" -eq 4 ]
	[ "${L[0]}" = "# function 'default' (Default memset() provided by glibc)" ]
	[[ "${L[1]}" =~ ^[0-9]+\.[0-9]{6}$ ]]
	[[ "${L[2]}" == "# function 'c-loop' ("* ]]
	[[ "${L[3]}" =~ ^[0-9]+\.[0-9]{6}$ ]]
	# --format may also come last, as --format=F
	run --separate-stderr "$CP" bench mem mmap -s 1MB -f demand --format=simple
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# function 'demand' (Demand loaded mmap())" ]
	[[ "${lines[1]}" =~ ^[0-9]+\.[0-9]{6}$ ]]
}

@test "json: memset objects carry every parameter and the measured numbers" {
	run --separate-stderr "$CP" bench --format json mem memset -s 1MB -f default,c-loop -l 2
	[ "$status" -eq 0 ]
	json_check '
assert [o["function"] for o in d] == ["default", "c-loop"], d
for o in d:
    assert o["workload"] == "mem/memset"
    assert o["params"] == {"size": 1048576, "page": 4096, "nr_loops": 2, "cycles": False, "chunk": 0}, o["params"]
    assert o["unit"] == "bytes/sec"
    assert o["bytes_total"] == 2 * 1048576 and o["loops"] == 2
    for k in ("elapsed_ns", "cpu_ns", "minor_faults", "major_faults"):
        assert isinstance(o[k], int) and o[k] >= 0, k
    assert o["elapsed_ns"] > 0 and o["value"] > 0
    # the CPU time the thread ran in the timed region: at most its length (read just outside it: +1ms)
    assert 0 < o["cpu_ns"] <= o["elapsed_ns"] + 1000000, o
    # the value is bytes over time, not a rescaled GB/sec figure
    assert abs(o["value"] - o["bytes_total"] * 1e9 / o["elapsed_ns"]) <= 1e-6 * o["value"]
'
}

@test "json: mmap with -t 2 -r 42 records threads, seed and spread" {
	run --separate-stderr "$CP" bench --format json mem mmap -s 2MB -t 2 -r 42 -f demand
	[ "$status" -eq 0 ]
	json_check '
assert len(d) == 1
o = d[0]
assert o["workload"] == "mem/mmap" and o["function"] == "demand"
assert o["params"] == {"size": 2097152, "page": 4096, "nr_loops": 1, "cycles": False,
                       "randomize": 42, "threads": 2, "thp": "system"}, o["params"]
assert o["threads"] == 2 and o["bytes_total"] == 2097152
assert o["minor_faults"] >= 1, o
assert "thread_rel_stddev_pct" in o
'
}

@test "json: -f all+ lists the functions this CPU lacks as skipped, with the reason" {
	run --separate-stderr "$CP" bench --format json mem memset -s 64KB -f all+
	[ "$status" -eq 0 ]
	json_check '
names = [o["function"] for o in d]
assert names[0] == "default" and "arm64-stp" in names and "x86-64-stosb" in names, names
for o in d:
    if "skipped" in o:
        assert "value" not in o and o["skipped"], o
    else:
        assert o["value"] > 0, o
other = "arm64" if sys.argv[1] == "x86_64" else "x86-64"
skipped = {o["function"]: o["skipped"] for o in d if "skipped" in o}
assert all(skipped[n] == other + " only" for n in names if n.startswith(other + "-")), skipped
assert not any(v.endswith(" only") and not v.startswith(other) for v in skipped.values()), skipped
' "$(cp_machine)"
}

@test "-f help: perf's lines for perf's functions, then clearpath's under -f all+" {
	run --separate-stderr "$CP" bench mem memset -f help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# Running 'mem/memset' benchmark:" ]
	[ "${lines[1]}" = "Available functions:" ]
	[ "${lines[2]}" = $'\tdefault ... Default memset() provided by glibc' ]
	local n=3 perf=1
	if [ "$(cp_machine)" = x86_64 ]; then
		[ "${lines[3]}" = $'\tx86-64-unrolled ... unrolled memset() in arch/x86/lib/memset_64.S' ]
		[ "${lines[4]}" = $'\tx86-64-stosq ... movsq-based memset() in arch/x86/lib/memset_64.S' ]
		[ "${lines[5]}" = $'\tx86-64-stosb ... movsb-based memset() in arch/x86/lib/memset_64.S' ]
		n=6 perf=4
	fi
	[ "${lines[$n]}" = "Also with -f all+ (clearpath's; -f all runs perf's above):" ]
	for f in c-loop x86-64-movnti x86-64-nt-avx2 x86-64-nt-avx512 x86-64-clzero arm64-dc-zva arm64-stnp \
		 arm64-stp arm64-mops arm64-mops-nt; do
		[[ "$output" == *$'\t'"$f ... "* ]] || { echo "missing $f"; return 1; }
	done
	[ "${#lines[@]}" -eq 17 ]
	# perf's lines are perf's: nothing appended to them
	[ "$(head -n $((perf + 2)) <<< "$output" | grep -c '\[')" -eq 0 ]
	# a negated command would not fail a bats test: compare a count instead
	case $(cp_machine) in
	x86_64)
		[ "$(grep -c '\[cannot run here: arm64 only\]' <<< "$output")" -eq 5 ]
		# what the CPU offers rep stos is a note, on stderr
		[ -z "$(grep -vE "^# x86-64-stos[qb]: " <<< "$stderr")" ] ;;
	aarch64)
		[ "$(grep -c '\[cannot run here: x86-64 only\]' <<< "$output")" -eq 7 ]
		[ "$(grep -cE 'arm64-(dc-zva|stnp|stp) .*cannot run' <<< "$output")" -eq 0 ] ;;
	*) false ;;
	esac
	run --separate-stderr "$CP" bench mem mmap -f help
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[1]}" = "Available functions:" ]
	[ "${lines[2]}" = $'\tdemand ... Demand loaded mmap()' ]
	[ "${lines[3]}" = $'\tpopulate ... Eagerly populated mmap()' ]
	# --format simple has no "# Running" line, as perf's
	run --separate-stderr "$CP" bench --format simple mem mmap -f help
	[ "${lines[0]}" = "Available functions:" ]
}

@test "-f help answers in JSON under --format json, the same functions as the text" {
	run --separate-stderr "$CP" bench mem memset -f help
	[ "$status" -eq 0 ]
	text=$output
	for args in "--format json mem memset -f help" "mem memset --format=json -f help" "mem memset -f h --format json"; do
		run --separate-stderr "$CP" bench $args
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		# every function once, as the text lists it, with runs_here and why_not agreeing
		json_check '
assert isinstance(d, list) and len(d) == 14, len(d)
for o in d:
    assert o["workload"] == "mem/memset", o
    assert set(o) <= {"workload", "function", "description", "perf", "runs_here", "why_not", "note"}, o
    assert o["runs_here"] == ("why_not" not in o), o
# perf'"'"'s first: the text lists them so
assert [o["perf"] for o in d] == sorted((o["perf"] for o in d), reverse=True), d
print("\n".join("\t%s ... %s%s" % (o["function"], o["description"],
      " [cannot run here: %s]" % o["why_not"] if "why_not" in o else "") for o in d))' >"$BATS_TEST_TMPDIR/from-json"
		diff -u <(grep $'^\t' <<< "$text") "$BATS_TEST_TMPDIR/from-json"
	done
	run --separate-stderr "$CP" bench --format json mem mmap -f help
	[ "$status" -eq 0 ]
	json_check 'assert [o["function"] for o in d] == ["demand", "populate"], d
assert all(o["runs_here"] and o["perf"] for o in d), d'
}

@test "-f all+ skips what this CPU lacks, naming the reason on stderr; stdout keeps perf's shape" {
	local lacked other
	case $(cp_machine) in
	x86_64) lacked="arm64-stp' (plain stp pairs, 64 bytes per loop)" other=arm64 ;;
	aarch64) lacked="x86-64-stosb' (movsb-based memset() in arch/x86/lib/memset_64.S)" other=x86-64 ;;
	*) skip "expects the x86-64 or the arm64 table" ;;
	esac
	run --separate-stderr "$CP" bench mem memset -s 64KB -f all+
	[ "$status" -eq 0 ]
	grep -qxF "# function '$lacked skipped: $other only" <<< "$stderr"
	# every reason is the other architecture or a named CPU feature
	[ -z "$(grep ' skipped: ' <<< "$stderr" | grep -vE " skipped: ($other only|needs .+)\$")" ]
	# stdout is perf's: every function block has its "Copying" line and a rate, nothing else
	[ "$(grep -c skipped <<< "$output")" -eq 0 ]
	[ "$(grep -c "^# function '" <<< "$output")" -eq "$(grep -cE "$RATE" <<< "$output")" ]
	[ "$(grep -c "^# function '" <<< "$output")" -eq "$(grep -c '^# Copying ' <<< "$output")" ]
	[ "$(grep -cE "$RATE" <<< "$output")" -ge 3 ]
	# --format=simple: one number per line on stdout, the skipped functions on stderr
	run --separate-stderr "$CP" bench --format=simple mem memset -s 64KB -f all+
	[ "$status" -eq 0 ]
	[ -z "$(grep -vE '^[0-9]+\.[0-9]+$' <<< "$output" | grep -v "^# function '")" ]
	grep -qF "# function '$lacked skipped: $other only" <<< "$stderr"
}

# perf's -f all per architecture (bench/mem-functions.c and the x86-64 asm-def headers of perf 6.1).
perf_functions() {
	case "$1:$(cp_machine)" in
	memset:x86_64) echo "default x86-64-unrolled x86-64-stosq x86-64-stosb" ;;
	memcpy:x86_64) echo "default x86-64-unrolled x86-64-movsq x86-64-movsb" ;;
	mmap:*) echo "demand populate" ;;
	*) echo "default" ;;
	esac
}

@test "-f all is perf's set in perf's order, nothing on stdout but perf's lines: a last-line or by-name parser reads perf's functions" {
	for w in memset memcpy mmap; do
		run --separate-stderr "$CP" bench mem $w -s 256KB -f all
		[ "$status" -eq 0 ] || { echo "$w: $stderr"; return 1; }
		names=$(sed -n "s/^# function '\([^']*\)' .*/\1/p" <<< "$output" | tr '\n' ' ')
		[ "$names" = "$(perf_functions $w) " ] || { echo "$w: $names"; return 1; }
		# perf's shapes only: Running, function, Copying, blank, rate
		[ -z "$(grep -vE "^(# Running 'mem/$w' benchmark:|# function '.*' \(.*\)|# Copying 256KB bytes \.\.\.|)\$" <<< "$output" | grep -vE "$RATE")" ]
		# the last line is the last function's rate (PTS takes it)
		[[ "${lines[-1]}" =~ $RATE ]]
		# (bats' lines leave out the blank one)
		[[ "${lines[-3]}" == "# function '$(perf_functions $w | awk '{print $NF}')' ("* ]]
		# -f all is the default, as perf's
		run --separate-stderr "$CP" bench mem $w -s 256KB
		[ "$(sed -n "s/^# function '\([^']*\)' .*/\1/p" <<< "$output" | tr '\n' ' ')" = "$(perf_functions $w) " ]
	done
	# JSON keys by function as lkp keys by op.function: the same names, no others
	run --separate-stderr "$CP" bench --format json mem memcpy -s 256KB -f all
	json_check 'assert [o["function"] for o in d] == sys.argv[1].split(), d' "$(perf_functions memcpy)"
}

@test "# Copying echoes the size as typed; the store keeps it normalised" {
	run --separate-stderr "$CP" bench mem memset -s 64kb -f default
	[ "$status" -eq 0 ]
	[ "${lines[2]}" = "# Copying 64kb bytes ..." ]
	run --separate-stderr "$CP" bench mem memcpy --size=65536 -f default
	[ "${lines[2]}" = "# Copying 65536 bytes ..." ]
	run --separate-stderr "$CP" bench mem mmap -s64KiB -f demand
	[ "${lines[2]}" = "# Copying 64KiB bytes ..." ]
	# no -s: perf's default, as perf spells it
	run --separate-stderr "$CP" bench mem memset -f default
	[ "${lines[2]}" = "# Copying 1MB bytes ..." ]
	local store="$BATS_TEST_TMPDIR/r.db"
	run --separate-stderr "$CP" run --quiet --store "$store" --warmups 0 --repeats 1 -- mem memset -s 64kb -f default
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	run --separate-stderr "$CP" list --store "$store" benchmarks
	[ "$status" -eq 0 ]
	[[ "$output" == *"-f default -s 64KB"* ]] || { echo "$output"; return 1; }
	[[ "$output" != *"64kb"* ]]
}

@test "perf's common options: bench -f|--format default|simple, bench -r|--repeat N" {
	for fmt in "-f simple" "-fsimple" "--format simple" "--format=simple"; do
		run --separate-stderr "$CP" bench $fmt mem memset -s 1MB
		[ "$status" -eq 0 ] || { echo "$fmt: $stderr"; return 1; }
		# a function line and a number per function of perf's set (x86-64: 4, arm64: 1)
		[ "${#lines[@]}" -eq $((2 * $(perf_functions memset | wc -w))) ]
		[ "${lines[0]}" = "# function 'default' (Default memset() provided by glibc)" ]
		[[ "${lines[1]}" =~ ^[0-9]+\.[0-9]{6}$ ]]
	done
	# -f before the collection is the format; after the workload, the function
	run --separate-stderr "$CP" bench -f default mem memset -s 64KB -f default
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# Running 'mem/memset' benchmark:" ]
	[ "${#lines[@]}" -eq 4 ]
	# -r N is accepted as perf accepts it, and changes nothing: one run, as perf's mem benchmarks
	for rep in "-r 3" "-r3" "--repeat 3" "--repeat=3"; do
		run --separate-stderr "$CP" bench $rep mem memset -s 64KB -f default
		[ "$status" -eq 0 ] || { echo "$rep: $stderr"; return 1; }
		[ "$(grep -cE "$RATE" <<< "$output")" -eq 1 ]
		[[ "$stderr" == "# -r/--repeat 3: the mem benchmarks run once, as perf's do; 'clearpath run --repeats 3"* ]]
	done
	run --separate-stderr "$CP" bench -r 3 -f simple mem memcpy -s 64KB -f default
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	run --separate-stderr "$CP" bench -r 0 mem memset
	refused 2 "invalid value '0' for -r/--repeat: expected a positive whole number"
	run --separate-stderr "$CP" bench -r x mem memset
	refused 2 "invalid value 'x' for -r/--repeat"
	run --separate-stderr "$CP" bench -f
	refused 2 "-f needs a value"
	run --separate-stderr "$CP" bench -f xml mem memset
	refused 2 "unknown output format 'xml'"
	run --separate-stderr "$CP" bench -x mem memset
	refused 2 "'-x' is not an option of 'bench' before the collection" "-f/--format default|simple"
	# -- ends them, as in perf
	run --separate-stderr "$CP" bench -f simple -- mem memset -s 64KB -f default
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	# the workload's own -r stays its own: mmap's seed
	run --separate-stderr "$CP" bench -r 2 --format json mem mmap -r 42 -s 64KB -f demand
	[ "$status" -eq 0 ]
	json_check 'assert d[0]["params"]["randomize"] == 42, d'
}

@test "bench mem all: memcpy, memset, mmap in perf's order, what is skipped on stderr" {
	run --separate-stderr "$CP" bench mem all -s 8MB
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	# perf's run_collection(): "# Running c/w benchmark...", the benchmark without its own header, a blank line
	[ "$(grep '^# Running' <<< "$output" | tr '\n' '|')" = "# Running mem/memcpy benchmark...|# Running mem/memset benchmark...|# Running mem/mmap benchmark...|" ]
	[ "$(grep -c "^# Running '" <<< "$output")" -eq 0 ]
	[ "$(grep -c '^# Copying 8MB bytes ...$' <<< "$output")" -eq "$(grep -c "^# function '" <<< "$output")" ]
	[ "$(grep -cE "$RATE" <<< "$output")" -eq $(( $(perf_functions memcpy | wc -w) + $(perf_functions memset | wc -w) + 2 )) ]
	[ "${lines[-1]}" != "" ]
	[[ "$output" == *$'\n\n# Running mem/memset benchmark...\n'* ]]
	grep -qxF "# skipping mem/find_bit: perf's, but clearpath has no find_bit benchmark" <<< "$stderr"
	grep -qxF "# skipping mem/clear: clearpath's own, not perf's; run it as 'bench mem clear'" <<< "$stderr"
	# one JSON array for the whole collection
	run --separate-stderr "$CP" bench --format json mem all -s 256KB -f all
	[ "$status" -eq 0 ]
	json_check 'assert [o["workload"] for o in d if o["function"] == "default"] == ["mem/memcpy", "mem/memset"], d
assert [o["function"] for o in d if o["workload"] == "mem/mmap"] == ["demand", "populate"], d'
	# every command line is parsed before anything runs: an option one workload lacks stops all of them
	run --separate-stderr "$CP" bench mem all -s 256KB -t 2
	refused 2 "-t is not an option of 'bench mem memcpy'"
	run --separate-stderr "$CP" bench mem all -s 256KB -k 4KB
	refused 2 "-k is not an option of 'bench mem mmap'"
	run --separate-stderr "$CP" bench nosuch all
	refused 2 "'bench nosuch all': no collection 'nosuch'"
}

@test "bench mem memcpy -s 8MB -f all: perf's functions, perf's lines; memcpy's own -k and errors" {
	run --separate-stderr "$CP" bench mem memcpy -s 8MB -f all
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "${lines[0]}" = "# Running 'mem/memcpy' benchmark:" ]
	[ "${lines[1]}" = "# function 'default' (Default memcpy() provided by glibc)" ]
	[ "${lines[2]}" = "# Copying 8MB bytes ..." ]
	[ "$(grep -cE "$RATE" <<< "$output")" -eq "$(perf_functions memcpy | wc -w)" ]
	[ -z "$stderr" ]
	run --separate-stderr "$CP" bench mem memcpy -s 64KB -k 4KB -l 2 -f default,c-loop
	[ "$status" -eq 0 ]
	[ "$(grep -cE "$RATE" <<< "$output")" -eq 2 ]
	run --separate-stderr "$CP" bench mem memcpy -s 64KB -k 1MB
	refused 2 "-k/--chunk (1048576 bytes) is larger than -s/--size (65536 bytes)"
	run --separate-stderr "$CP" bench mem memcpy -f x86-64-stosb
	refused 2 "unknown function 'x86-64-stosb' for 'bench mem memcpy'" "'-f all+' every one"
	# the study's counterparts run under all+ (and by name), copying: JSON has them
	run --separate-stderr "$CP" bench --format json mem memcpy -s 64KB -f all+
	[ "$status" -eq 0 ]
	json_check '
names = [o["function"] for o in d]
assert names[:4 if sys.argv[1] == "x86_64" else 1] == sys.argv[2].split(), names
assert "c-loop" in names and "arm64-stnp" in names and "x86-64-nt-avx2" in names, names
assert all(o["params"] == {"chunk": 0, "page": 4096, "size": 65536, "nr_loops": 1, "cycles": False} for o in d), d
' "$(cp_machine)" "$(perf_functions memcpy)"
}

@test "mem memcpy is stored, compared and planned like memset" {
	local store="$BATS_TEST_TMPDIR/r.db"
	for i in 1 2; do
		run --separate-stderr "$CP" run --quiet --store "$store" --warmups 0 --repeats 2 -- mem memcpy -s 64KB -f default,c-loop
		[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	done
	# one benchmark per function, -f at its place in perf's order, as memset's
	run --separate-stderr "$CP" list --store "$store" benchmarks
	[[ "$output" == *"mem/memcpy"*"memcpy -f c-loop -s 64KB"* ]]
	[[ "$output" == *"memcpy -f default -s 64KB"* ]]
	# the functions as columns against libc's, paired within the sessions
	run --separate-stderr "$CP" show --store "$store" --columns param:f --base default --benchmark mem/memcpy --format json
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" == *'"c-loop"'* && "$output" == *'"paired"'* ]] || { echo "$output"; return 1; }
	printf 'name: m\nbenchmarks:\n  - mem memcpy -f all+ -s 64KB -k 4KB\n  - bench: mem memcpy\n    args: {f: default, s: 1MB}\n    matrix: {k: [4KB, 64KB]}\n' >"$BATS_TEST_TMPDIR/m.yaml"
	run --separate-stderr "$CP" plan show "$BATS_TEST_TMPDIR/m.yaml"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" == *"mem memcpy -k 4KB -f all+ -s 64KB"* ]]
	[[ "$output" == *"mem memcpy -k 64KB -f default -s 1MB"* ]]
	printf 'name: m\nbenchmarks:\n  - mem memcpy -f x86-64-stosb\n' >"$BATS_TEST_TMPDIR/bad.yaml"
	run --separate-stderr "$CP" plan validate "$BATS_TEST_TMPDIR/bad.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"'x86-64-stosb' is not a function of 'bench mem memcpy'"* ]]
}

@test "--help: every option's description stands apart from its name" {
	for w in memset memcpy mmap clear; do
		run --separate-stderr "$CP" bench mem $w --help
		[ "$status" -eq 0 ]
		# option lines: the name column, then at least two spaces, then the description
		[ -z "$(grep -E '^ +-' <<< "$output" | grep -vE '^    (-[a-z], |    )--[a-z_-]+( <[^>]+>)? {2,}[^ ]')" ] || {
			grep -E '^ +-' <<< "$output"; return 1; }
	done
	[[ "$output" == *"--format <default|simple|json>  output format"* ]]
}

@test "usage errors exit 2 with a message on stderr" {
	run --separate-stderr "$CP" bench mem memset -x
	refused 2 "-x is not an option of 'bench mem memset'" "--help"
	# an option given last without its value says so in plain words
	run --separate-stderr "$CP" bench mem memset -s
	refused 2 "clearpath: -s of 'bench mem memset' needs a value" "see 'clearpath bench mem memset --help'"
	run --separate-stderr "$CP" bench mem memset --size
	refused 2 "clearpath: --size of 'bench mem memset' needs a value"
	run --separate-stderr "$CP" bench mem memset -s 1G
	refused 2 "invalid size '1G' for -s/--size" "4096, 4KB, 2MB, 1GB, 1TB" "KiB/MiB/GiB/TiB"
	run --separate-stderr "$CP" bench mem memset -s 1.5GB
	refused 2 "invalid size '1.5GB'"
	run --separate-stderr "$CP" bench mem memset -s 8589934592GB
	refused 2 "too large"
	run --separate-stderr "$CP" bench mem memset -s 0
	refused 2 "-s/--size must be greater than zero"
	run --separate-stderr "$CP" bench mem memset -s 1MB -k 2MB
	refused 2 "-k/--chunk" "larger than -s/--size"
	run --separate-stderr "$CP" bench mem memset -f nosuch
	refused 2 "unknown function 'nosuch'" "'-f help' lists the functions; '-f all' runs perf's, '-f all+' every one"
	run --separate-stderr "$CP" bench mem nosuch
	refused 2 "unknown workload 'mem nosuch'" "bench --list"
	run --separate-stderr "$CP" bench --format xml mem memset
	refused 2 "unknown output format 'xml': expected default, simple or json"
	run --separate-stderr "$CP" bench mem memset --format
	refused 2 "--format needs a value"
	run --separate-stderr "$CP" bench --format json mem memset -s 4Kb
	refused 2 "invalid size '4Kb'"
	run --separate-stderr "$CP" bench mem mmap -t 0
	refused 2 "-t/--threads must be between 1 and 1024"
	run --separate-stderr "$CP" nosuch
	refused 2 "unknown command 'nosuch'"
}

@test "bench without a workload lists them and exits 2; --list exits 0" {
	run --separate-stderr "$CP" bench
	[ "$status" -eq 2 ]
	[[ "$output" == *"mem memset"* && "$output" == *"mem mmap"* ]]
	run --separate-stderr "$CP" bench --list
	[ "$status" -eq 0 ]
	[[ "$output" == *"mem mmap"* ]]
	# a collection's help is the list too ("unknown workload 'mem --help'" before)
	for cmd in "bench mem --help" "help bench mem"; do
		run --separate-stderr "$CP" $cmd
		[ "$status" -eq 0 ]
		[[ "$output" == *"mem mmap"* ]]
	done
	# options before the workload: say the workload is missing, not that "mem -s" is unknown
	run --separate-stderr "$CP" bench mem -s 8KB
	refused 2 "'bench mem' needs a workload before its options, e.g. 'bench mem memset -s'"
}

@test "--thp applies to 4KB pages only" {
	run --separate-stderr "$CP" bench mem mmap --thp always -p 2MB -s 2MB
	refused 2 "--thp always applies to -p 4KB only"
	run --separate-stderr "$CP" bench mem mmap --thp sometimes
	refused 2 "expected one of system, always, never"
	run --separate-stderr "$CP" bench mem mmap --thp never -s 1MB -f demand
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"# THP: MADV_NOHUGEPAGE (system setting '"* ]]
}

@test "a size above MemAvailable exits 3 before allocating" {
	run --separate-stderr "$CP" bench mem memset -s 1TB -f default
	refused 3 "this run needs 1TB of memory but only" "MemAvailable" "hint: use a smaller -s"
	run --separate-stderr "$CP" bench mem mmap -s 512GB -t 4
	refused 3 "this run needs 2TB of memory"
	CLEARPATH_SYSROOT="$FIX/small-box" run --separate-stderr "$CP" bench mem memset -s 64MB
	refused 3 "this run needs 64MB of memory but only 96MB is available"
}

@test "2MB pages not reserved: exit 3 with the exact sysfs command" {
	CLEARPATH_SYSROOT="$FIX/vm-x86" run --separate-stderr "$CP" bench mem mmap -p 2MB -s 8MB
	refused 3 "needs 4 free 2MB hugetlb pages, but 0 of 0 are free" \
		"echo 4 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages" "hugepagesz=2M hugepages=4"
	CLEARPATH_SYSROOT="$FIX/small-box" run --separate-stderr "$CP" bench mem memset -p 2MB -s 4MB
	refused 3 "but 1 of 4 are free" "echo 5 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
}

@test "1GB pages: not reserved, not in this kernel, not on this CPU: exit 3" {
	CLEARPATH_SYSROOT="$FIX/vm-x86" run --separate-stderr "$CP" bench mem mmap -p 1GB -s 2GB
	refused 3 "needs 2 free 1GB hugetlb pages" "default_hugepagesz=1G hugepagesz=1G hugepages=2"
	CLEARPATH_SYSROOT="$FIX/old-arm64" run --separate-stderr "$CP" bench mem mmap -p 1GB -s 1GB
	refused 3 "1GB hugetlb pages are not offered by this kernel" "hugepagesz=1G hugepages=N"
	CLEARPATH_SYSROOT="$FIX/small-box" run --separate-stderr "$CP" bench mem mmap -p 1GB -s 1GB
	refused 3 "this CPU lacks the pdpe1gb flag" "use -p 2MB"
}

@test "a function this CPU lacks, named explicitly, exits 3" {
	local lacked other
	case $(cp_machine) in
	x86_64) lacked=arm64-stp other=arm64 ;;
	aarch64) lacked=x86-64-stosb other=x86-64 ;;
	*) skip "expects the x86-64 or the arm64 table" ;;
	esac
	run --separate-stderr "$CP" bench mem memset -s 64KB -f $lacked
	refused 3 "function '$lacked' cannot run on this machine: $other only" "'-f all+' runs what this machine can"
	if [ $other = arm64 ] && "$CP" bench mem memset -f help | grep -q 'x86-64-nt-avx512 .*cannot run here'; then
		run --separate-stderr "$CP" bench mem memset -s 64KB -f default,x86-64-nt-avx512
		refused 3 "function 'x86-64-nt-avx512' cannot run on this machine: needs AVX-512F"
	fi
}

@test "-c reports cycles/byte, or exits 3 where the cycle counter cannot open" {
	# No outside tool decides which: either way the answer must be whole and honest.
	run --separate-stderr "$CP" bench mem memset -c -s 64KB -f default
	if [ "$status" -eq 0 ]; then
		[[ "$output" =~ [0-9.]+\ cycles/byte ]]
		[ -z "$stderr" ]
		run --separate-stderr "$CP" bench mem memcpy -c -s 64KB -f default
		[[ "$output" =~ [0-9.]+\ cycles/byte ]]
		return 0
	fi
	refused 3 "-c/--cycles needs the CPU cycle counter" "hint: drop -c"
	run --separate-stderr "$CP" bench mem mmap --cycles -s 64KB
	refused 3 "-c/--cycles needs the CPU cycle counter"
	run --separate-stderr "$CP" bench mem memcpy -c -s 64KB -f default
	refused 3 "-c/--cycles needs the CPU cycle counter"
}

@test "mmap -t 2 -r 42: a per-thread rate with its spread" {
	run --separate-stderr "$CP" bench mem mmap -s 2MB -t 2 -r 42 -f demand,populate
	[ "$status" -eq 0 ]
	[ "$(grep -cE '^ [ 0-9]{5,}\.[0-9]{6} (GB|MB|KB|bytes)/sec/thread'$'\t''\( \+- +[0-9]+\.[0-9]{2}% \)$' <<< "$output")" -eq 2 ]
}

@test "hugetlb 2MB pages, reserved for the test and restored after" {
	skip_emulated "qemu-user picks mapping addresses at 4KB alignment, so MAP_HUGETLB fails with EINVAL"
	[ "$(id -u)" -eq 0 ] || skip "needs root to reserve 2MB hugetlb pages"
	[ -w "$HP2/nr_hugepages" ] || skip "no writable $HP2/nr_hugepages"
	local prev free
	prev=$(cat "$HP2/nr_hugepages")
	HP_PREV=$prev
	echo $((prev + 4)) > "$HP2/nr_hugepages" || skip "could not reserve 4 2MB pages"
	free=$(cat "$HP2/free_hugepages")
	[ "$free" -ge 4 ] || skip "reservation gave only $free free 2MB pages (memory fragmented?)"
	run --separate-stderr "$CP" bench mem mmap -p 2MB -s 8MB
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" == *"# Copying 8MB bytes ..."* ]]
	[[ "$stderr" == *"# hugetlb pages, THP not involved"* ]]
	[ "$(grep -cE "$RATE" <<< "$output")" -eq 2 ]
	run --separate-stderr "$CP" bench mem memset -p 2MB -s 4MB -f default
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(grep -cE "$RATE" <<< "$output")" -eq 1 ]
	run --separate-stderr "$CP" bench --format json mem mmap -p 2MB -s 8MB -f demand
	[ "$status" -eq 0 ]
	# one fault per 2MB page, where 4KB pages would need 2048
	json_check 'assert d[0]["params"]["page"] == 2097152 and 1 <= d[0]["minor_faults"] < 64, d'
}

@test "arm64: dc zva, stnp and stp run in mem clear, memset and memcpy -f; MOPS runs where HWCAP2 has it" {
	[ "$(cp_machine)" = aarch64 ] || skip "the arm64 strategies need an arm64 binary (make check-arm64)"
	run --separate-stderr "$CP" bench mem clear -f arm64-dc-zva,arm64-stnp,arm64-stp -s 1MB -k 4KB --then read
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(grep -c "^# function 'arm64-" <<< "$output")" -eq 3 ]
	[ "$(grep -cE '^ [ 0-9]{5,}\.[0-9]{6} (GB|MB|KB|bytes)/sec \(combined\)$' <<< "$output")" -eq 3 ]
	run --separate-stderr "$CP" bench mem memset -s 1MB -f arm64-dc-zva,arm64-stnp,arm64-stp
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(grep -cE "$RATE" <<< "$output")" -eq 3 ]
	# the copying counterparts (dc zva has none: it only writes zeros)
	run --separate-stderr "$CP" bench mem memcpy -s 1MB -k 4KB -f arm64-stnp,arm64-stp
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(grep -cE "$RATE" <<< "$output")" -eq 2 ]
	# FEAT_MOPS is read from AT_HWCAP2 (qemu 7.2 does not emulate it): run it, or refuse saying so.
	run --separate-stderr "$CP" bench mem clear -f arm64-mops,arm64-mops-nt -s 1MB -k 4KB
	if [ "$status" -eq 0 ]; then
		[ "$(grep -cE "$RATE" <<< "$output")" -eq 2 ]
	else
		refused 3 "function 'arm64-mops' cannot run on this machine: needs FEAT_MOPS (HWCAP2_MOPS not set)"
	fi
}

@test "mem clear --then: clear, then-read and combined come from one pass and add up (1/combined = 1/clear + 1/then-read)" {
	# separate passes gave combined above clear (4KB extents: clear 21.1 GB/s, combined 21.6 GB/s)
	run --separate-stderr "$CP" bench --format json mem clear -f all+ -s 4MB -k 4KB --then read
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	json_check '
import math
n = 0
for r in d:
    if "skipped" in r:
        continue
    m = {x["name"]: x["value"] for x in r["metrics"]}
    assert m["combined"] <= m["clear"] * (1 + 1e-12), (r["function"], m)
    assert math.isclose(1 / m["combined"], 1 / m["clear"] + 1 / m["then-read"], rel_tol=1e-9), (r["function"], m)
    n += 1
assert n >= 2, n'
}
