#!/usr/bin/env bats
# counters.bats: `--counters` on bench and run with the real binary: metrics, JSON, the one warning, stored classes.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	CP=${CLEARPATH:-./clearpath}
	unset CLEARPATH_SYSROOT
	export CLEARPATH_STORE="$BATS_TEST_TMPDIR/results.db"
}

# The value on the text line " <value> <unit> (<name>)" of the $n-th function's result.
metric_line() {
	printf '%s\n' "$output" | awk -v want="($1)" '$NF == want { print $1 }' | sed -n "${2:-1}p"
}

# Hardware counters either give their metric or are named in the one warning line, never both.
one_warning_or_cycles() {
	local warned
	warned=$(printf '%s\n' "$stderr" | grep -c 'hardware counters unavailable (' || true)
	if printf '%s\n' "$output" | grep -q ' cycles/byte (cycles)$'; then
		[ "$warned" -eq 0 ] || { echo "cycles counted but warned: $stderr"; return 1; }
	else
		[ "$warned" -eq 1 ] || { echo "expected one warning, got $warned: $stderr"; return 1; }
		[[ "$stderr" == *"): cycles, instructions, cache-misses, dTLB-load-misses"* ]]
	fi
}

@test "--help of every mem workload lists --counters" {
	for w in memset mmap clear; do
		run "$CP" bench mem "$w" --help
		[ "$status" -eq 0 ]
		[[ "$output" == *"    --counters "* ]]
	done
}

# perf's page touch reads then writes each page: the read maps the shared zero
# page (one fault), the write replaces it with a page of its own (a second),
# so demand faulting with 4KB pages is 2 faults/page.  populate takes its
# pages inside mmap(MAP_POPULATE), which is no fault at all.  (A SANITIZE=1
# binary also faults in ASan's shadow of the touched bytes, one page per 8:
# 2.125, hence 2.2 at the top.)
@test "mmap --counters: faults per page, software counters, one warning for the hardware ones" {
	skip_emulated "qemu-user does not emulate perf_event_open (ENOSYS), so no software counter opens"
	run --separate-stderr "$CP" bench mem mmap -s 8MB --thp never --counters
	[ "$status" -eq 0 ]
	demand=$(metric_line page-faults 1)
	populate=$(metric_line page-faults 2)
	awk -v v="$demand" 'BEGIN { exit !(v >= 1.9 && v <= 2.2) }' || { echo "demand: $demand"; false; }
	awk -v v="$populate" 'BEGIN { exit !(v < 0.1) }' || { echo "populate: $populate"; false; }
	[ -n "$(metric_line task-clock)" ]
	[ -n "$(metric_line context-switches)" ]
	[ -n "$(metric_line cpu-migrations)" ]
	# the headline is still perf's rate line, the counters follow it
	mapfile -t L <<< "$output"
	[[ "${L[4]}" =~ ^\ [\ 0-9]{5,}\.[0-9]{6}\ (GB|MB|KB|bytes)/sec$ ]]
	[[ "${L[5]}" == *" msec (task-clock)" ]]
	one_warning_or_cycles
}

@test "without --counters nothing changes: no counter lines, no warning" {
	run --separate-stderr "$CP" bench mem mmap -s 1MB -f demand
	[ "$status" -eq 0 ]
	[[ "$output" != *"(page-faults)"* ]]
	# stderr has the THP note alone
	[ -z "$(grep -v '^# THP: ' <<< "$stderr")" ]
}

@test "JSON: counter metrics with units and directions, raw totals, reasons instead of zeros" {
	skip_emulated "qemu-user does not emulate perf_event_open (ENOSYS), so no software counter opens"
	run --separate-stderr "$CP" bench --format json mem mmap -s 8MB -f demand --thp never --counters
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c "
import json, sys
r = json.load(sys.stdin)[0]
m = {x['name']: x for x in r['metrics']}
assert m['']['unit'] == 'bytes/sec' and r['metrics'][0]['name'] == '', r['metrics']
for name, unit in [('task-clock', 'msec'), ('page-faults', 'faults/page'),
                   ('context-switches', 'count'), ('cpu-migrations', 'count')]:
    assert m[name]['unit'] == unit and m[name]['higher_is_better'] is False, m[name]
c = r['counters']
assert len(c) == 8, c
for name, e in c.items():
    # an event counts or says why not; only a counted one may have a metric
    assert ('total' in e) != ('unavailable' in e), e
    assert ('unavailable' in e) == (name not in m), (name, e)
pages = 8 * 1024 * 1024 / 4096
# two independent sources: the perf event and getrusage over the same region
assert abs(c['page-faults']['total'] - r['minor_faults']) <= 8, (c['page-faults'], r['minor_faults'])
assert abs(m['page-faults']['value'] - c['page-faults']['total'] / pages) < 1e-9
"
}

@test "simple format still prints only the headline" {
	run --separate-stderr "$CP" bench --format simple mem memset -s 1MB -f default --counters
	[ "$status" -eq 0 ]
	mapfile -t L <<< "$output"
	[ "${#L[@]}" -eq 2 ]
	[ "${L[0]}" = "# function 'default' (Default memset() provided by glibc)" ]
	[[ "${L[1]}" =~ ^[0-9]+\.[0-9]{6}$ ]]
}

@test "run --counters stores extra result classes; the headline class is the same as without" {
	skip_emulated "qemu-user does not emulate perf_event_open (ENOSYS), so no counter class is stored"
	run --separate-stderr "$CP" run --quiet --warmups 1 --repeats 2 -- mem memset -s 4MB --counters
	[ "$status" -eq 0 ]
	# one session process, three invocations, several functions: at most one warning
	[ "$(printf '%s\n' "$stderr" | grep -c 'unavailable (' || true)" -le 1 ]
	run --separate-stderr "$CP" run --quiet --warmups 0 --repeats 1 -- mem memset -s 4MB
	[ "$status" -eq 0 ]
	python3 - "$CLEARPATH_STORE" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""select rc.name, rc.unit, rc.higher_is_better, count(s.id)
                     from resultclass rc join sample s on s.resultclass_id = rc.id
                     where rc.name like 'memset -f default -s 4MB%' group by rc.id""").fetchall()
got = {r[0]: r[1:] for r in rows}
# the headline: warmup + 2 repeats with --counters, 1 repeat without, all in one class
assert got['memset -f default -s 4MB'] == ('bytes/sec', 1, 4), got
assert got['memset -f default -s 4MB :page-faults'] == ('faults/page', 0, 3), got
assert got['memset -f default -s 4MB :task-clock'] == ('msec', 0, 3), got
assert got['memset -f default -s 4MB :context-switches'] == ('count', 0, 3), got
# no benchmark row spells --counters
assert not db.execute("select 1 from benchmark where params like '%counters%'").fetchall()
EOF
}
