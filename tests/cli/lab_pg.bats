#!/usr/bin/env bats
# lab_pg.bats: a lab in one PostgreSQL store (tests/pg-server): three machines, stood in for by three
# processes with their own SUT names, simulated boots, command lines and unit directories, run one
# plan's campaign at once; nothing refused or lost, each machine's table and the fleet summary right.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	pg_file_start
}

teardown_file() {
	pg_file_stop
}

setup() {
	pg_test_db lab
	boot_tool_standins "$D/bin"
	export PATH="$D/bin:$PATH"
}

teardown() {
	[ ! -e "$D/ran" ] || { echo "a boot tool ran: $(cat "$D/ran")"; return 1; }
}

pg_sql() {
	tests/pg-server psql "$PGDIR" -d "$DB" -c "$1"
}

MACHINES="box-a box-b box-c"

# Machine $1's console (its own command line, which every boot of it keeps) and base rate.
console_of() {
	case $1 in
	box-a) echo "console=ttyAMA0,115200 quiet" ;;
	box-b) echo "console=ttyS0,115200n8 quiet" ;;
	box-c) echo "console=hvc0 quiet" ;;
	esac
}
rate_of() {
	case $1 in box-a) echo 100 ;; box-b) echo 200 ;; box-c) echo 400 ;; esac
}

# The plan every machine runs: the patch is 5% faster on every machine; each session's repeats agree,
# its level differs from the other sessions' by a per-mille or two (the boot id picks it).
lab_plan() {
	cat >"$D/lab.yaml" <<'PLAN'
name: labplan
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base, cmdline_from: machine}}
  patch: {boot: {method: fake, release: 6.18.0-patch, cmdline_from: machine}}
defaults: {warmups: 0, repeats: 3}
benchmarks:
  - exec:
      name: rate
      command: >-
        j=$(( 0x$(head -c 2 "$CLEARPATH_FAKE_BOOT/boot_id") % 5 ));
        case $(cat "$CLEARPATH_FAKE_BOOT/release") in *patch) f=1050 ;; *) f=1000 ;; esac;
        echo "rate $(( LAB_RATE * (f + j) ))"
      regex: 'rate ([0-9.]+)'
      unit: GB/sec
      higher_is_better: true
PLAN
}

# Machine $1: its simulated boot (its console on the base kernel), its unit directory, its config
# (pgpass) directory, its rate; then clearpath with the rest.
on() {
	local m=$1
	shift
	CLEARPATH_FAKE_BOOT=$D/$m/boot CLEARPATH_SYSTEMD_DIR=$D/$m/units XDG_CONFIG_HOME=$D/$m/config \
		LAB_RATE=$(rate_of "$m") "$CP" "$@"
}

@test "lab: three machines run one plan's campaign into one PostgreSQL store at once: nothing refused or lost, each table and the fleet right" {
	lab_plan
	for m in $MACHINES; do
		mkdir -p "$D/$m/units"
		on "$m" campaign fake-boot --release 6.18.0-base --cmdline "$(console_of "$m")" >/dev/null
	done
	local pids=() rc=0
	for m in $MACHINES; do
		on "$m" campaign start "$D/lab.yaml" --boots 3 --seed 7 --yes --sut "$m" --store "$PG" \
			>"$D/$m.out" 2>"$D/$m.err" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=$?
	done
	for m in $MACHINES; do
		echo "== $m"; cat "$D/$m.out" "$D/$m.err"
	done
	[ "$rc" -eq 0 ]
	# nothing refused, warned or retried on any machine
	! grep -iE 'refus|error|warning|another run|still running' "$D"/box-*.err
	for m in $MACHINES; do
		grep -q "done: 6 boots" "$D/$m.out"
	done
	# one campaign per machine, each done, each its own machine's
	run pg_sql "select c.status, m.machine from campaign c join campaign_machine m on m.campaign_id = c.id order by m.machine"
	[ "${lines[*]}" = "done|local:$(hostname)/box-a done|local:$(hostname)/box-b done|local:$(hostname)/box-c" ]
	run --separate-stderr "$CP" campaign status --all --store "$PG" --format json
	[ "$status" -eq 0 ]
	json_check 'assert sorted((c["state"], c["boots_done"], c["boots_total"], c["sessions"]) for c in d) == [("done", 6, 6, 6)] * 3, d'
	# every session once, whole: 3 boots of each kernel per machine, 3 samples each
	run pg_sql "select u.name, p.name, count(*), count(distinct s.uuid), sum(s.complete) from session s
		join sut u on u.id = s.sut_id join swprofile p on p.id = s.swprofile_id group by u.name, p.name order by 1, 2"
	[ "${lines[*]}" = "box-a|base|3|3|3 box-a|patch|3|3|3 box-b|base|3|3|3 box-b|patch|3|3|3 box-c|base|3|3|3 box-c|patch|3|3|3" ]
	[ "$(pg_sql 'select count(*) from sample')" -eq 54 ]
	[ "$(pg_sql 'select count(distinct boot_id) from session')" -eq 18 ]
	# each machine's command line is its own, kept per (swprofile, SUT class): none refused another's
	for m in $MACHINES; do
		run pg_sql "select count(*) from swprofile_sut ps join sut u on u.id = ps.sut_id
			where u.name = '$m' and ps.fingerprint like '%$(console_of "$m" | cut -d' ' -f1)%'"
		[ "$output" -eq 2 ]
	done
	# each machine's table: its base level is the mean of its base sessions' levels, its change the
	# patch's mean over it, as the store's rows say (repeats within a session agree: no outliers)
	run pg_sql "select u.name, p.name, avg(l.v) from (select session_id, avg(value) v from sample group by session_id) l
		join session s on s.id = l.session_id join sut u on u.id = s.sut_id join swprofile p on p.id = s.swprofile_id
		group by u.name, p.name order by 1, 2"
	printf '%s\n' "${lines[@]}" >"$D/levels"
	"$CP" show --store "$PG" --format json >"$D/show.json"
	python3 - "$D/levels" "$D/show.json" <<'PY'
import json, math, sys
levels = {}
for line in open(sys.argv[1]):
    sut, swp, v = line.strip().split("|")
    levels[(sut, swp)] = float(v)
d = json.load(open(sys.argv[2]))
assert [b["sut"] for b in d["blocks"]] == ["box-a", "box-b", "box-c"], [b["sut"] for b in d["blocks"]]
for b in d["blocks"]:
    (r,) = b["results"]
    base, patch = r["columns"]
    assert base["swprofile"] == "base" and base["sessions"] == 3 and patch["sessions"] == 3, (base, patch)
    assert math.isclose(base["level"], levels[(b["sut"], "base")], rel_tol=1e-12), (base, levels)
    want = 100 * (levels[(b["sut"], "patch")] / levels[(b["sut"], "base")] - 1)
    assert math.isclose(patch["change_pct"], want, rel_tol=1e-9), (patch["change_pct"], want)
    assert 4.5 < patch["change_pct"] < 5.5 and patch["state"] == "improvement", patch
(f,) = d["fleet"]
assert [s["sut"] for s in f["suts"]] == ["box-a", "box-b", "box-c"], f
for s, b in zip(f["suts"], d["blocks"]):
    base, patch = b["results"][0]["columns"]
    assert s["base_level"] == base["level"] and s["change_pct"] == patch["change_pct"], (s, base, patch)
    assert (s["change_ci95_low"], s["change_ci95_high"], s["state"]) == \
        (patch["change_ci95_low"], patch["change_ci95_high"], patch["state"]), (s, patch)
PY
	# and the text: each fleet line is its machine's cells, a line per machine
	"$CP" show --store "$PG" --format grid >"$D/grid.txt"
	"$CP" show --store "$PG" --format grid --stats >"$D/stats.txt"
	run python3 "$BATS_TEST_DIRNAME/fleet_check.py" "$D/grid.txt" "$D/stats.txt" 3
	[ "$output" = "3 fleet lines agree with their tables" ] || { echo "$output"; cat "$D/grid.txt"; return 1; }
}

@test "lab: the fake method's cmdline_from takes only 'machine', never beside a cmdline, and needs the machine's line" {
	cat >"$D/bad.yaml" <<'PLAN'
swprofiles:
  base: {boot: {method: fake, release: 1, cmdline_from: grub}}
benchmarks:
  - mem memset -f default -s 64KB -l 1
PLAN
	run --separate-stderr env CLEARPATH_FAKE_BOOT="$D/boot" "$CP" campaign start "$D/bad.yaml" --boots 1 --yes --store "$PG"
	refused 2 "cmdline_from takes 'machine'" "it has 'grub'"
	sed -i 's/cmdline_from: grub/cmdline_from: machine, cmdline: quiet/' "$D/bad.yaml"
	run --separate-stderr env CLEARPATH_FAKE_BOOT="$D/boot" "$CP" campaign start "$D/bad.yaml" --boots 1 --yes --store "$PG"
	refused 2 "and no cmdline beside it"
	sed -i 's/, cmdline: quiet//' "$D/bad.yaml"
	run --separate-stderr env CLEARPATH_FAKE_BOOT="$D/boot" "$CP" campaign start "$D/bad.yaml" --boots 1 --yes --store "$PG"
	refused 2 "$D/boot/cmdline does not exist"
	[ "$(pg_sql "select count(*) from information_schema.tables where table_name = 'campaign'")" -eq 0 ] ||
		[ "$(pg_sql 'select count(*) from campaign')" -eq 0 ]
}
