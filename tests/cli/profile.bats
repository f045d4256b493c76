#!/usr/bin/env bats
# profile: --profile samples the timed region; page-clearing share of THP and 4KB demand faults; JSON; refusals.

bats_require_minimum_version 1.5.0
load helpers

THP=/sys/kernel/mm/transparent_hugepage/enabled

setup() {
	cd "$BATS_TEST_DIRNAME/../.."
	CP=${CLEARPATH:-./clearpath}
	FIX=tests/fixtures
	unset CLEARPATH_SYSROOT
	skip_emulated "no perf_event_open under a user-mode emulator"
}

teardown() {
	# put the machine's THP mode back when a test changed it
	if [ -f "$BATS_TEST_TMPDIR/thp.saved" ]; then
		cat "$BATS_TEST_TMPDIR/thp.saved" > "$THP"
	fi
}

# The clearing share ("clearing 97.8% of ...") of the text output in $output.
clearing_share() {
	sed -n 's/^# profile: clearing \([0-9.]*\)% of .*/\1/p' <<<"$output"
}

# A root that is this machine's, except for the files of profile fixture $1 (what decides a refusal).
refusing_root() {
	local root="$BATS_TEST_TMPDIR/root"
	mkdir -p "$root"
	cp -r "$FIX/vm-x86/." "$root/"
	cp -r "$FIX/profile/$1/." "$root/"
	echo "$root"
}

# Whether this process may take a kernel profile here (root, or perf_event_paranoid <= 1).
can_profile() {
	[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ]
}

# Make MADV_HUGEPAGE work (THP "never" ignores it): as root, switch to madvise and restore in teardown.
thp_madvise_possible() {
	grep -q '\[never\]' "$THP" || return 0
	[ "$(id -u)" = 0 ] || return 1
	sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$THP" > "$BATS_TEST_TMPDIR/thp.saved"
	echo madvise > "$THP"
}

# The default --profile-freq as --help states it.
default_freq() {
	"$CP" bench mem mmap --help | sed -n 's/.*--profile-freq <hz>.*(default: \([0-9]*\)).*/\1/p'
}

# At the default frequency (few samples a second, so that sampling costs under 1% of the rate even
# in a VM): regions of some 100 samples (1.3GB of THP faults, 512MB of 4KB faults, each about a CPU
# second here), so the shares' standard errors (a few points) leave the two far apart.
@test "THP demand faults spend most samples clearing; 4KB faults with THP off a smaller share" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	thp_madvise_possible || skip "THP is 'never' and only root can change it"
	run --separate-stderr "$CP" bench mem mmap -p 4KB -f demand -s 256MB -l 5 --thp always --profile
	[ "$status" -eq 0 ]
	thp=$(clearing_share)
	echo "THP: $thp% clearing; $output"
	[[ "$stderr" == *"MADV_HUGEPAGE"* ]]	# the THP note, on stderr
	[[ "$output" == *"% (profile:clear_page"* ]]
	[[ "$output" == *" samples (cpu-clock at $(default_freq) Hz, standard error "* ]]
	python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 50 else 1)" "$thp"
	run --separate-stderr "$CP" bench mem mmap -p 4KB -f demand -s 256MB -l 2 --thp never --profile
	[ "$status" -eq 0 ]
	small=$(clearing_share)
	echo "4KB: $small% clearing; $output"
	[[ "$output" == *"a change of X% in the clearing routine moves this result by at most"* ]]
	python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$small" "$thp"
}

@test "a profile says how it was sampled: event, frequency (the default unless --profile-freq) and the share's standard error" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	hz=$(default_freq)
	[ -n "$hz" ]
	run --separate-stderr "$CP" bench --format json mem mmap -p 4KB -f demand -s 128MB --profile
	[ "$status" -eq 0 ]
	json_check '
p = d[0]["profile"]
assert p["event"] == "cpu-clock" and p["freq_hz"] == int(sys.argv[1]), p
n, c = p["samples"], p["clearing_pct"] / 100
m, q = n + 4, (c * n + 2) / (n + 4)
assert abs(p["clearing_stderr_pct"] - 100 * (q * (1 - q) / m) ** 0.5) < 1e-9, p
assert "(cpu-clock at %s Hz, standard error " % sys.argv[1] in p["bound"], p
' "$hz"
	run --separate-stderr "$CP" bench --format json mem mmap -p 4KB -f demand -s 16MB --profile-freq 3000
	[ "$status" -eq 0 ]
	json_check 'assert d[0]["profile"]["freq_hz"] == 3000, d[0]["profile"]'
}

@test "bench --format json --profile: shares, the bound, and the same numbers as the metrics" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	run --separate-stderr "$CP" bench --format json mem mmap -p 4KB -f demand -s 32MB --profile --profile-freq 2000
	[ "$status" -eq 0 ]
	json_check '
r = d[0]
p = r["profile"]
m = {x["name"]: x for x in r["metrics"]}
assert p["samples"] > 0 and p["lost"] >= 0, p
assert 0 <= p["clearing_pct"] <= 100, p
assert abs(p["bound_factor"] - p["clearing_pct"] / 100) < 1e-12, p
assert "at most" in p["bound"], p
assert m["profile:clearing"]["value"] == p["clearing_pct"] and m["profile:clearing"]["unit"] == "%"
assert 1 <= len(p["top"]) <= 5
shares = [t["share_pct"] for t in p["top"]]
assert shares == sorted(shares, reverse=True) and sum(shares) <= 100 + 1e-9, shares
for t in p["top"]:
    assert m["profile:" + t["symbol"]]["value"] == t["share_pct"], t
    assert t["kernel"] == ("@" not in t["symbol"]) or t["symbol"].startswith("["), t
clearing = sum(t["share_pct"] for t in p["top"] if t["clearing"])
assert clearing <= p["clearing_pct"] + 1e-9, (clearing, p)
'
}

@test "without --profile a result has no profile and no profile metrics" {
	run --separate-stderr "$CP" bench --format json mem memset -s 1MB
	[ "$status" -eq 0 ]
	json_check 'assert "profile" not in d[0] and not [m for m in d[0]["metrics"] if m["name"].startswith("profile:")]'
}

@test "--profile-event and --profile-freq are checked" {
	run --separate-stderr "$CP" bench mem memset -s 1MB --profile-event bogus
	refused 2 "invalid value 'bogus' for --profile-event: expected one of cpu-clock, cycles"
	run --separate-stderr "$CP" bench mem memset -s 1MB --profile-freq 0
	refused 2 "--profile-freq must be between 1 and 100000"
}

# profile_refused FIXTURE SETTING FIX: bench --profile under a root that refuses a profile because of
# SETTING: exit 0, a warning naming SETTING and FIX, and a result without a profile (never zeros).
profile_refused() {
	local root
	root=$(refusing_root "$1")
	CLEARPATH_SYSROOT="$root" run --separate-stderr "$CP" bench --format json mem memset -s 1MB --profile
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: no profile: kernel.$2 is "* ]] || { echo "$stderr"; return 1; }
	[[ "$stderr" == *"hint: $3"* ]] || { echo "$stderr"; return 1; }
	json_check '
assert sys.argv[1] in d[0]["profile"]["unavailable"], d[0]
assert not [m for m in d[0]["metrics"] if m["name"].startswith("profile:")], d[0]["metrics"]
' "$2"
	CLEARPATH_SYSROOT="$root" run --separate-stderr "$CP" bench mem memset -s 1MB --profile
	[ "$status" -eq 0 ]
	[[ "$output" == *"# profile: none (kernel.$2 is "* ]]
	[[ "$output" != *"profile:clearing"* ]]
}

@test "perf_event_paranoid too high: a warning naming it and the fix, and no profile (never zeros)" {
	profile_refused paranoid perf_event_paranoid "sysctl -w kernel.perf_event_paranoid=1 (or run as root)"
}

@test "kptr_restrict hiding kernel addresses: a warning naming it and the fix, and no profile" {
	profile_refused kptr kptr_restrict "sysctl -w kernel.kptr_restrict=0"
}

# profile_store: two swprofiles' profiled runs of one benchmark in $STORE.
profile_store() {
	setup_store
	for sw in base patched; do
		run --separate-stderr "$CP" run --quiet --warmups 0 --repeats 2 --swprofile "$sw" --force -- \
			mem mmap -p 4KB -f demand -s 16MB --profile --profile-freq 4000
		[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	done
}

@test "run --profile stores percent classes; show hides them, show --profile compares them per column" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	profile_store
	[ "$(store_sql "SELECT count(*) FROM resultclass WHERE name LIKE '% :profile:clearing' AND unit = '%'")" = 1 ]
	[ "$(store_sql "SELECT count(*) FROM sample s JOIN resultclass r ON r.id = s.resultclass_id
		WHERE r.name LIKE '% :profile:clearing'")" = 4 ]
	run --separate-stderr "$CP" show --format grid
	[ "$status" -eq 0 ]
	[[ "$output" == *"mmap -p 4KB -f demand -s 16MB (bytes/sec)"* ]]
	[[ "$output" != *":profile:"* ]]
	run --separate-stderr "$CP" show --format grid --profile
	[ "$status" -eq 0 ]
	[[ "$output" != *"(bytes/sec)"* ]]
	[[ "$output" == *"mmap -p 4KB -f demand -s 16MB :profile:clearing (%)"* ]]
	[[ "$output" == *"Profile of the timed region (percent of samples; pp: change from base)"* ]]
	line=$(grep '^  clearing (page-clearing functions)' <<<"$output")
	[[ "$line" =~ [0-9.]+%\ +[0-9.]+%\ \([+-][0-9.]+\ pp\) ]] || { echo "$line"; return 1; }
	[[ "$output" == *"bound: result moves at most"*" x X%"* ]]
	# the shares of one profile sum to 100%: no geometric mean of their ratios (JSON: null); a rate's has one
	[[ "$output" != *"geometric mean"* ]]
	run --separate-stderr "$CP" show --format json --profile
	[ "$(jq -c '[.blocks[].geomean]' <<<"$output")" = "[null]" ]
	run --separate-stderr "$CP" show --format json
	[ "$(jq '.blocks[0].geomean.columns | length' <<<"$output")" = 2 ]
}

@test "profile classes survive export and import: show --profile is the same from the copy" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	profile_store
	run --separate-stderr "$CP" show --format grid --profile
	before=$output
	"$CP" export --store "$STORE" "$D/all.csv"
	"$CP" import --store "$D/copy.db" "$D/all.csv"
	run --separate-stderr "$CP" show --format grid --profile --store "$D/copy.db"
	[ "$status" -eq 0 ]
	# the samples' CSV carries no session environment: how they were sampled is then not known
	[ "$(grep '^  sampled with' <<<"$before" | tr -s ' ')" = " sampled with cpu-clock at 4000 Hz cpu-clock at 4000 Hz" ]
	[ "$(grep '^  sampled with' <<<"$output" | tr -s ' ')" = " sampled with not recorded not recorded" ]
	[ "$(grep -v '^  sampled with' <<<"$output")" = "$(grep -v '^  sampled with' <<<"$before")" ]
	run --separate-stderr "$CP" show --format json --profile --store "$D/copy.db"
	json_check '
rs = [r for b in d["blocks"] for r in b["results"]]
assert rs and all(":profile:" in r["resultclass"] and r["unit"] == "%" for r in rs), rs
c = [r for r in rs if r["resultclass"].endswith(" :profile:clearing")]
assert len(c) == 1 and [x["swprofile"] for x in c[0]["columns"]] == ["base", "patched"], c
assert all(x["n"] == 2 and 0 <= x["mean"] <= 100 for x in c[0]["columns"]), c'
}

# prof_session SWPROFILE HZ [STORE]: one profiled run of a small mmap, sampled at HZ, into $STORE (or STORE).
prof_session() {
	run --separate-stderr "$CP" run --store "${3:-$STORE}" --quiet --warmups 0 --repeats 1 --swprofile "$1" --force -- \
		mem mmap -p 4KB -f demand -s 16MB --profile --profile-freq "$2"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
}

@test "the store keeps how each profile was sampled; show --profile says it per column, and when sessions differ" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	setup_store
	prof_session base 1000
	prof_session patched 1000
	prof_session patched 250
	# each session's environment: the benchmark as show names it, the event and the frequency
	store_sql "SELECT environment FROM session ORDER BY id" | python3 -c '
import json, sys
recs = [json.loads(l)["profile"] for l in sys.stdin]
want = lambda hz: [{"benchmark": "mem mmap -p 4KB -f demand -s 16MB", "event": "cpu-clock", "hz": hz}]
assert recs == [want(1000), want(1000), want(250)], recs'
	# a session without --profile records nothing
	"$CP" run --quiet --warmups 0 --repeats 1 --swprofile base --force -- mem memset -s 1MB >/dev/null 2>&1
	[ "$(store_sql "SELECT count(*) FROM session WHERE environment LIKE '%\"profile\"%'")" = 3 ]
	run --separate-stderr "$CP" show --profile --format grid
	[ "$status" -eq 0 ]
	re=$'\n  sampled with  +cpu-clock at 1000 Hz  +differs \\(below\\)\n'
	[[ "$output" =~ $re ]] || { echo "$output"; return 1; }
	[[ "$output" == *$'\n  (patched sampled: differs: cpu-clock at 1000 Hz in 1 session, cpu-clock at 250 Hz in 1)\n'* ]]
	run --separate-stderr "$CP" show --profile --format json
	[ "$status" -eq 0 ]
	json_check '
(p,) = d["blocks"][0]["profiles"]
assert p["benchmark"] == "mem mmap -p 4KB -f demand -s 16MB", p
base, patched = p["columns"]
assert base["sampling"]["ways"] == [{"event": "cpu-clock", "hz": 1000, "sessions": 1}], base
assert base["sampling"]["text"] == "cpu-clock at 1000 Hz" and base["runs"] == 1, base
assert [w["hz"] for w in patched["sampling"]["ways"]] == [1000, 250] and patched["sessions"] == 2, patched
assert p["symbols"][0]["symbol"] == "clearing" and p["symbols"][0]["clearing"], p["symbols"][0]'
	# a session stored before clearpath recorded it: not recorded, never a default
	store_sql "UPDATE session SET environment = json_remove(environment, '$.profile')
		WHERE swprofile_id = (SELECT id FROM swprofile WHERE name = 'base')"
	run --separate-stderr "$CP" show --profile --format grid
	re=$'\n  sampled with  +not recorded  +differs \\(below\\)\n'
	[[ "$output" =~ $re ]] || { echo "$output"; return 1; }
}

@test "how a profile was sampled survives export --whole (CSV, JSON) -> import and merge: show --profile the same" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	setup_store
	prof_session base 1000
	prof_session patched 250
	"$CP" show --profile --format grid >"$D/a.txt"
	grep -q '^  sampled with  *cpu-clock at 1000 Hz  *cpu-clock at 250 Hz$' "$D/a.txt"
	whole_copies
	want=$(store_sql "SELECT uuid, environment FROM session ORDER BY uuid")
	for db in csv json m; do
		[ "$(STORE=$D/$db.db store_sql "SELECT uuid, environment FROM session ORDER BY uuid")" = "$want" ]
		"$CP" show --store "$D/$db.db" --profile --format grid >"$D/$db.txt"
		diff -u "$D/a.txt" "$D/$db.txt"
	done
	# and a copy exported again is the same bytes
	"$CP" export --store "$D/m.db" --whole --format json "$D/m.json"
	cmp "$D/a.json" "$D/m.json"
}

@test "a plan's profile: true profiles its bench benchmarks; profile: false and the default do not" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	setup_store
	cat > "$D/p.yaml" <<'YAML'
defaults: {warmups: 0, repeats: 1, profile: true}
benchmarks:
  - mem mmap -p 4KB -f demand -s 256MB
  - bench: mem memset
    args: {s: 1MB}
    profile: false
YAML
	run --separate-stderr "$CP" plan run "$D/p.yaml"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(store_sql "SELECT count(*) FROM resultclass WHERE name LIKE 'mmap% :profile:clearing'")" = 1 ]
	[ "$(store_sql "SELECT count(*) FROM resultclass WHERE name LIKE 'memset% :profile:%'")" = 0 ]
	printf 'benchmarks:\n  - bench: mem memset\n    profile: yes\n' > "$D/bad.yaml"
	run --separate-stderr "$CP" plan validate "$D/bad.yaml"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"profile must be true or false, not 'yes'"* ]]
}

@test "a plan's profile_freq and profile_event: each benchmark samples so, its sessions record it, show says it" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	setup_store
	cat > "$D/p.yaml" <<'YAML'
defaults: {warmups: 0, repeats: 1, profile_freq: 500}
benchmarks:
  - mem mmap -p 4KB -f demand -s 16MB
  - bench: mem memset
    args: {s: 64MB}
    profile_event: cpu-clock
    profile_freq: 4000
YAML
	run --separate-stderr "$CP" plan run "$D/p.yaml"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	# memset's -f is all: an entry for each of its functions, as its results are named
	store_sql "SELECT environment FROM session" | python3 -c '
import json, sys
(rec,) = [json.loads(l)["profile"] for l in sys.stdin]
mmap = {"benchmark": "mem mmap -p 4KB -f demand -s 16MB", "event": "cpu-clock", "hz": 500}
assert mmap in rec, rec
rec.remove(mmap)
assert {"benchmark": "mem memset -f default -s 64MB", "event": "cpu-clock", "hz": 4000} in rec, rec
assert len(rec) > 1 and all(e["benchmark"].startswith("mem memset -f ") and e["hz"] == 4000 for e in rec), rec'
	run --separate-stderr "$CP" show --profile --format json
	[ "$status" -eq 0 ]
	json_check '
got = {p["benchmark"]: p["columns"][0]["sampling"]["text"] for p in d["blocks"][0]["profiles"]}
assert got.pop("mem mmap -p 4KB -f demand -s 16MB") == "cpu-clock at 500 Hz", got
assert "mem memset -f default -s 64MB" in got and set(got.values()) == {"cpu-clock at 4000 Hz"}, got'
}

@test "show --profile --columns param:f: each function's column sampled as its sessions recorded it, by parameters" {
	can_profile || skip "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid) and not root"
	setup_store
	# the session samples another benchmark otherwise: the row's name (without -f) is no entry's
	cat > "$D/p.yaml" <<'YAML'
defaults: {warmups: 0, repeats: 1, profile: true, profile_freq: 500}
benchmarks:
  - mem mmap -p 4KB -f demand,populate -s 16MB
  - bench: mem memset
    args: {s: 1MB, f: default}
    profile_freq: 4000
YAML
	run --separate-stderr "$CP" plan run "$D/p.yaml"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	run --separate-stderr "$CP" show --profile --columns param:f --benchmark 'mem/mmap' --format grid
	[ "$status" -eq 0 ]
	[ "$(grep '^  sampled with' <<<"$output" | tr -s ' ')" = " sampled with cpu-clock at 500 Hz cpu-clock at 500 Hz" ] ||
		{ echo "$output"; return 1; }
	run --separate-stderr "$CP" show --profile --columns param:f --benchmark 'mem/mmap' --format json
	json_check '
(p,) = d["blocks"][0]["profiles"]
assert [c["sampling"]["ways"] for c in p["columns"]] == [[{"event": "cpu-clock", "hz": 500, "sessions": 1}]] * 2, p'
}

@test "a plan's profile_freq and profile_event are checked, with the line: range, not a number, unknown event" {
	run --separate-stderr "$CP" plan validate tests/fixtures/plans/profile-freq-zero.yaml
	refused 2 "profile-freq-zero.yaml:4:19: profile_freq must be a whole number from 1 to 100000, not '0'"
	run --separate-stderr "$CP" plan validate tests/fixtures/plans/profile-freq-word.yaml
	refused 2 "profile-freq-word.yaml:6:19: profile_freq must be a whole number from 1 to 100000, not 'fast'"
	run --separate-stderr "$CP" plan validate tests/fixtures/plans/profile-event.yaml
	refused 2 "profile-event.yaml:4:18: profile_event must be cpu-clock or cycles, not 'instructions'"
	printf 'benchmarks:\n  - bench: mem memset\n    profile_frq: 100\n' > "$BATS_TEST_TMPDIR/typo.yaml"
	run --separate-stderr "$CP" plan validate "$BATS_TEST_TMPDIR/typo.yaml"
	refused 2 "typo.yaml:3:5: unknown key 'profile_frq'" "profile_freq"
	run --separate-stderr "$CP" plan validate tests/fixtures/plans/profile.yaml
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
}

@test "doctor reports whether --profile can work, with the setting and the fix" {
	root=$(refusing_root paranoid)
	CLEARPATH_SYSROOT="$root" run "$CP" doctor
	line=$(unwrapped "$output" | grep '^WARN  perf.profile')
	[[ "$line" == *"kernel.perf_event_paranoid is 2"* ]] || { echo "$output"; return 1; }
	unwrapped "$output" | grep -q 'fix: sysctl -w kernel.perf_event_paranoid=1'
	root=$(refusing_root kptr)
	CLEARPATH_SYSROOT="$root" run "$CP" doctor
	unwrapped "$output" | grep -q '^WARN  perf.profile *no kernel symbols: .*kptr_restrict is 2'
}

@test "a refused profile stores no profile classes: the report draws no profile section, never zeros" {
	setup_store
	root=$(refusing_root paranoid)
	CLEARPATH_SYSROOT="$root" run --separate-stderr "$CP" run --quiet --warmups 0 --repeats 1 -- \
		mem memset -s 1MB --profile
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$stderr" == *"no profile: kernel.perf_event_paranoid is "* ]] || { echo "$stderr"; return 1; }
	[ "$(store_sql "SELECT count(*) FROM resultclass WHERE name LIKE '%:profile:%'")" = 0 ]
	need_cairo
	run --separate-stderr "$CP" report -o "$D/r.html"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	grep -qF 'data-panels="[{&quot;title&quot;:&quot;memset ' "$D/r.html"
	! grep -q -e 'class="profile"' -e ':profile:' -e 'Where the time goes' "$D/r.html"
}

@test "doctor says what a profile costs in a virtual machine, and the default frequency" {
	root=$(refusing_root ok)
	CLEARPATH_SYSROOT="$root" run "$CP" doctor
	line=$(unwrapped "$output" | grep '^PASS  perf.profile')
	[[ "$line" == *"in a virtual machine each sample (a timer interrupt) costs tens of us"* ]] || { echo "$output"; return 1; }
	[[ "$line" == *"(the default is $(default_freq) Hz; bench/profile measures it)"* ]]
}
