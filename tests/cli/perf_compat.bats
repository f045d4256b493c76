#!/usr/bin/env bats
# perf_compat.bats: clearpath's `bench mem` stdout against perf's own, line by line with the numbers masked:
# Debian's perf (linux-perf, 6.1 in Debian 12) for what it has (memset, memcpy, -l, --format=simple,
# -f help, mem all), and golden files written from upstream's source for what only newer perf has
# (mem mmap, -k, -p, -t; tests/golden/perf/, each naming the function of mem-functions.c it follows).

bats_require_minimum_version 1.5.0
load helpers

setup() {
	CP=${CLEARPATH:-./clearpath}
	GOLDEN="$BATS_TEST_DIRNAME/../golden/perf"
}

# Debian's perf, or skip saying why (under CI=true, where scripts/install-deps installed it, fail).
need_perf() {
	# under make check-arm64 the arm64 clearpath runs emulated beside the host's x86-64 perf:
	# their -f all differ by design (perf's set per architecture); the golden files cover arm64
	skip_emulated "the host's perf is x86-64's, the binary under test arm64's"
	if ! command -v perf >/dev/null || ! perf bench mem memset -s 4KB -f default >/dev/null 2>&1; then
		[ "${CI:-}" != true ] || { echo "perf is missing: scripts/install-deps installs linux-perf"; return 1; }
		skip "no working perf (scripts/install-deps installs linux-perf)"
	fi
}

# Mask stdin's numbers so two runs of one benchmark compare equal: a rate line's value and unit
# (" %14lf GB/sec" -> " N U/sec", perf's "inf" too), a per-thread spread, a simple-format value.
# Checks the units logic first: a unit's value lies in [1, 1024) (bytes: below 1024; GB: from 1),
# as perf's print_bps() scales by 1024, and only perf (a timer tick of zero) may print inf.
mask() {
	python3 -c '
import re, sys
allow_inf = sys.argv[1] == "perf"
rate = re.compile(r"^ +([0-9]+\.[0-9]+|inf)d? (GB|MB|KB|bytes)/sec(/thread\t\( \+- +[0-9]+\.[0-9]{2}% \))?$")
for line in sys.stdin.read().splitlines():
    m = rate.match(line)
    if m:
        v, u = m.group(1), m.group(2)
        if v == "inf":
            assert allow_inf, line
        else:
            v = float(v)
            assert v < 1024 or u == "GB", line
            assert v >= 1 or u == "bytes", line
        line = " N U/sec" + ("/thread\t( +- N% )" if m.group(3) else "")
    elif re.fullmatch(r"[0-9]+\.[0-9]{6}|inf", line):
        assert allow_inf or line != "inf", line
        line = "N"
    print(line)
' "$1"
}

# Run "perf bench ARGS" and "clearpath bench ARGS"; compare their stdout masked, line by line.
same_as_perf() {
	local p c
	p=$(perf bench "$@" 2>/dev/null | mask perf) || { echo "perf bench $*: units logic broken"; return 1; }
	run --separate-stderr "$CP" bench "$@"
	[ "$status" -eq 0 ] || { echo "clearpath bench $*: exit $status: $stderr"; return 1; }
	c=$(printf '%s\n' "$output" | mask clearpath) || { echo "clearpath bench $*: units logic broken"; return 1; }
	[ -n "$p" ] || { echo "perf bench $* printed nothing"; return 1; }
	diff -u <(printf '%s\n' "$p") <(printf '%s\n' "$c") || { echo "differs from perf: bench $*"; return 1; }
}

@test "mem memset and mem memcpy: the same lines as Debian's perf, in the same order (numbers masked)" {
	need_perf
	for w in memset memcpy; do
		same_as_perf mem $w
		same_as_perf mem $w -s 1MB -f all
		same_as_perf mem $w -s 8MB -l 3
		same_as_perf mem $w -f default -s 2MB
		# the size echo is verbatim, as typed
		same_as_perf mem $w -s 512kb -f default
		same_as_perf mem $w --size=1048576 --nr_loops=2 --function=default
		# perf's common options before the collection
		same_as_perf --format=simple mem $w -s 1MB
		same_as_perf -f simple mem $w -s 1MB -f default
		same_as_perf -r 3 mem $w -s 1MB -f default
	done
}

@test "the last rate line and the function names are perf's: what PTS and lkp read is the same function" {
	need_perf
	local w last_p last_c
	for w in memset memcpy; do
		# PTS: the last GB/sec line, and the function block it belongs to
		last_p=$(perf bench mem $w -s 1MB 2>/dev/null | grep "^# function" | tail -1)
		run --separate-stderr "$CP" bench mem $w -s 1MB
		last_c=$(grep "^# function" <<< "$output" | tail -1)
		[ "$last_p" = "$last_c" ] || { echo "$w: perf's last is $last_p, clearpath's $last_c"; return 1; }
		# lkp: op.function.unit keys
		diff <(perf bench mem $w -s 1MB 2>/dev/null | sed -n "s/^# function '\([^']*\)'.*/$w.\1/p") \
		     <(sed -n "s/^# function '\([^']*\)'.*/$w.\1/p" <<< "$output")
	done
}

@test "-f help: perf's lines first, word for word; clearpath's own after them" {
	need_perf
	local p n
	for w in memset memcpy; do
		# perf exits 1 after -f help, clearpath 0 (README: Differences from perf)
		p=$(perf bench mem $w -f help 2>/dev/null || true)
		n=$(wc -l <<< "$p")
		run --separate-stderr "$CP" bench mem $w -f help
		[ "$status" -eq 0 ]
		diff -u <(printf '%s\n' "$p") <(head -n "$n" <<< "$output")
		[ "$(sed -n "$((n + 1))p" <<< "$output")" = "Also with -f all+ (clearpath's; -f all runs perf's above):" ]
	done
}

@test "bench mem all: perf's memcpy and memset sections, line for line" {
	need_perf
	local p c
	# perf runs its collection with the defaults; its find_bit (which clearpath lacks) and any
	# mmap (newer perf) are cut off after the memset section
	p=$(perf bench mem all 2>/dev/null | awk '/^# Running mem\// && !/mem\/(memcpy|memset) /{exit} {print}' | mask perf)
	run --separate-stderr "$CP" bench mem all
	[ "$status" -eq 0 ]
	c=$(printf '%s\n' "$output" | awk '/^# Running mem\// && !/mem\/(memcpy|memset) /{exit} {print}' | mask clearpath)
	[[ "$p" == "# Running mem/memcpy benchmark..."* ]]
	diff -u <(printf '%s\n' "$p") <(printf '%s\n' "$c")
	[[ "$stderr" == *"# skipping mem/find_bit: "* ]]
}

# A golden file: "$ clearpath ARGS", "# follows: <upstream file> <function>()...", "---", then the
# expected stdout with the numbers masked as mask() masks them.
@test "what only newer perf has (mmap, -k, -p, -t): golden files from upstream's source" {
	local n=0 f args cite want
	for f in "$GOLDEN"/*.txt; do
		args=$(sed -n '1s/^\$ clearpath //p' "$f")
		cite=$(sed -n '2p' "$f")
		[ -n "$args" ] || { echo "$f: no '\$ clearpath' line"; return 1; }
		[[ "$cite" =~ ^"# follows: tools/perf/"(bench/mem-functions\.c|builtin-bench\.c)" "[a-z_]+"()" ]] ||
			{ echo "$f: line 2 must cite the upstream function it follows: $cite"; return 1; }
		[ "$(sed -n '3p' "$f")" = "---" ]
		want=$(tail -n +4 "$f")
		# shellcheck disable=SC2086 # the golden's arguments are words
		run --separate-stderr "$CP" $args
		[ "$status" -eq 0 ] || { echo "$f: exit $status: $stderr"; return 1; }
		diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$output" | mask clearpath) || { echo "differs: $f"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 6 ]
}
