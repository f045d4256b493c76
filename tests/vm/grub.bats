#!/usr/bin/env bats
# vm grub: local campaigns inside a real x86_64 guest booting two real kernels through GRUB (grub-reboot, a real reboot).
#
# As campaign.bats, with boot method grub: each boot is a fresh qemu through firmware and GRUB,
# which boots the entry grub-reboot chose once.  A wrong expect: is caught after such a boot.
# Run by `make check-vm` (VM_IMAGE, STATIC_BIN, CLEARPATH).

bats_require_minimum_version 1.5.0
load vm

setup() { vm_setup_local; }
teardown() { vm_teardown; }

# grub_plan [EXPECT_OLD]: old and new, each a GRUB menu entry booted once with grub-reboot; old's
# swprofile may expect another kernel than its entry boots.
grub_plan() {
	local expect=
	[ -z "${1:-}" ] || expect=", expect: {release: $1}"
	cat >"$D/data/plan.yaml" <<EOF2
name: vm-grub
swprofiles:
  old: {boot: {method: grub, entry: "Debian GNU/Linux, with Linux $K_OLD"}$expect}
  new: {boot: {method: grub, entry: "Debian GNU/Linux, with Linux $K_NEW"}}
defaults: {warmups: 0, repeats: 2}
benchmarks:
  - exec: {name: rate, command: "echo rate 42", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
}

@test "vm grub: grub-reboot and a real reboot alternate two real kernels, 2 boots each" {
	grub_plan
	guest_start --boots 2 --seed 4
	vm_data_pack
	vm_run_until_off 6
	fetch_results
	check_sessions 4
	[ "$(sql "select group_concat(swprofile, ' ') from (select swprofile from campaign_boot order by pos)")" = "new old new old" ]
	# each boot a fresh qemu: a real reboot through firmware and GRUB, not a kexec
	[ "$(grep -c '^=== qemu started' "$SERIAL")" -eq 5 ]
}

@test "vm grub: a wrong expect is caught after a real boot, nothing measured under it" {
	grub_plan "$K_NEW"
	# seed 1: old first, whose entry boots $K_OLD while its swprofile expects $K_NEW
	guest_start --boots 1 --seed 1
	vm_data_pack
	vm_run_until_off 3
	fetch_results
	[ "$(sql "select status from campaign")" = failed ]
	[ "$(sql "select swprofile || '|' || status || '|' || release from campaign_boot where pos = 0")" = "old|error|$K_OLD" ]
	[[ "$(sql "select message from campaign_boot where pos = 0")" == "booted kernel $K_OLD, expected $K_NEW; nothing was measured under this boot" ]]
	bad=$(sql "select boot_id from campaign_boot where pos = 0")
	# the guest did boot $K_OLD under that boot id, and nothing was measured there
	grep -q "^$bad $K_OLD " "$D/boots"
	[ "$(sql "select count(*) from session where boot_id = '$bad'")" -eq 0 ]
	[ "$(sql "select count(*) from session")" -eq 0 ]
	[[ "$(sql "select message from campaign")" == *"expected $K_NEW"* ]]
}
