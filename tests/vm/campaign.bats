#!/usr/bin/env bats
# vm campaign: a local kexec campaign inside a real x86_64 guest (qemu, TCG) between two real kernels.
#
# The static clearpath runs `campaign start --yes` inside the guest; its systemd unit takes every
# later boot; the store comes back on the data disk and is checked here, against the guest's own
# log of which kernel each boot ran.  Run by `make check-vm` (VM_IMAGE, STATIC_BIN, CLEARPATH).

bats_require_minimum_version 1.5.0
load vm

setup() { vm_setup_local; }
teardown() { vm_teardown; }

@test "vm kexec: campaign start --yes alternates two real kernels, 2 boots each; the unit continues after each boot" {
	kexec_plan "$D/data/plan.yaml"
	# seed 4: new old new old, each boot a kexec from the other kernel but the first
	guest_start --boots 2 --seed 4
	vm_data_pack
	vm_run_until_off 6
	fetch_results
	check_sessions 4
	# the host's clearpath reads the guest's store: the table of both swprofiles
	run "$CP" show --store "$STORE"
	[ "$status" -eq 0 ]
	[[ "$output" == *old* && "$output" == *new* ]]
	[ "$(sql "select group_concat(swprofile, ' ') from (select swprofile from campaign_boot order by pos)")" = "new old new old" ]
}
