#!/usr/bin/env bats
# plan: `clearpath plan validate|show|run` on the shipped plans and the fixtures of tests/fixtures/plans.

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_DIRNAME/../.."	# messages name plans by the path given
	CP=${CLEARPATH:-./clearpath}
	F=tests/fixtures/plans
}

@test "the shipped plans validate" {
	run "$CP" plan validate plans/seed.yaml
	[ "$status" -eq 0 ]
	[ "$output" = "plans/seed.yaml: ok, 3 benchmarks" ]
	run "$CP" plan validate plans/quick.yaml
	[ "$status" -eq 0 ]
	[ "$output" = "plans/quick.yaml: ok, 9 benchmarks" ]
	run "$CP" plan validate plans/clear-study.yaml
	[ "$status" -eq 0 ]
	[ "$output" = "plans/clear-study.yaml: ok, 6 benchmarks" ]
}

@test "show lists the seed's result classes, protocol, invocations and the assumption behind the estimate" {
	run "$CP" plan show plans/seed.yaml
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^ +1  mem memset -k 1GB -f default -s 16GB +1 +3 +4 +16 '
	echo "$output" | grep -E '^ +2  mem mmap -p 1GB -f demand -s 32GB -l 5 +1 +3 +4 +16 '
	echo "$output" | grep -E '^ +3  mem mmap -p 4KB -f demand -s 32GB -l 5 +1 +3 +4 +16 '
	echo "$output" | grep -E '^3 benchmarks, 48 invocations, about '
	echo "$output" | grep -F 'estimate assumes memset and clear at 5 GB/sec'
}

@test "show names exec benchmarks and the guess used for them" {
	run "$CP" plan show "$F/good.yaml"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^ +9  exec perf-memset +2 +5 +3 +21 '
	echo "$output" | grep -F 'exec: 10 s per invocation'
}

@test "show --scale auto divides sizes to fit the machine (fixture: 1GB available, 16 free 2MB pages)" {
	CLEARPATH_SYSROOT=tests/fixtures/sysroot run "$CP" plan show --scale auto "$F/scale.yaml"
	[ "$status" -eq 0 ]
	echo "$output" | grep -F 'sizes divided by 32 to fit this machine'
	echo "$output" | grep -E '^ +1  mem memset -k 4KB -f default -s 512MB '
	echo "$output" | grep -E '^ +2  mem mmap -p 2MB -f demand -s 32MB -l 5 '
	[[ "$output" != *warning* ]]
}

@test "show warns when the plan does not fit and points at --scale auto" {
	CLEARPATH_SYSROOT=tests/fixtures/sysroot run "$CP" plan show "$F/scale.yaml"
	[ "$status" -eq 0 ]
	echo "$output" | grep -F "warning: benchmark 'memset -k 4KB -f default -s 16GB' needs 16GB of memory but only 1GB is available (MemAvailable, less 64MB kept free)"
	echo "$output" | grep -F "plan show --scale auto $F/scale.yaml"
}

@test "--scale auto refuses a plan no scale can fit (no 1GB pool) and says which page size is missing" {
	CLEARPATH_SYSROOT=tests/fixtures/sysroot run "$CP" plan show --scale auto plans/seed.yaml
	[ "$status" -eq 3 ]
	echo "$output" | grep -F 'does not fit this machine at any scale: it needs page sizes this kernel does not offer'
	# scaled as far as it goes, the 1GB benchmark is one page
	echo "$output" | grep -F "benchmark 'mmap -p 1GB -f demand -s 1GB -l 5' needs 1GB pages, but 1GB hugetlb pages are not offered by this kernel"
	echo "$output" | grep -F "this kernel offers 4KB (base), 2MB; boot with hugepagesz=1G hugepages=N"
}

@test "--scale auto with an empty hugetlb pool says so and gives the command that reserves the pages" {
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run "$CP" plan show --scale auto plans/seed.yaml
	[ "$status" -eq 3 ]
	echo "$output" | grep -F 'a hugetlb pool it needs has too few free pages'
	[[ "$output" != *"(sizes stop at one page)"* ]]
	# at --scale 2 everything but the empty 1GB pool fits (23GB MemAvailable)
	echo "$output" | grep -F "reserve the pages below and --scale auto picks --scale 2"
	echo "$output" | grep -F "benchmark 'mmap -p 1GB -f demand -s 16GB -l 5' needs 16 free 1GB hugetlb pages, but 0 of 0 are free"
	echo "$output" | grep -F "echo 16 > /sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages"
}

@test "--scale keeps a huge-page benchmark at one page, and the plan's requires agrees with it" {
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run "$CP" plan show --scale 64 plans/seed.yaml
	[ "$status" -eq 0 ]
	# 32GB / 64 is less than one 1GB page: one page, not left at 32GB
	echo "$output" | grep -E '^ +2  mem mmap -p 1GB -f demand -s 1GB -l 5 '
	echo "$output" | grep -E '^ +3  mem mmap -p 4KB -f demand -s 512MB -l 5 '
	echo "$output" | grep -F "benchmark 'mmap -p 1GB -f demand -s 1GB -l 5' needs 1 free 1GB hugetlb pages"
	echo "$output" | grep -F "the plan needs 1 free 1GB hugetlb pages"
}

@test "--scale divides -s only; -k keeps its value unless it would exceed the scaled -s" {
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run "$CP" plan show --scale 64 "$F/scale-extent.yaml"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^ +1  mem clear -p 4KB -k 2MB -f default -s 16MB '
	echo "$output" | grep -E '^ +2  mem memset -k 2MB -f default -s 16MB '
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run "$CP" plan show --scale 1024 "$F/scale-extent.yaml"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^ +1  mem clear -p 4KB -k 1MB -f default -s 1MB '
	echo "$output" | grep -E '^ +2  mem memset -k 1MB -f default -s 1MB '
	# the seed's 1GB chunk is lowered to the scaled size, not divided with it
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run "$CP" plan show --scale 64 plans/seed.yaml
	echo "$output" | grep -E '^ +1  mem memset -k 256MB -f default -s 256MB '
}

@test "a YAML syntax error is reported at file:line:column" {
	run "$CP" plan validate "$F/syntax.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "clearpath: $F/syntax.yaml:4:11: YAML syntax error: did not find expected ',' or '}'"
	echo "$output" | grep -F "while parsing a flow mapping, which started at 3:11"
}

@test "an unknown key is refused naming the nearest valid key" {
	run "$CP" plan validate "$F/typo-key.yaml"
	[ "$status" -eq 2 ]
	[ "$output" = "clearpath: $F/typo-key.yaml:3:24: unknown key 'repeat' in defaults; nearest valid key: 'repeats'" ]
	run "$CP" plan validate "$F/typo-arg.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "$F/typo-arg.yaml:5:7: 'sise' is not an option of 'bench mem mmap'; nearest: 'size'"
	run "$CP" plan validate "$F/bad-function.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "'defualt' is not a function of 'bench mem memset'; nearest: 'default'"
	# a protocol key misspelt (or put) at the top: the key it means and where it goes, never 'name'
	local d=$BATS_TEST_TMPDIR
	printf 'name: t\nrepeat: 2\nbenchmarks:\n  - bench: mem memset -s 4KB\n' >"$d/top.yaml"
	run "$CP" plan validate "$d/top.yaml"
	[ "$status" -eq 2 ]
	[ "$output" = "clearpath: $d/top.yaml:2:1: unknown key 'repeat' in a plan; nearest valid key: 'repeats', which goes under 'defaults:' (for every benchmark) or in a benchmark" ]
	printf 'warmups: 0\nbenchmarks:\n  - bench: mem memset -s 4KB\n' >"$d/top.yaml"
	run "$CP" plan validate "$d/top.yaml"
	[ "$status" -eq 2 ]
	[ "$output" = "clearpath: $d/top.yaml:1:1: 'warmups' belongs under 'defaults:' (for every benchmark) or in a benchmark, not at the top of a plan" ]
	# a top key misspelt still names the top key
	printf 'nam: t\nbenchmarks:\n  - bench: mem memset -s 4KB\n' >"$d/top.yaml"
	run "$CP" plan validate "$d/top.yaml"
	[ "$output" = "clearpath: $d/top.yaml:1:1: unknown key 'nam' in a plan; nearest valid key: 'name'" ]
}

@test "odd keys are refused cleanly: 70 characters, empty, an anchor, a list (once read out of bounds)" {
	run "$CP" plan validate "$F/long-key.yaml"
	[ "$status" -eq 2 ]
	[ "$output" = "clearpath: $F/long-key.yaml:3:1: an unknown key (70 characters, not shown) in a plan; valid keys: name, defaults, swprofile, swprofiles, benchmarks, include, requires, buffers" ]
	run "$CP" plan validate "$F/long-arg.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "$F/long-arg.yaml:4:12: 'kkkkkkkkkk"
	echo "$output" | grep -F "is not an option of 'bench mem clear'; nearest: 'f'"
	for f in null-key anchor-key; do
		run "$CP" plan validate "$F/$f.yaml"
		[ "$status" -eq 2 ]
		echo "$output" | grep -F "$F/$f.yaml:4:"
		echo "$output" | grep -F "'' is not an option of 'bench mem clear'"
	done
	run "$CP" plan validate "$F/seq-key.yaml"
	[ "$status" -eq 2 ]
	[ "$output" = "clearpath: $F/seq-key.yaml:4:12: an option name must be a single value" ]
}

@test "an included file that is no plan is refused without echoing its contents" {
	run "$CP" plan validate "$F/include-foreign.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "$F/shadow-like:1:1: an unknown key (51 characters, not shown) in a plan"
	echo "$output" | grep -F "$F/include-foreign.yaml:3:11: included from here"
	! echo "$output" | grep -F 'SECRET'
	! echo "$output" | grep -F 'root'
}

@test "an exec with an empty name and a plan of two YAML documents are refused by validate" {
	run "$CP" plan validate "$F/exec-no-name.yaml"
	[ "$status" -eq 2 ]
	[ "$output" = "clearpath: $F/exec-no-name.yaml:3:11: an exec's name must not be empty: it names the benchmark in the store" ]
	run "$CP" plan validate "$F/two-docs.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "$F/two-docs.yaml:3:1: a second YAML document: a plan is one document"
}

@test "a regex that would cost regcomp a gigabyte is refused before it is compiled" {
	run "$CP" plan validate "$F/regex-blowup.yaml"
	[ "$status" -eq 2 ]
	[ "$output" = "clearpath: $F/regex-blowup.yaml:3:11: regex refused: it repeats a repetition (as in '++'), which costs memory for nothing" ]
}

@test "a bench line asking for --help is refused without printing the help (fuzz_plan found it)" {
	run --separate-stderr "$CP" plan validate "$F/help-line.yaml"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "clearpath: $F/help-line.yaml:3:5: '--hel': --help has no place in a plan" ]
	run --separate-stderr "$CP" plan validate "$F/help-bundle.yaml"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == *"'-ch': --help has no place in a plan"* ]]
}

@test "show prints no terminal escape from the plan's names" {
	run "$CP" plan show "$F/escapes.yaml"
	[ "$status" -eq 0 ]
	! printf '%s' "$output" | grep -q $'[\x01-\x08\x0b-\x1f\x7f]'
	echo "$output" | grep -F "plan esc [31mRED ($F/escapes.yaml), swprofile sw ]0;title "
	echo "$output" | grep -F "exec e [2Jx"
}

@test "a matrix past 1000 benchmarks is refused" {
	run "$CP" plan validate "$F/big-matrix.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "$F/big-matrix.yaml:5:7: the plan would have 1100 benchmarks; the limit is 1000"
}

@test "an include loop is reported with its chain" {
	run "$CP" plan validate "$F/loop-a.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "include loop: $F/loop-a.yaml -> $F/loop-b.yaml -> $F/loop-a.yaml"
}

@test "a bench line the workload parser refuses is reported with file:line" {
	run "$CP" plan validate "$F/bad-line.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "invalid size '1XB' for -s/--size"
	echo "$output" | grep -F "$F/bad-line.yaml:5:5: in bench line 'mem mmap -p 4KB -s 1XB'"
}

@test "two spellings of one benchmark are refused: they would share an identity" {
	run "$CP" plan validate "$F/duplicate.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "benchmark 'memset -f default -s 1GB' is already in the plan ($F/duplicate.yaml:3)"
}

@test "usage errors exit 2; a plan that cannot fit stops plan run before anything is stored" {
	run "$CP" plan
	[ "$status" -eq 2 ]
	run "$CP" plan frobnicate plans/seed.yaml
	[ "$status" -eq 2 ]
	run "$CP" plan validate no/such/plan.yaml
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "cannot read plan no/such/plan.yaml"
	run "$CP" plan show --scale 3 plans/seed.yaml
	[ "$status" -eq 2 ]
	store="$BATS_TEST_TMPDIR/unused/results.db"
	CLEARPATH_SYSROOT="$PWD/tests/fixtures/sysroot" run "$CP" plan run --store "$store" plans/seed.yaml
	[ "$status" -eq 3 ]
	echo "$output" | grep -F "scaled to fit"
	[ ! -e "$store" ]
	run "$CP" plan run
	[ "$status" -eq 2 ]
	run "$CP" plan --help
	[ "$status" -eq 0 ]
}

@test "an exec name or command too long to store whole is refused by validate, never cut" {
	run "$CP" plan validate "$F/exec-long-command.yaml"
	[ "$status" -eq 2 ]
	[[ "$output" == *"an exec's name may have at most 154 bytes and its command at most 1023 (this one: 4 and 1107)"* ]]
	run "$CP" plan validate "$F/exec-long-name.yaml"
	[ "$status" -eq 2 ]
	[[ "$output" == *"(this one: 200 and 6)"* ]]
}

@test "a plan nested thousands deep or larger than 1MB is refused at once, not parsed for minutes or into gigabytes" {
	python3 -c "print('benchmarks: ' + '[' * 100000 + ']' * 100000)" >"$BATS_TEST_TMPDIR/deep.yaml"
	run --separate-stderr "$CP" plan validate "$BATS_TEST_TMPDIR/deep.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"deep.yaml:1:76: lists and mappings nest deeper than 64 levels"* ]]
	python3 -c "print('benchmarks: [' + 'a,' * 600000 + 'a]')" >"$BATS_TEST_TMPDIR/big.yaml"
	run --separate-stderr "$CP" plan validate "$BATS_TEST_TMPDIR/big.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"big.yaml: the plan is larger than 1048576 bytes"* ]]
	# 64 levels (the top mapping and 63 lists) are still a plan's business: here a wrong type, said where
	python3 -c "print('benchmarks: ' + '[' * 63 + ']' * 63)" >"$BATS_TEST_TMPDIR/ok.yaml"
	run --separate-stderr "$CP" plan validate "$BATS_TEST_TMPDIR/ok.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"a benchmark must be a mapping"* ]]
	# a directory named as a plan (an include of one) says so
	run --separate-stderr "$CP" plan validate "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"Is a directory"* ]]
}

@test "includes that fan out (each file including the next ten times) are refused at 256 files, not read 10^8 times" {
	d=$BATS_TEST_TMPDIR
	echo "defaults: {warmups: 0}" >"$d/f8.yaml"
	for i in 7 6 5 4 3 2 1 0; do
		python3 -c "import sys; print('include: [' + ', '.join(['f%d.yaml' % (int(sys.argv[1]) + 1)] * 10) + ']')" "$i" >"$d/f$i.yaml"
	done
	echo "benchmarks: [mem memset -s 8KB]" >>"$d/f0.yaml"
	run --separate-stderr timeout 60 "$CP" plan validate "$d/f0.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the plan reads more than 256 files through its includes"* ]]
	[[ "$stderr" == *"f0.yaml:1:11: included from here"* ]]
}

@test "show: an estimate past what an integer of seconds holds says so, never 0s" {
	cat >"$BATS_TEST_TMPDIR/huge.yaml" <<'EOF2'
defaults: {warmups: 1000, repeats: 1000, sessions: 1000}
benchmarks:
  - mem mmap -s 1TB -l 4294967295 -t 1024
  - mem memset -f default -s 8KB
EOF2
	run --separate-stderr "$CP" plan show "$BATS_TEST_TMPDIR/huge.yaml"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^ +1  mem mmap -f all -s 1TB -l 4294967295 -t 1024 .* > 1000000h$'
	echo "$output" | grep -Fx "2 benchmarks, 4000000 invocations, about > 1000000h"
}

@test "a value holding a NUL (\"\\0\" in double quotes) is refused, not cut short where C strings end" {
	printf 'benchmarks: ["mem memset -f default -s 8KB\\0 -l 5"]\n' >"$BATS_TEST_TMPDIR/nul.yaml"
	run --separate-stderr "$CP" plan validate "$BATS_TEST_TMPDIR/nul.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"nul.yaml:1:14: a value holds a NUL character (\\0)"* ]]
	printf 'benchmarks:\n  - exec: {name: e, command: "echo 1\\0; echo 2", regex: "([0-9])", unit: u, higher_is_better: true}\n' \
		>"$BATS_TEST_TMPDIR/nulcmd.yaml"
	run --separate-stderr "$CP" plan validate "$BATS_TEST_TMPDIR/nulcmd.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"nulcmd.yaml:2:30: a value holds a NUL character"* ]]
}

@test "show says which benchmarks clear buffers the last-level cache holds (fixture: a 480MB L3)" {
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run --separate-stderr "$CP" plan show plans/quick.yaml
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\ncache-resident: #1-9 clear buffers of at most 64MB, within this machine\'s 480MB L3 cache:\n  their rates measure the cache more than memory (buffers above 480MB measure memory)'* ]]
	# buffers past the cache are not named
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run --separate-stderr "$CP" plan show plans/seed.yaml
	[[ "$output" != *"cache-resident"* ]]
	# a machine that does not show its cache topology: nothing said
	CLEARPATH_SYSROOT=tests/fixtures/small-box run --separate-stderr "$CP" plan show plans/quick.yaml
	[[ "$output" != *"cache-resident"* ]]
}

@test "buffers: past-cache raises the buffers the last-level cache holds to twice its size, -k kept (fixture: a 480MB L3)" {
	cat >"$BATS_TEST_TMPDIR/pc.yaml" <<-'EOF2'
	name: pc
	buffers: past-cache
	defaults: {warmups: 0, repeats: 1, sessions: 1}
	benchmarks:
	  - mem memset -f default -s 64MB
	  - bench: mem clear
	    args: {f: default, s: 128MB, k: 4KB}
	  - mem memset -f default -s 2GB
	EOF2
	CLEARPATH_SYSROOT=tests/fixtures/vm-x86 run --separate-stderr "$CP" plan show "$BATS_TEST_TMPDIR/pc.yaml"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" == *$'\nbuffers the last-level cache holds raised 16-fold, past it (buffers: past-cache)\n'* ]]
	echo "$output" | grep -E '^ +1  mem memset -f default -s 1GB '
	echo "$output" | grep -E '^ +2  mem clear -k 4KB -f default -s 2GB '
	echo "$output" | grep -E '^ +3  mem memset -f default -s 2GB '
	[[ "$output" != *"cache-resident"* ]]
	# where memory does not allow (small-box: 32MB usable), the plan stays as written
	CLEARPATH_SYSROOT=tests/fixtures/small-box run --separate-stderr "$CP" plan show "$BATS_TEST_TMPDIR/pc.yaml"
	[[ "$output" != *"raised"* ]]
	echo "$output" | grep -E '^ +1  mem memset -f default -s 64MB '
	# a bad value is refused where it is written
	sed -i 's/past-cache/always/' "$BATS_TEST_TMPDIR/pc.yaml"
	run --separate-stderr "$CP" plan validate "$BATS_TEST_TMPDIR/pc.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"pc.yaml:2:"*"'buffers' takes past-cache or as-written"* ]]
}
