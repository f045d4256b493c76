#!/usr/bin/env bats
# campaign: `clearpath campaign` on this machine with simulated boots (fake, and command boots that
# simulate one); the real boot methods only as --dry-run goldens: nothing here reboots anything.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	setup_store
	export CLEARPATH_FAKE_BOOT="$D/boot"
	# never the real unit directory
	export CLEARPATH_SYSTEMD_DIR="$D/units"
	mkdir -p "$CLEARPATH_SYSTEMD_DIR"
	# were anything to try a real boot, these stand in for the real tools and leave a trace
	boot_tool_standins "$D/bin"
	export PATH="$D/bin:$PATH"
	GOLDEN="$BATS_TEST_DIRNAME/../golden/campaign"
}

teardown() {
	[ ! -e "$D/ran" ] || { echo "a boot tool ran: $(cat "$D/ran")"; return 1; }
}

sql() {
	store_sql "$1"
}

# The plan $D/ab.yaml: two fake kernels and one quick exec benchmark; extra swprofile keys in $1, $2.
ab_plan() {
	cat >"$D/ab.yaml" <<EOF
name: ab
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base, cmdline: "root=/dev/vda1 ro"} $1}
  patch: {boot: {method: fake, release: 6.18.0-patch, cmdline: "root=/dev/vda1 ro"}, cmdline: "init_on_alloc=0" $2}
defaults: {warmups: 0, repeats: 2}
benchmarks:
  - exec: {name: rate, command: "echo rate 42.5", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
}

@test "campaign fake: N boots per swprofile, interleaved, one session per boot with its own boot id" {
	ab_plan
	run "$CP" campaign start "$D/ab.yaml" --boots 3 --seed 5
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign 1 done: 6 boots, one session each"* ]]
	# the table of the campaign's swprofiles, base first
	[[ "$output" == *"base (base)"* ]]
	[[ "$output" == *"patch"* ]]
	[ "$(sql "select status from campaign")" = "done" ]
	[ "$(sql "select count(*) from campaign_boot where status = 'done'")" -eq 6 ]
	[ "$(sql "select count(*) from campaign_boot where swprofile = 'base'")" -eq 3 ]
	# interleaved: each round of two boots has both swprofiles
	[ "$(sql "select count(distinct swprofile) from campaign_boot group by pos / 2" | sort -u)" = "2" ]
	# the order is stored in the spec too, and it is the boots' order
	[ "$(sql "select group_concat(value, ' ') from (select j.value from campaign, json_each(campaign.spec, '$.order') j order by j.key)")" = \
	  "$(sql "select group_concat(swprofile, ' ') from (select swprofile from campaign_boot order by pos)")" ]
	# one complete session per boot, each under the boot id the boot recorded, all different
	[ "$(sql "select count(*) from session where complete = 1")" -eq 6 ]
	[ "$(sql "select count(distinct boot_id) from session")" -eq 6 ]
	[ "$(sql "select count(*) from campaign_boot b join session s on s.uuid = b.session and s.boot_id = b.boot_id")" -eq 6 ]
	[ "$(sql "select count(*) from session s join swprofile w on w.id = s.swprofile_id join campaign_boot b on b.session = s.uuid and b.swprofile = w.name")" -eq 6 ]
	# the release (and the cmdline it was booted with) in each swprofile's fingerprint
	[ "$(sql "select name, json_extract(fingerprint, '$.kernel_release') from swprofile order by name" | tr '\n' ' ')" = \
	  "base|6.18.0-base patch|6.18.0-patch " ]
	[ "$(sql "select json_extract(fingerprint, '$.cmdline') from swprofile where name = 'patch'")" = "root=/dev/vda1 ro init_on_alloc=0" ]
	# status tells the same
	run "$CP" campaign status 1
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "campaign 1: done, 6 of 6 boots done" ]]
	[ "$(printf '%s\n' "$output" | grep -c '^local .* done ')" -eq 6 ]
	# a done campaign does not go on, and says where its table is
	run "$CP" campaign continue 1
	[ "$status" -eq 2 ]
	[[ "$output" == *"campaign 1 is done, not running"*"hint: its boots are all done: 'clearpath show' prints its table"* ]]
}

@test "campaign fake: an emulated clearpath (CLEARPATH_EMULATOR) runs its simulated boots through the emulator" {
	ab_plan
	# a stand-in emulator that logs what it runs, then runs it (through qemu under make check-arm64)
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec %s "$@"\n' "$D/emu.log" "${CLEARPATH_EMULATOR:-}" >"$D/emu"
	chmod +x "$D/emu"
	CLEARPATH_EMULATOR=$D/emu run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 5
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 2 boots, one session each"* ]]
	# each boot's fake-boot ran as the emulator's program, the very binary running the campaign
	[ "$(grep -c " campaign fake-boot --release 6.18.0-" "$D/emu.log")" -eq 2 ]
	read -r first _ < <(grep " campaign fake-boot " "$D/emu.log")
	[ "$first" = "$(cp_exe)" ]
}

@test "campaign fake: the order is the seed's, the same seed gives the same order" {
	ab_plan
	run "$CP" campaign start "$D/ab.yaml" --boots 4 --seed 9 --dry-run
	[ "$status" -eq 0 ]
	order=$(printf '%s\n' "$output" | sed -n 's/^order: //p')
	[ "$(printf '%s\n' "$order" | wc -w)" -eq 8 ]
	"$CP" campaign start "$D/ab.yaml" --boots 4 --seed 9 >/dev/null
	[ "$(sql "select group_concat(swprofile, ' ') from (select swprofile from campaign_boot order by pos)")" = "$order" ]
	[ "$(sql "select json_extract(spec, '$.seed') from campaign")" = 9 ]
}

@test "campaign: a boot with the wrong kernel is caught, recorded, and nothing is measured under it" {
	cat >"$D/wrong.yaml" <<'EOF'
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base}}
  patch: {boot: {method: fake, release: 6.18.0-base}, expect: {release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
	run "$CP" campaign start "$D/wrong.yaml" --boots 2 --seed 1
	[ "$status" -eq 3 ]
	[[ "$output" == *"booted kernel 6.18.0-base, expected 6.18.0-patch; nothing was measured under this boot"* ]]
	[ "$(sql "select status from campaign")" = "failed" ]
	[ "$(sql "select count(*) from campaign_boot where status = 'error' and swprofile = 'patch' and release = '6.18.0-base'")" -eq 1 ]
	# no session under the wrong boot, none for patch at all, and nothing after the failed boot
	bad=$(sql "select boot_id from campaign_boot where status = 'error'")
	[ "$(sql "select count(*) from session where boot_id = '$bad'")" -eq 0 ]
	[ "$(sql "select count(*) from session s join swprofile w on w.id = s.swprofile_id where w.name = 'patch'")" -eq 0 ]
	[ "$(sql "select count(*) from campaign_boot where status = 'pending'")" -ge 1 ]
	run "$CP" campaign status
	[[ "$output" == *"failed"* && *"expected 6.18.0-patch"* ]]
	# a failed campaign is not continued
	run "$CP" campaign continue
	[ "$status" -eq 2 ]
}

# A plan whose boots run the user's commands (method command), here a simulated boot, so the
# reboot path runs for real: the controller stops after each boot, the unit would continue.
cmd_plan() {
	cat >"$D/cmd.yaml" <<EOF
swprofiles:
  base:  {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-base"]}, expect: {release: 6.18.0-base}}
  patch: {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-patch --cmdline 'quiet mitigations=off'"]}, expect: {release: 6.18.0-patch, cmdline_has: mitigations=off}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "[ ! -e '$D/slow' ] || sleep 2; echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
}

@test "campaign local: the unit is installed, each continue takes one boot, the unit goes at the end" {
	cmd_plan
	# rebooting needs --yes off a terminal, and nothing is created without it
	run "$CP" campaign start "$D/cmd.yaml" --boots 2 --seed 3 </dev/null
	[ "$status" -eq 2 ]
	[[ "$output" == *"pass --yes"* ]]
	[ ! -e "$STORE" ] || [ "$(sql "select count(*) from campaign")" -eq 0 ]
	[ ! -e "$D/units/clearpath-campaign.service" ]
	run "$CP" campaign start "$D/cmd.yaml" --boots 2 --seed 3 --yes
	[ "$status" -eq 0 ]
	[[ "$output" == *"rebooting; the clearpath-campaign.service unit runs"* ]]
	[ -f "$D/units/clearpath-campaign.service" ]
	[ "$(readlink "$D/units/multi-user.target.wants/clearpath-campaign.service")" = "$D/units/clearpath-campaign.service" ]
	grep -qxF "ExecStart=\"$(cp_exe)\" \"campaign\" \"continue\" \"1\" \"--store\" \"$STORE\"" "$D/units/clearpath-campaign.service"
	[ "$(sql "select count(*) from session")" -eq 0 ]
	for i in 1 2 3; do
		run "$CP" campaign continue
		[ "$status" -eq 0 ] || { echo "continue $i: $output"; return 1; }
		[ "$(sql "select count(*) from session where complete = 1")" -eq "$i" ]
		[ -f "$D/units/clearpath-campaign.service" ]
	done
	run "$CP" campaign continue
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign 1 done: 4 boots"* ]]
	[ ! -e "$D/units/clearpath-campaign.service" ]
	[ ! -e "$D/units/multi-user.target.wants/clearpath-campaign.service" ]
	[ "$(sql "select count(distinct boot_id) from session where complete = 1")" -eq 4 ]
	[ "$(sql "select json_extract(fingerprint, '$.cmdline') from swprofile where name = 'patch'")" = "quiet mitigations=off" ]
}

@test "campaign local: a boot that comes back under the kernel it left is pending again with the reason, no unit reboots it again; a person's continue retries it" {
	# the machine runs base; patch's boot does not come up while $D/broken exists, and the
	# machine comes back under base (as a watchdog or GRUB's default entry would bring it back)
	"$CP" campaign fake-boot --release 6.18.0-base >/dev/null
	cat >"$D/flaky.yaml" <<EOF
swprofiles:
  base:  {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-base"]}, expect: {release: 6.18.0-base}}
  patch: {boot: {method: command, commands: ["if [ -e '$D/broken' ]; then r=base; else r=patch; fi; '$CP' campaign fake-boot --release 6.18.0-\$r"]}, expect: {release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
	touch "$D/broken"
	run "$CP" campaign start "$D/flaky.yaml" --boots 1 --seed 3 --yes
	[ "$status" -eq 0 ]
	# the unit's continue after each boot, until patch's boot is checked
	for i in 1 2 3; do
		run "$CP" campaign continue
		[ "$status" -eq 0 ] || break
	done
	[ "$status" -eq 3 ]
	[[ "$output" == *"(patch): boot attempt 1 did not come up: came back under kernel 6.18.0-base, the one it left, not 6.18.0-patch; nothing was measured under it"* ]]
	[[ "$output" == *"'clearpath campaign continue' boots it again"* ]]
	# resumable, not failed: the boot pending again, its failed boot counted, the reason recorded
	[ "$(sql "select status from campaign")" = running ]
	[ "$(sql "select status || '|' || failed_boots || '|' || release from campaign_boot where swprofile = 'patch'")" = "pending|1|6.18.0-base" ]
	[[ "$(sql "select message from campaign_boot where swprofile = 'patch'")" == "boot attempt 1 did not come up: "* ]]
	[ "$(sql "select count(*) from session s join swprofile w on w.id = s.swprofile_id where w.name = 'patch'")" -eq 0 ]
	# no unattended reboot loop: the unit is gone, nothing boots it again by itself
	[ ! -e "$D/units/clearpath-campaign.service" ]
	[ ! -e "$D/units/multi-user.target.wants/clearpath-campaign.service" ]
	run "$CP" campaign status
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign 1: running"* ]]
	[[ "$output" == *"(patch): its last boot did not come up (see below); once the cause is fixed, 'clearpath campaign continue' boots it again"* ]]
	[[ "$output" == *"boot attempt 1 did not come up: came back under kernel 6.18.0-base"* ]]
	run --separate-stderr "$CP" campaign status --format json
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["state"] == "running", d
b = [b for b in d["boots"] if b["swprofile"] == "patch"][0]
assert b["status"] == "pending" and b["failed_boots"] == 1 and "did not come up" in b["error"], b
n = d["targets"][0]["next"]
assert n["step"] == "retry" and n["failed_boots"] == 1 and n["reason"] == b["error"], n
assert d["errors"] == [], d'
	# a person's continue takes it again, once: still broken, it stops again with two counted
	run "$CP" campaign continue
	[ "$status" -eq 0 ]
	[ -f "$D/units/clearpath-campaign.service" ]
	run "$CP" campaign continue
	[ "$status" -eq 3 ]
	[[ "$output" == *"boot attempt 2 did not come up"* ]]
	[ ! -e "$D/units/clearpath-campaign.service" ]
	# the cause fixed, a person's continue puts the unit back and the campaign completes
	rm "$D/broken"
	run "$CP" campaign continue
	[ "$status" -eq 0 ]
	[ -f "$D/units/clearpath-campaign.service" ]
	for i in 1 2 3; do
		run "$CP" campaign continue
		[ "$status" -eq 0 ]
		[ "$(sql "select status from campaign")" = running ] || break
	done
	[[ "$output" == *"campaign 1 done: 2 boots"* ]]
	[ ! -e "$D/units/clearpath-campaign.service" ]
	[ "$(sql "select failed_boots || '|' || coalesce(message, '') from campaign_boot where swprofile = 'patch'")" = "2|" ]
	# every session under the kernel its swprofile asked for
	[ "$(sql "select group_concat(w.name || '=' || json_extract(w.fingerprint, '$.kernel_release'), ' ') from
	    (select * from session where complete = 1 order by id) s join swprofile w on w.id = s.swprofile_id")" != "" ]
	[ "$(sql "select count(*) from session s join swprofile w on w.id = s.swprofile_id join campaign_boot b
	    on b.session = s.uuid and b.swprofile = w.name where s.complete = 1 and b.release = '6.18.0-' || w.name")" -eq 2 ]
}

@test "campaign local: on a terminal, rebooting is asked for; only yes goes on" {
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	cmd_plan
	run script -qec "'$CP' campaign start '$D/cmd.yaml' --boots 1" /dev/null <<<"n"
	[ "$status" -eq 2 ]
	[[ "$output" == *"Go on? [y/N]"*"not confirmed; nothing was started"* ]]
	[ ! -e "$D/units/clearpath-campaign.service" ]
	[ ! -e "$STORE" ] || [ "$(sql "select count(*) from campaign")" -eq 0 ]
	run script -qec "'$CP' campaign start '$D/cmd.yaml' --boots 1" /dev/null <<<"y"
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign 1:"* ]]
	[ -f "$D/units/clearpath-campaign.service" ]
	"$CP" campaign abort >/dev/null
}

@test "campaign: continue with no campaign running removes a unit left behind; status names a missing store" {
	run "$CP" campaign status --store "$D/nowhere/s.db"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no store at $D/nowhere/s.db"* ]]
	[ ! -e "$D/nowhere" ]
	cmd_plan
	"$CP" campaign start "$D/cmd.yaml" --boots 1 --yes >/dev/null
	sql "update campaign set status = 'aborted'" >/dev/null
	run "$CP" campaign continue
	[ "$status" -eq 2 ]
	[[ "$output" == *"no campaign is running"* ]]
	[ ! -e "$D/units/clearpath-campaign.service" ]
	[ ! -e "$D/units/multi-user.target.wants/clearpath-campaign.service" ]
}

@test "campaign local: a boot that never happened (its controller gone, the boot id unchanged) is booted again" {
	cmd_plan
	"$CP" campaign start "$D/cmd.yaml" --boots 1 --seed 3 --yes >/dev/null
	"$CP" campaign continue >/dev/null
	# boot 2 is booting; make it look as if its boot command never took the machine down
	before=$(cat "$D/boot/boot_id")
	sql "update campaign_boot set boot_before = '$before' where status = 'booting'" >/dev/null
	run "$CP" campaign continue
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"still runs the boot it left (boot id ${before:0:8}): booting it again"* ]]
	[[ "$output" == *"boot 2 of 2"* ]]
	[ "$(sql "select status from campaign")" = "running" ]
	[ "$(sql "select count(*) from campaign_boot where status = 'booting'")" -eq 1 ]
	[ "$(sql "select boot_before from campaign_boot where status = 'booting'")" = "$before" ]
	[ -f "$D/units/clearpath-campaign.service" ]
	run "$CP" campaign continue
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign 1 done: 2 boots"* ]]
}

# A process that runs, and the campaign token naming it as its controller (this machine, this boot).
live_holder() {
	sleep 60 &
	HOLDER_PID=$!
	local start host boot
	start=$(awk '{ sub(/.*\) /, ""); print $20 }' /proc/$HOLDER_PID/stat)
	host=$(hostname)
	boot=$(cat /proc/sys/kernel/random/boot_id)
	HOLDER="{\"boot\":\"$boot\",\"host\":\"$host\",\"pid\":$HOLDER_PID,\"start\":$start}"
}

@test "campaign: one controller at a time: a second continue while one runs is refused, the campaign unharmed" {
	cmd_plan
	"$CP" campaign start "$D/cmd.yaml" --boots 1 --seed 3 --yes >/dev/null
	live_holder
	sql "update campaign set owner = '$HOLDER', owner_since = '2026-01-01T00:00:00.000000Z'" >/dev/null
	run --separate-stderr "$CP" campaign continue
	kill "$HOLDER_PID"
	refused 3 "campaign 1 is being advanced by another controller: pid $HOLDER_PID on $(hostname)"
	[ "$(sql "select status from campaign")" = running ]
	[ "$(sql "select count(*) from campaign_boot where status = 'booting'")" -eq 1 ]
	# the holder is gone now: the next continue takes over and goes on
	wait "$HOLDER_PID" 2>/dev/null || true
	run "$CP" campaign continue
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"its last controller (pid $HOLDER_PID on $(hostname)) is gone"* ]]
	# two at once for real: the unit's and the user's; one waits its turn, no session fails
	touch "$D/slow"
	"$CP" campaign continue >"$D/one" 2>&1 &
	local one=$!
	sleep 1
	run --separate-stderr "$CP" campaign continue
	wait "$one" || { cat "$D/one"; return 1; }
	[ "$status" -eq 3 ] || { echo "$stderr"; cat "$D/one"; return 1; }
	[[ "$stderr" == *"is being advanced by another controller"* ]]
	[[ "$(cat "$D/one")" == *"campaign 1 done: 2 boots"* ]]
	[ "$(sql "select status from campaign")" = done ]
	[ "$(sql "select count(*) from campaign_boot where status = 'error'")" -eq 0 ]
	[ "$(sql "select count(*) from session where complete = 0")" -eq 0 ]
	[ "$(sql "select count(*) from campaign where owner is not null")" -eq 0 ]
}

@test "campaign abort: the campaign stops, its unit goes, its sessions stay" {
	cmd_plan
	"$CP" campaign start "$D/cmd.yaml" --boots 2 --seed 3 --yes >/dev/null
	"$CP" campaign continue >/dev/null
	[ "$(sql "select count(*) from session")" -eq 1 ]
	run "$CP" campaign abort
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign 1 aborted"* ]]
	[ "$(sql "select status from campaign")" = "aborted" ]
	[ ! -e "$D/units/clearpath-campaign.service" ]
	[ ! -e "$D/units/multi-user.target.wants/clearpath-campaign.service" ]
	[ "$(sql "select count(*) from session")" -eq 1 ]
	run "$CP" campaign continue
	[ "$status" -eq 2 ]
	[[ "$output" == *"no campaign is running"* ]]
	# where to look, and that an ended campaign does not go on
	[[ "$output" == *"hint: 'clearpath campaign status --all' lists the campaigns of this store, the ended ones too"* ]]
	run "$CP" campaign continue 1
	[ "$status" -eq 2 ]
	[[ "$output" == *"campaign 1 is aborted, not running"* ]]
	[[ "$output" == *"hint: 'clearpath campaign status 1' says why; an ended campaign does not go on: 'clearpath campaign start PLAN --boots N' begins another"* ]]
	run "$CP" campaign abort
	[ "$status" -eq 2 ]
	# a new campaign may start now
	run "$CP" campaign start "$D/cmd.yaml" --boots 1 --seed 3 --yes
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign 2:"* ]]
	"$CP" campaign abort >/dev/null
}

@test "campaign continue: after the controller is killed mid-session, it picks up and completes; the interrupted session is no replicate" {
	# the first session kills the controller (the leader of its session, setsid below), which
	# takes all under it down (the invocation in flight never completes: it waits to be killed);
	# the boot it was in is taken again, its half session stays marked incomplete
	cat >"$D/kill.yaml" <<EOF
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base}}
  patch: {boot: {method: fake, release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: a, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
  - exec: {name: killer, command: "if [ ! -e '$D/killed' ]; then touch '$D/killed'; kill -KILL \$(cut -d' ' -f6 /proc/self/stat); sleep 30; fi; echo rate 2", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
	run setsid -w "$CP" campaign start "$D/kill.yaml" --boots 2 --seed 4
	# killed: 137 from the shell, or 9 from setsid when it had to fork
	[ "$status" -eq 137 ] || [ "$status" -eq 9 ] || { echo "status $status: $output"; return 1; }
	[ -e "$D/killed" ]
	[ "$(sql "select status from campaign")" = "running" ]
	[ "$(sql "select count(*) from campaign_boot where status = 'measuring'")" -eq 1 ]
	run "$CP" campaign continue
	[ "$status" -eq 0 ] || { echo "continue: $status: $output"; return 1; }
	[[ "$output" == *"was interrupted"* ]]
	[[ "$output" == *"campaign 1 done: 4 boots"* ]]
	[ "$(sql "select count(*) from session where complete = 1")" -eq 4 ]
	[ "$(sql "select count(*) from session where complete = 0")" -eq 1 ]
	[ "$(sql "select count(distinct boot_id) from session where complete = 1")" -eq 4 ]
	[ "$(sql "select count(*) from campaign_boot b join session s on s.uuid = b.session and s.complete = 1 and s.boot_id = b.boot_id")" -eq 4 ]
	# 2 boots per swprofile are 2 sessions per column: the half session stays in the store, listed, not counted
	run "$CP" show --format json
	[ "$(printf '%s\n' "$output" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(sorted({c["swprofile"] + ":" + str(c["sessions"]) for b in d["blocks"] for r in b["results"] for c in r["columns"]}))')" = \
	  "['base:2', 'patch:2']" ] || { echo "$output"; return 1; }
	run "$CP" show --header
	[[ "$output" == *"Measured: 4 sessions"* ]]
	run "$CP" campaign status
	[[ "$output" == *"1 interrupted session kept, marked incomplete: not counted (their boots were taken again)"* ]]
	# an export keeps it whole
	"$CP" export --whole "$D/all.csv"
	[ "$(grep -c '^session,' "$D/all.csv")" -eq 5 ] || { head -3 "$D/all.csv"; grep -c session "$D/all.csv"; return 1; }
}

@test "campaign: a boot method that fails is the boot's error; the campaign stops, its unit goes" {
	cat >"$D/fail.yaml" <<'EOF'
swprofiles:
  base: {boot: {method: command, commands: ["echo going down", "exit 7"]}, expect: {release: 6.18.0-base}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
	run "$CP" campaign start "$D/fail.yaml" --boots 1 --yes
	[ "$status" -eq 3 ]
	[[ "$output" == *"+ echo going down"*"going down"*"'exit 7' failed (exit 7)"* ]]
	[ "$(sql "select status from campaign")" = "failed" ]
	[ "$(sql "select message from campaign_boot")" = "the boot method failed" ]
	[ ! -e "$D/units/clearpath-campaign.service" ]
	[ "$(sql "select count(*) from session")" -eq 0 ]
	# the list of campaigns says why it failed, as its own status does
	run --separate-stderr "$CP" campaign status
	[[ "$output" == *$'\nlocal: boot 1 (base): the boot method failed\n'* ]]
	run --separate-stderr "$CP" campaign status --all
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "campaign 1: failed, 0 of 1 boots done, targets local; started "* ]]
	[ "${lines[1]}" = "  local: boot 1 (base): the boot method failed" ] || { echo "$output"; return 1; }
}

@test "campaign start: a \$CLEARPATH_FAKE_BOOT that is a file is named, and no campaign is left running" {
	ab_plan
	echo "not a directory" >"$D/boot"
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"cannot read this machine's boot id"* ]]
	[[ "$stderr" == *"\$CLEARPATH_FAKE_BOOT ($D/boot) names the simulated boot's directory"* ]]
	# it was recorded first and stayed "running": the next start was refused until an abort
	[ "$(sql "select count(*) from campaign" 2>/dev/null || echo 0)" -eq 0 ]
	rm "$D/boot"
	run "$CP" campaign start "$D/ab.yaml" --boots 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign 1 done: 2 boots, one session each"* ]]
}

@test "campaign: bad plans and options are refused with exit 2, saying what is wrong" {
	body='defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: "rate ([0-9.]+)", unit: GB/sec, higher_is_better: true}'
	check() {
		printf 'swprofiles:\n  %s\n%s\n' "$1" "$body" >"$D/bad.yaml"
		run --separate-stderr "$CP" campaign start "$D/bad.yaml" --boots 1
		refused 2 "$2"
	}
	check 'a: {boot: {method: kexek}}' "unknown boot method 'kexek'; nearest: 'kexec'"
	# the key misspelt is named as such, not as a missing method
	check 'a: {boot: {methd: command, commands: ["true"]}}' "unknown key 'methd' in boot; nearest valid key: 'method' (kexec, grub, command, lava or fake)"
	check 'a: {boot: {commands: ["true"]}}' "boot needs a method: kexec, grub, command, lava or fake"
	check 'a: {boot: {method: kexec}}' "boot method kexec needs 'kernel'"
	check 'a: {boot: {method: grub}}' "boot method grub needs 'entry'"
	check 'a: {boot: {method: command}}' "boot method command needs 'commands'"
	check 'a: {boot: {method: fake}}' "boot method fake needs 'release'"
	check 'a: {boot: {method: command, commands: reboot}}' "cannot tell which kernel release its boot gives"
	check 'a: {boot: {method: kexec, kernel: /boot/bzkernel}}' "cannot tell which kernel release its boot gives"
	check 'a: {boot: {method: grub, entry: "Debian GNU/Linux, with Linux 6.1.0"}, cmdline: quiet}' "cmdline cannot be applied by boot method grub"
	check 'a: {boot: {method: fake, release: 1}, sysctl: {../etc/x: 1}}' "is not a sysctl name"
	check 'a: {boot: {method: fake, release: 1}, expect: {kernel: 1}}' "unknown key 'kernel' in expect"
	check 'a: {boot: {method: fake, release: 1, entry: x}}' "unknown key 'entry' in boot"
	check 'a: {expect: {release: 1}}' "swprofile 'a' needs boot"
	check 'a: {boot: {method: kexec, kernel: {a: 1}}}' "kernel must be a value or a list of values"
	check 'a: {boot: {method: kexec, kernel: [a, b]}}' "kernel must be a single value"
	# plan validate reads each boot through its method as a campaign does
	run --separate-stderr "$CP" plan validate "$D/bad.yaml"
	refused 2 "kernel must be a single value"
	# kexec's options are options of kexec -l (before the kernel), not a second file or a command
	for bad in /boot/vmlinuz-other '"-"' '"; reboot"'; do
		check "a: {boot: {method: kexec, kernel: /boot/vmlinuz-1, options: [-i, $bad]}}" \
			"swprofile 'a': kexec options are options of kexec -l"
	done
	# a line break in a release or command line never matches the booted kernel: refused before any boot
	check 'a: {boot: {method: fake, release: "6.1\nx"}}' "release must be one line"
	check 'a: {boot: {method: fake, release: 1}, cmdline: "quiet\nx"}' "cmdline must be one line"
	check 'a: {boot: {method: fake, release: 1}, expect: {cmdline_has: ["a\nb"]}}' "command-line words must be one line"
	printf 'swprofile: x\nswprofiles:\n  a: {boot: {method: fake, release: 1}}\n%s\n' "$body" >"$D/bad.yaml"
	run --separate-stderr "$CP" campaign start "$D/bad.yaml" --boots 1
	refused 2 "either one swprofile or a campaign's swprofiles"
	printf '%s\n' "$body" >"$D/none.yaml"
	run --separate-stderr "$CP" campaign start "$D/none.yaml" --boots 1
	refused 2 "names no swprofiles"
	ab_plan
	run --separate-stderr "$CP" campaign start "$D/ab.yaml"
	refused 2 "needs a plan and --boots N"
	# one limit, the one --help states, whatever is wrong with the number
	limit=$("$CP" campaign --help | sed -n 's/^ *--boots N .*(1 to \([0-9]*\)).*/\1/p')
	[ -n "$limit" ]
	for n in 0 $((limit + 1)) 200000 x; do
		run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots "$n"
		refused 2 "invalid value '$n' for --boots: expected a whole number from 1 to $limit"
	done
	unset CLEARPATH_FAKE_BOOT
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1
	refused 2 "needs CLEARPATH_FAKE_BOOT"
	run --separate-stderr "$CP" campaign frobnicate
	refused 2 "unknown campaign command 'frobnicate'"
	# ssh would read a device for ever and take a directory for no configuration: refused before any connection
	for cfg in /dev/zero "$D"; do
		run --separate-stderr timeout 20 "$CP" campaign start "$D/ab.yaml" --boots 1 --host root@127.0.0.1:1 \
			--ssh-config "$cfg"
		refused 2 "the ssh config $cfg is not a regular file"
		run --separate-stderr timeout 20 "$CP" campaign continue --ssh-config "$cfg"
		refused 2 "the ssh config $cfg is not a regular file"
	done
	[ ! -e "$STORE" ] || [ "$(sql "select count(*) from campaign")" -eq 0 ]
}

@test "campaign start --dry-run: the exact kexec (with its options), grub and command boots and the unit, nothing done" {
	"$CP" campaign fake-boot --release 6.1.0-9-amd64 --cmdline "BOOT_IMAGE=/boot/vmlinuz-6.1.0-9-amd64 root=UUID=1234 ro quiet" >/dev/null
	cat >"$D/real.yaml" <<'EOF'
name: real
swprofiles:
  base:  {boot: {method: kexec, kernel: /boot/vmlinuz-6.18.0-base, initrd: /boot/initrd.img-6.18.0-base, cmdline: keep}}
  patch: {boot: {method: grub, entry: "Debian GNU/Linux, with Linux 6.18.0-patch"}, sysctl: {vm.swappiness: 10}}
  nohz:  {boot: {method: kexec, kernel: /boot/vmlinuz-6.18.0-patch, cmdline: "root=UUID=1234 ro", options: [-i, "--dtb=/boot/a b.dtb"]}, cmdline: "nohz_full=2-3 isolcpus=2-3"}
  lab:   {boot: {method: command, commands: ["ipmitool chassis bootdev disk", "ipmitool power cycle"]}, expect: {release: 6.18.0-lab, cmdline_has: [mitigations=off]}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
	run --separate-stderr "$CP" campaign start "$D/real.yaml" --boots 1 --seed 3 --dry-run
	[ "$status" -eq 0 ]
	# the kernels are not there: a dry run says so and goes on, a start refuses
	[[ "$stderr" == *"swprofile 'base': cannot read /boot/vmlinuz-6.18.0-base"* ]]
	self=$(cp_exe)
	id=$(cat "$D/boot/boot_id")
	printf '%s\n' "$output" | sed -e "s|$D|\$D|g" -e "s|$self|\$CLEARPATH|g" -e "s|^User=$(id -un)\$|User=\$USER|" \
		-e "s|boot id ${id:0:8}|boot id \$BOOT_ID|" >"$D/dry.out"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		mkdir -p "$GOLDEN"
		cp "$D/dry.out" "$GOLDEN/dry-run.txt"
	fi
	diff -u "$GOLDEN/dry-run.txt" "$D/dry.out"
	# nothing was done: no store, no unit, no campaign
	[ ! -e "$STORE" ]
	[ -z "$(ls "$D/units")" ]
	run --separate-stderr "$CP" campaign start "$D/real.yaml" --boots 1 --yes
	refused 2 "swprofile 'base': cannot read /boot/vmlinuz-6.18.0-base"
	[ ! -e "$STORE" ]
	[ -z "$(ls "$D/units")" ]
}

# `campaign status --format json` with what changes from run to run (boot ids, session UUIDs,
# times, the test's directory) replaced by placeholders, keys and order kept.
status_json_normalized() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
def norm(v):
    if isinstance(v, dict):
        return {k: ("<" + k + ">" if k in ("boot_id", "session", "created", "updated", "seconds_per_boot",
                                           "eta_seconds") and x is not None
                    else norm(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, str):
        return v.replace(sys.argv[1], "$D")
    return v
print(json.dumps(norm(d), indent=2))' "$D"
}

@test "campaign status --format json: the text status's facts as one object (golden), next step included" {
	cmd_plan
	run "$CP" campaign start "$D/cmd.yaml" --boots 2 --seed 3 --yes
	[ "$status" -eq 0 ]
	run "$CP" campaign continue
	[ "$status" -eq 0 ]
	# boot 1 done with its session, boot 2 booted and waiting for its check
	run --separate-stderr "$CP" campaign status --format json
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	printf '%s\n' "$output" | status_json_normalized >"$D/status.json"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$D/status.json" "$GOLDEN/status.json"
	fi
	diff -u "$GOLDEN/status.json" "$D/status.json"
	# one boot done of four: the ETA is the three left at the mean of that one so far
	printf '%s\n' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["seconds_per_boot"] > 0, d
assert abs(d["eta_seconds"] - 3 * d["seconds_per_boot"]) <= 0.2, d'
	# the values the placeholders stand for are the store's
	[ "$(printf '%s\n' "$output" | python3 -c 'import json,sys; b=json.load(sys.stdin)["boots"][0]; print(b["boot_id"], b["session"])')" = \
	  "$(sql "select boot_id, session from campaign_boot where pos = 0" | tr '|' ' ')" ]
	# the text says the same next step
	run "$CP" campaign status
	[[ "$output" == *"next: local: boot 2 of 4 (patch): check the boot it comes back with, then measure"* ]]
	# a failed campaign: its error, no next step
	run "$CP" campaign abort
	rm -f "$STORE"
	cat >"$D/wrong.yaml" <<'EOF2'
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base}, expect: {release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	run "$CP" campaign start "$D/wrong.yaml" --boots 1
	[ "$status" -eq 3 ]
	run --separate-stderr "$CP" campaign status 1 --format json
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["state"] == "failed", d
assert d["sessions"] == 0 and d["boots_done"] == 0 and d["boots_total"] == 1, d
assert len(d["errors"]) == 1 and "expected 6.18.0-patch" in d["errors"][0]["error"], d
assert d["targets"] == [{"target": "local", "done": 0, "total": 1, "next": None}], d
assert "expected 6.18.0-patch" in d["message"], d'
	run --separate-stderr "$CP" campaign status --format yaml
	refused 2 "unknown output format 'yaml'"
	run --separate-stderr "$CP" campaign abort --format json
	refused 2 "--format is for 'campaign status'"
}

# A fixture root ($D/root: the vm-x86 machine) whose /etc/default/grub sets GRUB_DEFAULT to $1.
grub_root() {
	rm -rf "$D/root"
	cp -r "$BATS_TEST_DIRNAME/../fixtures/vm-x86" "$D/root"
	mkdir -p "$D/root/etc/default"
	printf '# If you change this file, run update-grub\n%s\nGRUB_TIMEOUT=5\n' "$1" >"$D/root/etc/default/grub"
}

@test "campaign start: a grub boot without GRUB_DEFAULT=saved is refused with the fix; a dry run warns" {
	"$CP" campaign fake-boot --release 6.1.0-9-amd64 --cmdline "root=UUID=1234 ro" >/dev/null
	cat >"$D/grub.yaml" <<'EOF2'
swprofiles:
  base:  {boot: {method: grub, entry: "Debian GNU/Linux, with Linux 6.1.0-9-amd64"}}
  patch: {boot: {method: grub, entry: "Debian GNU/Linux, with Linux 6.18.0-patch"}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	export CLEARPATH_SYSROOT="$D/root"
	for setting in GRUB_DEFAULT=0 'GRUB_DEFAULT="Debian GNU/Linux"' '#GRUB_DEFAULT=saved' ''; do
		grub_root "$setting"
		run --separate-stderr "$CP" campaign start "$D/grub.yaml" --boots 1 --yes
		refused 3 "swprofile 'base' boots with grub-reboot, which takes effect only with GRUB_DEFAULT=saved" \
			"hint: on this machine: set GRUB_DEFAULT=saved in /etc/default/grub, then run update-grub"
		[ ! -e "$STORE" ] || [ "$(sql "select count(*) from campaign")" -eq 0 ]
		[ -z "$(ls "$D/units")" ]
	done
	[[ "$stderr" == *"has GRUB_DEFAULT=0 (not set)"* ]]
	# grub-mkconfig reads grub.d/*.cfg after the file: the last setting is the one that counts
	grub_root 'GRUB_DEFAULT=saved'
	mkdir -p "$D/root/etc/default/grub.d"
	echo 'export GRUB_DEFAULT=0' >"$D/root/etc/default/grub.d/50-cloudimg.cfg"
	run --separate-stderr "$CP" campaign start "$D/grub.yaml" --boots 1 --yes
	refused 3 "has GRUB_DEFAULT=0: the boot would come back with the default kernel"
	echo 'GRUB_DEFAULT="saved"  # one-shot boots' >"$D/root/etc/default/grub.d/90-clearpath.cfg"
	run --separate-stderr "$CP" campaign start "$D/grub.yaml" --boots 1 --dry-run
	[ "$status" -eq 0 ]
	[[ "$stderr" != *GRUB_DEFAULT* ]] || { echo "$stderr"; return 1; }
	# no /etc/default/grub at all: said, and refused
	rm -rf "$D/root/etc"
	run --separate-stderr "$CP" campaign start "$D/grub.yaml" --boots 1 --yes
	refused 3 "this machine's /etc/default/grub cannot be read: No such file or directory"
	# a dry run shows the same, as a warning, and goes on
	grub_root GRUB_DEFAULT=0
	run --separate-stderr "$CP" campaign start "$D/grub.yaml" --boots 1 --dry-run
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: swprofile 'base' boots with grub-reboot, which takes effect only with GRUB_DEFAULT=saved"* ]]
	[[ "$output" == *"grub-reboot 'Debian GNU/Linux, with Linux 6.18.0-patch'"* ]]
	[ ! -e "$STORE" ]
}

# The words systemd makes of the unit's ExecStart= line (systemd.service(5), "Command lines": quotes,
# C escapes, %% and $$), one per line; fails on a word it would not accept.
unit_exec_words() {
	python3 - "$1" <<'PY'
import sys
lines = [l for l in open(sys.argv[1]).read().split("\n") if l.startswith("ExecStart=")]
assert len(lines) == 1, lines
s, i, words = lines[0][len("ExecStart="):], 0, []
while i < len(s):
    if s[i] == " ":
        i += 1
        continue
    assert s[i] == '"', "unquoted word at %r" % s[i:]
    i, w = i + 1, ""
    while s[i] != '"':
        c = s[i]
        if c == "\\":
            i += 1
            assert s[i] in '\\"', "escape %r" % s[i]
            c = s[i]
        elif c in "%$":
            i += 1
            assert s[i] == c, "a lone %r systemd would expand" % c
        w += c
        i += 1
    words.append(w)
    i += 1
print("\n".join(words))
PY
}

@test "campaign local: the unit's command line is quoted for systemd; % \$ \\ \" ' in the store's path reach clearpath as written" {
	command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed (scripts/install-deps installs systemd)"
	cmd_plan
	local w="$D/run%h \$HOME \\x \"q\" it's"
	mkdir -p "$w"
	# a relative --store is resolved against the working directory: that path goes into the unit
	run bash -c 'cd "$1" && "$2" campaign start "$3" --boots 1 --seed 3 --yes --store s.db' _ "$w" "$(readlink -f "$CP")" "$D/cmd.yaml"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	local unit=$D/units/clearpath-campaign.service
	[ -f "$unit" ]
	# one directive per line, no ExecStartPre or any other command of its own
	[ "$(grep -c '^Exec' "$unit")" -eq 1 ]
	run unit_exec_words "$unit"
	[ "$status" -eq 0 ] || { echo "$output"; cat "$unit"; return 1; }
	local words=("${lines[@]}")
	[ "${words[0]}" = "$(cp_exe)" ]
	[ "${words[1]} ${words[2]} ${words[3]} ${words[4]}" = "campaign continue 1 --store" ]
	[ "${words[5]}" = "$w/s.db" ]
	[ "${#words[@]}" -eq 6 ]
	# systemd reads it without a complaint
	run systemd-analyze verify "$unit"
	[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; cat "$unit"; return 1; }
	# and the command it holds names that campaign, in that store
	# (through the emulator under make check-arm64: the unit names the arm64 binary itself)
	run ${CLEARPATH_EMULATOR:+"$CLEARPATH_EMULATOR"} "${words[0]}" campaign status "${words[3]}" --store "${words[5]}"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "campaign 1: running"* ]]
	"$CP" campaign abort --store "$w/s.db" >/dev/null
}

@test "campaign local: a store path with a line break is refused before anything is recorded: no directive can be added" {
	cmd_plan
	# a newline and \' in a directory name wrote an ExecStartPre= that systemd runs as root at the next boot
	local w="$D/x
ExecStartPre=/bin/touch $D/pwned \\'"
	mkdir -p "$w"
	run --separate-stderr bash -c 'cd "$1" && "$2" campaign start "$3" --boots 1 --yes --store s.db' _ "$w" "$CP" "$D/cmd.yaml"
	refused 2 "has a control character"
	[ -z "$(ls "$D/units")" ]
	[ ! -e "$w/s.db" ] || [ "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from campaign").fetchone()[0])' "$w/s.db")" -eq 0 ]
}

@test "campaign local: the unit is written 0644 under umask 000, and never through a link planted in its place" {
	cmd_plan
	run bash -c 'umask 000 && "$1" campaign start "$2" --boots 1 --seed 3 --yes' _ "$CP" "$D/cmd.yaml"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(stat -c %a "$D/units/clearpath-campaign.service")" = 644 ]
	[ -z "$(find "$D/units" -name '*.service.*')" ]
	"$CP" campaign abort >/dev/null
	[ ! -e "$D/units/clearpath-campaign.service" ]
	# a link where the unit goes: refused, and what it points to is not written
	ln -s "$D/target" "$D/units/clearpath-campaign.service"
	run --separate-stderr "$CP" campaign start "$D/cmd.yaml" --boots 1 --seed 3 --yes
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"clearpath-campaign.service exists"* ]]
	[ ! -e "$D/target" ]
	[ -L "$D/units/clearpath-campaign.service" ]
	[ -z "$(find "$D/units" -name '*.service.*')" ]
}

@test "campaign local: only its own campaign removes the unit: other stores, a store that cannot be read, another campaign ending leave it" {
	cmd_plan
	ab_plan
	"$CP" campaign start "$D/cmd.yaml" --boots 2 --seed 3 --yes >/dev/null
	local unit=$D/units/clearpath-campaign.service
	[ -f "$unit" ]
	# a typo, another store: nothing runs there, and the unit is not theirs
	run "$CP" campaign continue --store "$D/typo.db"
	[ "$status" -eq 2 ]
	[ -f "$unit" ]
	CLEARPATH_FAKE_BOOT=$D/boot2 "$CP" campaign start "$D/ab.yaml" --boots 1 --store "$D/other.db" >/dev/null
	run "$CP" campaign abort --store "$D/other.db"
	[ "$status" -eq 2 ]
	[ -f "$unit" ]
	# another store's campaign that runs to its end
	CLEARPATH_FAKE_BOOT=$D/boot2 run "$CP" campaign start "$D/ab.yaml" --boots 1 --store "$D/third.db"
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign 1 done"* ]]
	[ -f "$unit" ]
	[ -L "$D/units/multi-user.target.wants/clearpath-campaign.service" ]
	# the store cannot be read at boot (a server not up yet, a disk not mounted): the unit stays for the next boot
	mv "$STORE" "$D/away.db"
	run "$CP" campaign continue 1 --store "$STORE"
	[ "$status" -ne 0 ]
	[ -f "$unit" ]
	mv "$D/away.db" "$STORE"
	# its own campaign goes on, and ends: then the unit goes
	for i in 1 2 3 4; do "$CP" campaign continue 1 >/dev/null || { echo "continue $i"; return 1; }; done
	[ "$(sql "select status from campaign")" = done ]
	[ ! -e "$unit" ]
}

@test "campaign local: with a PostgreSQL store the unit waits for the network" {
	command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed (scripts/install-deps installs systemd)"
	"$CP" campaign fake-boot --release 6.1.0-9-amd64 --cmdline "root=UUID=1234 ro" >/dev/null
	cat >"$D/k.yaml" <<'EOF2'
swprofiles:
  base: {boot: {method: command, commands: ["true"]}, expect: {release: 6.1.0-9-amd64}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	run --separate-stderr "$CP" campaign start "$D/k.yaml" --boots 1 --dry-run --store "postgresql://u@127.0.0.1:1/db"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" == *"After=multi-user.target network-online.target"*"Wants=network-online.target"* ]]
	printf '%s\n' "$output" | sed -n '/^\[Unit\]/,/^WantedBy/p' >"$D/pg.service"
	run systemd-analyze verify "$D/pg.service"
	[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; cat "$D/pg.service"; return 1; }
	# a file store needs no network
	run --separate-stderr "$CP" campaign start "$D/k.yaml" --boots 1 --dry-run
	[[ "$output" != *network-online* ]]
}

@test "campaign abort stops a running controller before its next boot" {
	# the first session aborts the campaign from outside, as another shell would
	cat >"$D/abort.yaml" <<EOF2
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base}}
  patch: {boot: {method: fake, release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "[ -e '$D/aborted' ] || { touch '$D/aborted'; '$CP' campaign abort >/dev/null; }; echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	run --separate-stderr "$CP" campaign start "$D/abort.yaml" --boots 3 --seed 3
	[ "$status" -eq 2 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$stderr" == *"campaign 1 was aborted while it ran: stopped before boot 2 of 6 of local"* ]]
	[[ "$output" != *"campaign 1 done"* ]]
	[ "$(sql "select status from campaign")" = aborted ]
	[ "$(sql "select count(*) from campaign_boot where status = 'done'")" -eq 1 ]
	[ "$(sql "select count(*) from campaign_boot where status = 'pending'")" -eq 5 ]
	[ "$(sql "select count(*) from session")" -eq 1 ]
}

@test "campaign: a signal during the boot command stops the controller, not the campaign; SIGKILL there too" {
	# the first boot's command signals its controller (its parent) while it runs
	boot_plan() {
		cat >"$D/sig.yaml" <<EOF2
swprofiles:
  base:  {boot: {method: command, commands: ["[ -e '$D/sent' ] || { touch '$D/sent'; kill -$1 \$PPID; sleep 2 >/dev/null 2>&1; }", "'$CP' campaign fake-boot --release 6.18.0-base"]}, expect: {release: 6.18.0-base}}
  patch: {boot: {method: command, commands: ["[ -e '$D/sent' ] || { touch '$D/sent'; kill -$1 \$PPID; sleep 2 >/dev/null 2>&1; }", "'$CP' campaign fake-boot --release 6.18.0-patch"]}, expect: {release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	}
	local sig
	for sig in TERM INT KILL; do
		rm -f "$STORE" "$D/sent" "$D/units/clearpath-campaign.service" "$D/units/multi-user.target.wants/"*
		boot_plan "$sig"
		# SIGINT as a terminal sends it: not ignored, as a script's `make check &` would leave it
		run setsid -w env --default-signal=INT "$CP" campaign start "$D/sig.yaml" --boots 1 --seed 2 --yes
		[ -e "$D/sent" ] || { echo "$sig: $output"; return 1; }
		[ "$status" -ne 0 ]
		[ "$(sql "select status from campaign")" = running ] || { echo "$sig: $output"; return 1; }
		[ "$(sql "select count(*) from campaign_boot where status = 'error'")" -eq 0 ]
		[ -f "$D/units/clearpath-campaign.service" ]
		# continue boots it again and goes on to the end
		for i in 1 2 3 4; do
			run "$CP" campaign continue
			[ "$status" -eq 0 ] || { echo "$sig, continue $i: $output"; return 1; }
			[[ "$output" != *"campaign 1 done"* ]] || break
		done
		[[ "$output" == *"campaign 1 done: 2 boots"* ]] || { echo "$sig: $output"; return 1; }
		[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
	done
	# started with SIGINT ignored (nohup, `cmd &` in a script) it stays ignored: the boot goes on to the wait
	rm -f "$STORE" "$D/sent" "$D/units/clearpath-campaign.service" "$D/units/multi-user.target.wants/"*
	boot_plan INT
	run setsid -w env --ignore-signal=INT "$CP" campaign start "$D/sig.yaml" --boots 1 --seed 2 --yes
	[ -e "$D/sent" ]
	[ "$status" -eq 0 ] || { echo "ignored INT: $output"; return 1; }
	[[ "$output" == *"rebooting; the clearpath-campaign.service unit runs"* ]] || { echo "ignored INT: $output"; return 1; }
}

@test "campaign: the shutdown a boot starts stops the controller (in the boot command or the wait): the boot is checked, not taken again" {
	# as on a real machine: the boot happens, then the shutdown's SIGTERM reaches the controller while
	# its boot command (systemctl kexec) still runs ($1 = cmd), or while it waits for the boot ($1 = wait)
	boot_plan() {
		local sw kill
		{
			echo "swprofiles:"
			for sw in base patch; do
				if [ "$1" = cmd ]; then
					kill="'$CP' campaign fake-boot --release 6.18.0-$sw; kill -TERM \$PPID; sleep 2 >/dev/null 2>&1"
				else
					kill="c=\$PPID; ( sleep 1; kill -TERM \$c; sleep 1; '$CP' campaign fake-boot --release 6.18.0-$sw; touch '$D/up' ) >/dev/null 2>&1 &"
				fi
				echo "  $sw: {boot: {method: command, commands: [\"echo $sw >>'$D/booted'; $kill\"]}, expect: {release: 6.18.0-$sw}}"
			done
			echo "defaults: {warmups: 0, repeats: 1}"
			echo "benchmarks:"
			echo "  - exec: {name: rate, command: \"echo rate 1\", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}"
		} >"$D/shut.yaml"
	}
	local how i
	for how in cmd wait; do
		rm -f "$STORE" "$D/booted" "$D/up" "$D/units/clearpath-campaign.service" "$D/units/multi-user.target.wants/"*
		boot_plan "$how"
		run setsid -w "$CP" campaign start "$D/shut.yaml" --boots 1 --seed 2 --yes
		[ "$status" -ne 0 ] || { echo "$how: $output"; return 1; }
		[ "$how" = cmd ] || { for i in $(seq 50); do [ -e "$D/up" ] && break; sleep 0.1; done; rm -f "$D/up"; }
		[ "$(sql "select status from campaign")" = running ] || { echo "$how: $output"; return 1; }
		# the boot it was stopped in stays booting: whether it happened is the next controller's to check
		[ "$(sql "select status from campaign_boot where pos = 0")" = booting ] || { echo "$how: $output"; return 1; }
		for i in 1 2 3 4; do
			run "$CP" campaign continue
			[ "$how" = cmd ] || { for j in $(seq 50); do [ -e "$D/up" ] && break; sleep 0.1; done; rm -f "$D/up"; }
			[[ "$output" != *"campaign 1 done"* ]] || break
		done
		[[ "$output" == *"campaign 1 done: 2 boots"* ]] || { echo "$how: $output"; return 1; }
		# each boot booted once, each measured under its own boot
		[ "$(wc -l <"$D/booted")" -eq 2 ] || { echo "$how: booted $(cat "$D/booted" | tr '\n' ' ')"; return 1; }
		[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
		[ "$(sql "select count(distinct boot_id) from session")" -eq 2 ]
	done
}

@test "campaign local: a boot method that never takes the machine down leaves the boot pending, not booting for ever" {
	cat >"$D/noboot.yaml" <<'EOF2'
swprofiles:
  base: {boot: {method: command, commands: ["true"]}, expect: {release: 6.18.0-base}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	run --separate-stderr "$CP" campaign start "$D/noboot.yaml" --boots 1 --yes --boot-timeout 1
	[ "$status" -eq 3 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$stderr" == *"local: boot 1 (base): local still runs the boot it left; the boot is pending again"* ]]
	[ "$(sql "select status from campaign_boot")" = pending ]
	[ "$(sql "select status from campaign")" = running ]
	[ "$(sql "select json_extract(spec, '$.boot_timeout') from campaign")" -eq 1 ]
}

@test "campaign: progress lines and status say boots done, left, the time per boot so far and the ETA" {
	ab_plan
	run "$CP" campaign start "$D/ab.yaml" --boots 2 --seed 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"local: boot 1 of 4: "*"; 0 done, 4 left"* ]]
	[[ "$output" =~ "local: boot 4 of 4: "[a-z]+" (fake); 3 done, 1 left, "[0-9]+s" per boot so far, about "[0-9]+s" to go" ]]
	# every boot's start and end are kept
	[ "$(sql "select count(*) from campaign_boot where started is not null and finished >= started")" -eq 4 ]
	# a campaign stopped in the middle of a session: no controller runs it, status says so
	cmd_plan
	rm -f "$STORE"
	"$CP" campaign start "$D/cmd.yaml" --boots 1 --seed 3 --yes >/dev/null
	"$CP" campaign continue >/dev/null
	sql "update campaign_boot set status = 'measuring' where status = 'booting'" >/dev/null
	run "$CP" campaign status
	[[ "$output" == *"no controller advances it now: 'clearpath campaign continue' goes on where it stopped"* ]]
	[[ "$output" =~ "per boot so far, about "[0-9]+s" to go" ]]
	[[ "$(grep '^local  *2 ' <<<"$output")" == *" stopped "* ]]
	"$CP" campaign abort >/dev/null
}

@test "campaign: a seed from 2^63 up is recorded and shown as given" {
	ab_plan
	run "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 18446744073709551615
	[ "$status" -eq 0 ]
	[[ "$output" == *"seed 18446744073709551615"* ]]
	run "$CP" campaign status
	[[ "$output" == *"seed 18446744073709551615,"* ]]
	run "$CP" campaign status --format json
	[ "$(printf '%s\n' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["seed"])')" = 18446744073709551615 ]
	# the same order as the dry run's with that seed
	run "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 18446744073709551615 --dry-run --store "$D/other.db"
	[ "$(sed -n 's/^order: //p' <<<"$output")" = "$(sql "select group_concat(swprofile, ' ') from (select swprofile from campaign_boot order by pos)")" ]
}

@test "campaign: Ctrl-C in a session hints 'campaign continue', never 'plan run --resume', and continue goes on without a word of it" {
	cat >"$D/int.yaml" <<EOF2
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base}}
  patch: {boot: {method: fake, release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "[ -e '$D/int' ] || { touch '$D/int'; kill -INT -\$(cut -d' ' -f6 /proc/self/stat); sleep 5; }; echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	# a terminal's Ctrl-C reaches the controller's whole process group; a terminal's foreground
	# job has SIGINT at its default, where `make check &` in a script leaves it ignored (and a
	# program keeps an ignored SIGINT ignored, as clearpath does)
	run --separate-stderr setsid -w env --default-signal=INT "$CP" campaign start "$D/int.yaml" --boots 1 --seed 4
	[ -e "$D/int" ]
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"clearpath campaign continue"* ]] || { echo "$stderr"; return 1; }
	[[ "$stderr$output" != *"--resume"* ]] || { echo "$stderr"; return 1; }
	[ "$(sql "select status from campaign")" = running ]
	run --separate-stderr "$CP" campaign continue
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$stderr$output" != *"resume"* ]] || { echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 2 boots"* ]]
}

@test "campaign: rows a writer role wrote by hand are refused with exit 2, never a crash; a --host too long for the store is refused" {
	ab_plan
	"$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 >/dev/null
	local good
	good=$(sql "select spec from campaign where id = 1")
	for spec in '[]' '"x"' '{"targets": [1], "swprofiles": ["base", "patch"], "order": ["base", "patch"], "boots": 1, "seed": "3", "mode": "local"}' \
		'{"targets": ["local"], "swprofiles": [null], "order": ["base"], "boots": 1, "seed": 3, "mode": "local"}' \
		'{"targets": ["local"], "swprofiles": ["base", "patch"], "order": ["other"], "boots": 1, "seed": 3, "mode": "local"}' \
		'{"targets": ["local"], "swprofiles": ["base", "patch"], "order": ["base", "patch"], "boots": "x", "seed": 3, "mode": "local"}' \
		'not json'; do
		sql "update campaign set spec = '$spec'" >/dev/null
		for fmt in text json; do
			run --separate-stderr "$CP" campaign status --format "$fmt"
			refused 2 "campaign 1 in this store is not one clearpath wrote" || { echo "spec $spec"; return 1; }
		done
	done
	sql "update campaign set spec = '$(sed "s/'/''/g" <<<"$good")'" >/dev/null
	run "$CP" campaign status
	[ "$status" -eq 0 ]
	# a boot of a target the campaign does not have, a position past its order, a name too long for its field
	sql "insert into campaign_boot (campaign_id, target, pos, swprofile, status, updated) values (1, 'elsewhere', 0, 'base', 'pending', 'x')" >/dev/null
	run --separate-stderr "$CP" campaign status
	refused 2 "a boot names a target"
	sql "update campaign_boot set target = 'local', pos = 7 where target = 'elsewhere'" >/dev/null
	run --separate-stderr "$CP" campaign status
	refused 2 "a boot names a target, swprofile, status or position"
	sql "update campaign_boot set target = '$(printf 'h%.0s' $(seq 300))', pos = 0 where pos = 7" >/dev/null
	run --separate-stderr "$CP" campaign status
	refused 2 "does not fit what a campaign can be"
	# --host longer than the store keeps: refused, not cut and then matched by nothing ("done" with nothing run)
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --store "$D/h.db" --host "$(printf 'h%.0s' $(seq 256))"
	refused 2 "--host takes a name of at most 255 characters, not 256"
	[ ! -e "$D/h.db" ]
}

@test "campaign: a plan edited between boots (or a file it includes) is refused, not mixed into the campaign" {
	mkdir -p "$D/p/inc"
	cat >"$D/p/inc/bench.yaml" <<'EOF2'
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	cat >"$D/p/cmd.yaml" <<EOF2
swprofiles:
  base:  {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-base"]}, expect: {release: 6.18.0-base}}
  patch: {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-patch"]}, expect: {release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
include: [inc/bench.yaml]
EOF2
	"$CP" campaign start "$D/p/cmd.yaml" --boots 1 --seed 3 --yes >/dev/null
	[ "$(sql "select count(*) from campaign, json_each(campaign.spec, '$.plan_files')")" -eq 2 ]
	cp "$D/p/inc/bench.yaml" "$D/bench.orig"
	sed -i 's/echo rate 1/echo rate 80/' "$D/p/inc/bench.yaml"
	run --separate-stderr "$CP" campaign continue
	refused 2 "plan file $(readlink -f "$D/p/inc/bench.yaml") changed since campaign 1 started"
	[ "$(sql "select count(*) from session")" -eq 0 ]
	cp "$D/bench.orig" "$D/p/inc/bench.yaml"
	echo "# a comment is a change too" >>"$D/p/cmd.yaml"
	run --separate-stderr "$CP" campaign continue
	refused 2 "plan file $(readlink -f "$D/p/cmd.yaml") changed since campaign 1 started"
	sed -i '$d' "$D/p/cmd.yaml"
	run "$CP" campaign continue
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(sql "select count(*) from session where complete = 1")" -eq 1 ]
	"$CP" campaign abort >/dev/null
}

@test "campaign: a simulated boot is never passed off as a kernel: run says so, the session records it, show --header, the report and doctor flag it" {
	ab_plan
	"$CP" campaign fake-boot --release 6.18.0-fake >/dev/null
	run --separate-stderr "$CP" plan run --sessions 1 "$D/ab.yaml"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$stderr" == *"are a simulated boot's (CLEARPATH_FAKE_BOOT=$D/boot), not this kernel's"* ]]
	[ "$(sql "select count(*) from session where environment like '%\"boot.simulated\"%'")" -eq 1 ]
	run "$CP" show --header
	[[ "$output" == *"Doctor WARN boot.simulated in 1 of 1 session: $D/boot: the boot id, kernel release and cmdline come from a simulated boot"* ]]
	# (where the build draws reports: the arm64 one, without cairo, says it cannot)
	if report_drawn -o "$D/report.md"; then
		grep -q 'boot.simulated' "$D/report.md"
	fi
	run "$CP" doctor
	[[ "$output" == *"WARN  boot.simulated"* ]]
	# a real boot says nothing of it, and its session is not marked
	unset CLEARPATH_FAKE_BOOT
	run "$CP" doctor
	[[ "$output" != *"boot.simulated"* ]]
	run --separate-stderr "$CP" plan run --sessions 1 --swprofile real "$D/ab.yaml"
	[ "$status" -eq 0 ] && [[ "$stderr" != *"simulated boot"* ]]
	[ "$(sql "select count(*) from session where environment like '%\"boot.simulated\"%'")" -eq 1 ]
}

@test "campaign: a simulated boot_id that is a FIFO or empty is unreadable: never waited on, never a changed boot id" {
	ab_plan
	mkdir -p "$D/boot"
	mkfifo "$D/boot/boot_id"
	run --separate-stderr timeout 60 "$CP" campaign start "$D/ab.yaml" --boots 1
	[ "$status" -eq 3 ] || { echo "status $status: $stderr"; return 1; }
	[[ "$stderr" == *"cannot read this machine's boot id"* ]]
	rm "$D/boot/boot_id"
	: >"$D/boot/boot_id"
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1
	[ "$status" -eq 3 ] && [[ "$stderr" == *"cannot read this machine's boot id"* ]]
	[ "$(sql "select count(*) from campaign" 2>/dev/null || echo 0)" -eq 0 ]
	# a boot that leaves an empty boot id has not booted: pending again, nothing measured
	rm -r "$D/boot"
	cat >"$D/empty.yaml" <<EOF2
swprofiles:
  base: {boot: {method: command, commands: ["mkdir -p '$D/boot' && : > '$D/boot/boot_id'"]}, expect: {release: 6.18.0-base}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	run --separate-stderr "$CP" campaign start "$D/empty.yaml" --boots 1 --yes --boot-timeout 1
	[ "$status" -eq 3 ] || { echo "status $status: $output $stderr"; return 1; }
	[ "$(sql "select count(*) from session")" -eq 0 ]
	[ "$(sql "select status from campaign_boot")" != done ]
}

@test "campaign: a 1136-character grub entry reaches grub-reboot whole, never cut at a buffer" {
	entry="Advanced options for Debian GNU/Linux>$(printf 'x%.0s' $(seq 1 1074)) with Linux 6.18.0-patch"
	[ "${#entry}" -eq 1136 ]
	cat >"$D/grub.yaml" <<EOF2
swprofiles:
  patch: {boot: {method: grub, entry: "$entry"}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	run --separate-stderr "$CP" campaign start "$D/grub.yaml" --boots 1 --dry-run
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" == *"+ grub-reboot '$entry'"$'\n'* ]] || { echo "$output"; return 1; }
}

@test "campaign: a store that runs out of memory finding a boot's session is an error, never an interrupted session that boots again" {
	[ -z "${CLEARPATH_EMULATOR:-}" ] || skip "the shim is built for this machine, the binary runs emulated"
	ldd "$CP" 2>/dev/null | grep -q libsqlite3 || skip "a static clearpath: no libsqlite3 to shim"
	# libsqlite3 out of memory for the one query that finds a boot's session
	cat >"$D/nomem.c" <<'EOF2'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **stmt, const char **tail)
{
	int (*real)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **) =
		(int (*)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **))dlsym(RTLD_NEXT, "sqlite3_prepare_v2");
	if (strstr(sql, "WHERE se.boot_id = ?1 AND sw.name = ?2")) {
		*stmt = NULL;
		return 7;	/* SQLITE_NOMEM */
	}
	return real(db, sql, n, stmt, tail);
}
EOF2
	cc -shared -fPIC -o "$D/nomem.so" "$D/nomem.c" -ldl
	cat >"$D/count.yaml" <<EOF2
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	run --separate-stderr env LD_PRELOAD="$D/nomem.so" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		timeout 60 "$CP" campaign start "$D/count.yaml" --boots 2
	[ "$status" -eq 1 ] || { echo "status $status: $stderr"; return 1; }
	# one boot, then the error: the boot is not taken again
	[ "$(grep -c '^local: boot ' <<<"$output")" -eq 1 ] || { echo "$output"; return 1; }
	[[ "$stderr" != *"was interrupted"* ]] || { echo "$stderr"; return 1; }
	[ "$(sql "select status from campaign_boot where pos = 0")" = measuring ]
	[ "$(sql "select status from campaign")" = running ]
	# with memory again, continue measures that boot and goes on
	run "$CP" campaign continue
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(grep -c '^local: boot ' <<<"$output")" -eq 1 ]
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
}

@test "campaign status: a finished campaign's status comes from the store alone; its plan may be gone or edited" {
	ab_plan
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	run --separate-stderr "$CP" campaign status
	[ "$status" -eq 0 ]
	local text=$output
	# edited after the end: status reads what the store holds, not the file
	sed -i 's/6.18.0-patch/6.18.1-patch/' "$D/ab.yaml"
	run --separate-stderr "$CP" campaign status
	[ "$status" -eq 0 ] || { echo "edited: $stderr"; return 1; }
	[ "$output" = "$text" ]
	# gone: status, its JSON and --all still answer
	rm "$D/ab.yaml"
	run --separate-stderr "$CP" campaign status
	[ "$status" -eq 0 ] || { echo "gone: $stderr"; return 1; }
	[ "$output" = "$text" ]
	run --separate-stderr "$CP" campaign status 1 --format json
	[ "$status" -eq 0 ] || { echo "gone, json: $stderr"; return 1; }
	[ "$(jq -r '.state' <<<"$output")" = done ]
	run --separate-stderr "$CP" campaign status --all
	[ "$status" -eq 0 ] || { echo "gone, --all: $stderr"; return 1; }
	[[ "$output" == *"done"* ]]
}
