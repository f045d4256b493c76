#!/usr/bin/env bats
# vm arm64: a local kexec campaign inside an arm64 guest (qemu-system-aarch64, TCG) between Debian's two cloud-arm64 kernels.
#
# The guest is tests/vm/mkinitrd-arm64's (VM_ARM64: its two kernels and a busybox initramfs whose
# init plays systemd's part: it runs the campaign unit's ExecStart after each boot, and the
# kexec method's `systemctl kexec` is kexec -e).  One qemu run holds the whole campaign: the
# first boot is qemu's direct boot of the 6.1 kernel, every later one a kexec the campaign asked
# for, with `options: [-i]` (no purgatory checksum: 35-50 s a boot under TCG).  The static arm64
# clearpath (ARM64_BIN) runs it; the store comes back on the data disk and is checked here
# against the guest's own log of which kernel each boot ran.  Run by `make check-vm`.

bats_require_minimum_version 1.5.0
load vm

K_OLD=6.1.0-57-cloud-arm64
K_NEW=6.12.117+deb12-cloud-arm64

setup() {
	vm_setup_dirs
	[ -n "${VM_ARM64:-}" ] && [ -e "$VM_ARM64/initrd.img" ] || { echo "no arm64 guest: run 'make check-vm' (VM_ARM64=${VM_ARM64:-})"; return 1; }
	install -m 755 "${ARM64_BIN:?the static arm64 clearpath (make static-arm64)}" "$D/data/clearpath"
	mkdir -p "$D/data/boot"
	cp "$VM_ARM64/vmlinuz-$K_OLD" "$VM_ARM64/vmlinuz-$K_NEW" "$VM_ARM64/initrd.img" "$D/data/boot/"
}
teardown() { vm_teardown; }

# vm_qemu_arm64 SECONDS: the guest from its first boot (the 6.1 kernel) until it powers off (a
# panic reboots, which ends qemu: -no-reboot).
vm_qemu_arm64() {
	vm_qemu_run "$1" qemu-system-aarch64 -M virt -cpu cortex-a57 -m 1024 \
		-kernel "$D/data/boot/vmlinuz-$K_OLD" -initrd "$D/data/boot/initrd.img" -append "console=ttyAMA0 panic=1" \
		-drive file="$D/data.img",format=raw,if=virtio -nic none
}

@test "vm arm64 kexec: campaign start --yes alternates two real cloud-arm64 kernels, 2 boots each; the unit's command continues after each boot" {
	cat >"$D/data/plan.yaml" <<EOF2
name: vm-arm64
swprofiles:
  old: {boot: {method: kexec, kernel: /data/boot/vmlinuz-$K_OLD, initrd: /data/boot/initrd.img, cmdline: keep, options: [-i]}}
  new: {boot: {method: kexec, kernel: /data/boot/vmlinuz-$K_NEW, initrd: /data/boot/initrd.img, cmdline: keep, options: [-i]}}
defaults: {warmups: 0, repeats: 2}
benchmarks:
  - exec: {name: rate, command: "echo rate 42", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	# seed 4: new old new old, each boot a kexec into the other kernel
	guest_start --boots 2 --seed 4
	vm_data_pack 160M
	t0=$(date +%s)
	vm_qemu_arm64 "$(( 5 * VM_BOOT_SECONDS ))" || { echo "qemu failed or timed out (exit $?): see $SERIAL"; return 1; }
	echo "# guest finished in $(( $(date +%s) - t0 )) s" >&3
	vm_has finished || { echo "the guest powered off before the campaign ended: see $SERIAL"; return 1; }
	fetch_results
	check_sessions 4
	[ "$(sql "select group_concat(swprofile, ' ') from (select swprofile from campaign_boot order by pos)")" = "new old new old" ]
	# the kexec method's commands ran for real, with the plan's option: 4 loads, 4 kexecs (the
	# first boot's in start.log, the unit's on the console)
	vm_get start.log "$D/start.log"
	cat "$D/start.log" "$SERIAL" | tr -d '\r' >"$D/console"
	[ "$(grep -c "^+ kexec -l -i /data/boot/vmlinuz-" "$D/console")" -eq 4 ] || { grep -n 'kexec' "$D/console"; return 1; }
	[ "$(grep -c "^systemctl: kexec -e" "$D/console")" -eq 4 ]
	[ "$(grep -c "kexec_core: Starting new kernel" "$D/console")" -eq 4 ]
	# the unit's own command line took the guest's boots 2 to 5 (start took the first)
	[ "$(grep -c '^vmtest: unit: /data/clearpath campaign continue 1 --store /data/store.db$' "$D/console")" -eq 4 ]
	run "$CP" show --store "$STORE"
	[ "$status" -eq 0 ]
	[[ "$output" == *old* && "$output" == *new* ]]
}
