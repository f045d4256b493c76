#!/usr/bin/env bats
# campaign_lab: campaigns of several machines in one store a lab shares: one per machine at once,
# each found by its id or target, never another machine's; machines a test stands in for by
# their SUT names (--sut), each with its own simulated boots and unit directory.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	setup_store
	boot_tool_standins "$D/bin"
	export PATH="$D/bin:$PATH"
}

teardown() {
	[ ! -e "$D/ran" ] || { echo "a boot tool ran: $(cat "$D/ran")"; return 1; }
}

sql() {
	store_sql "$1"
}

# A plan whose boots are simulated by command (the controller stops after each boot, as after a
# reboot), and one whose fake boots run to the end at once.
plans() {
	cat >"$D/cmd.yaml" <<EOF
swprofiles:
  base:  {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-base"]}, expect: {release: 6.18.0-base}}
  patch: {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-patch"]}, expect: {release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
	cat >"$D/fake.yaml" <<EOF
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base}}
  patch: {boot: {method: fake, release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
}

# "Machine" $1 (a SUT name): its own simulated boots and unit directory, then clearpath with the rest.
on() {
	local m=$1
	shift
	mkdir -p "$D/$m/units"
	CLEARPATH_FAKE_BOOT=$D/$m/boot CLEARPATH_SYSTEMD_DIR=$D/$m/units "$CP" "$@"
}

@test "campaign lab: one campaign per machine at once in one store; a second on the same machine is refused" {
	plans
	on box-a campaign start "$D/cmd.yaml" --boots 1 --seed 1 --yes --sut box-a >/dev/null
	# another machine's campaign starts beside it (one store, one running campaign per machine)
	run on box-b campaign start "$D/cmd.yaml" --boots 1 --seed 2 --yes --sut box-b
	[ "$status" -eq 0 ]
	[ "$(sql "select count(*) from campaign where status = 'running'")" -eq 2 ]
	run sql "select machine from campaign_machine where running = 1 order by campaign_id"
	[ "${lines[*]}" = "local:$(hostname)/box-a local:$(hostname)/box-b" ]
	# the same machine again: refused, naming the campaign it is in
	run --separate-stderr on box-a campaign start "$D/cmd.yaml" --boots 1 --yes --sut box-a
	refused 2 "local is in campaign 1, which is running in this store (as local:$(hostname)/box-a)" \
		"'clearpath campaign continue 1'"
	[ "$(sql "select count(*) from campaign")" -eq 2 ]
	# on this one host both are this machine's: continue without an id guesses neither
	run --separate-stderr on box-a campaign continue
	refused 2 "2 campaigns are running on or from this machine, $(hostname) in this store: 2 (local), 1 (local)" \
		"campaign continue ID"
	# by id: each goes on alone, under its own machine class, to its end
	for k in 1 2; do
		on "box-$([ $k = 1 ] && echo a || echo b)" campaign continue $k >/dev/null
		on "box-$([ $k = 1 ] && echo a || echo b)" campaign continue $k >/dev/null
	done
	[ "$(sql "select group_concat(status, ' ') from (select status from campaign order by id)")" = "done done" ]
	run sql "select u.name, count(*) from session s join sut u on u.id = s.sut_id group by u.name order by u.name"
	[ "${lines[*]}" = "box-a|2 box-b|2" ]
	# the machine is free again
	on box-a campaign start "$D/fake.yaml" --boots 1 --seed 3 --sut box-a >/dev/null
	[ "$(sql "select status from campaign where id = 3")" = done ]
}

@test "campaign lab: status lists every campaign (text and JSON); status, continue and abort take an id or a target" {
	plans
	on box-a campaign start "$D/cmd.yaml" --boots 1 --seed 1 --yes --sut box-a >/dev/null
	on box-b campaign start "$D/fake.yaml" --boots 1 --seed 2 --sut box-b >/dev/null
	run --separate-stderr "$CP" campaign status --all
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "campaign 2: done, 2 of 2 boots done, targets local; started "*" on $(hostname)" ]]
	[[ "${lines[1]}" == "campaign 1: running, 0 of 2 boots done, targets local; started "*" on $(hostname)" ]]
	run --separate-stderr "$CP" campaign status --all --format json
	[ "$status" -eq 0 ]
	json_check 'assert [c["id"] for c in d] == [2, 1], d
assert [c["state"] for c in d] == ["done", "running"], d'
	# by target: this machine's running campaign ("local"), here campaign 1 alone
	run "$CP" campaign status local
	[[ "${lines[0]}" == "campaign 1: running"* ]]
	# with none running of this machine, status shows the newest it ran
	on box-a campaign abort local >/dev/null
	run "$CP" campaign status
	[[ "${lines[0]}" == "campaign 2: done"* ]]
	run --separate-stderr "$CP" campaign abort
	refused 2 "no campaign is running on or from this machine, $(hostname) in this store"
	run --separate-stderr "$CP" campaign continue root@box9
	refused 2 "no campaign is running on target root@box9 in this store"
	run --separate-stderr "$CP" campaign status --all 2
	refused 2 "it takes no ID or target"
	run --separate-stderr "$CP" campaign continue --all
	refused 2 "--all is for 'campaign status'"
}

@test "campaign lab: --sut names this machine's class for the campaign's sessions; hosts keep their own" {
	plans
	on box-q campaign start "$D/fake.yaml" --boots 1 --seed 1 --sut "queue box" >/dev/null
	[ "$(sql "select distinct u.name from session s join sut u on u.id = s.sut_id")" = "queue box" ]
	[ "$(sql "select json_extract(spec, '$.sut') from campaign")" = "queue box" ]
	run --separate-stderr "$CP" campaign start "$D/fake.yaml" --boots 1 --sut box --host root@box1
	refused 2 "--sut names this machine's class: hosts keep the class each detects"
	run --separate-stderr "$CP" campaign start "$D/fake.yaml" --boots 1 --sut $'x\xff'
	refused 2 "invalid value for --sut: not valid UTF-8"
	run --separate-stderr "$CP" campaign status --sut box
	refused 2 "--sut is for 'campaign start'"
	[ "$(sql "select count(*) from campaign")" -eq 1 ]
}

@test "campaign lab: a campaign from before machines were named is still this machine's; one ended by hand frees its machine" {
	plans
	on box-a campaign start "$D/cmd.yaml" --boots 1 --seed 1 --yes --sut box-a >/dev/null
	# as schema v10 left it: no machine named (the migration calls it legacy:local#ID)
	sql "update campaign_machine set machine = 'legacy:local#1'" >/dev/null
	run on box-a campaign continue
	[ "$status" -eq 0 ]
	# ended by hand (its status set): its machine goes to the next campaign
	sql "update campaign set status = 'aborted'" >/dev/null
	sql "update campaign_machine set machine = 'local:$(hostname)/box-a'" >/dev/null
	on box-a campaign start "$D/fake.yaml" --boots 1 --seed 2 --sut box-a >/dev/null
	[ "$(sql "select status from campaign where id = 2")" = done ]
}
