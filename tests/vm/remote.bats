#!/usr/bin/env bats
# vm remote: a host-side `campaign start --host` drives a real x86_64 guest over ssh through real kexec reboots.
#
# The guest's sshd is forwarded to 127.0.0.1 (user networking, restrict=on) and authorizes a
# throw-away key; the controller copies the static clearpath there itself, is killed once
# mid-campaign (kill -9), and `campaign continue` finishes.  Beside it (this suite is the shortest),
# a local campaign whose kexec'd kernel panics: left running with the reason, then fixed and
# continued.  Run by `make check-vm`.

bats_require_minimum_version 1.5.0
load vm

setup() {
	vm_setup
	# no campaign unit in remote mode: the guest stays up until the test stops it
	touch "$D/data/hold"
}

teardown() {
	[ -z "${CTRL:-}" ] || kill -9 -- "-$CTRL" 2>/dev/null
	vm_supervise_stop
	vm_teardown
}

@test "vm remote: campaign --host through real reboots of the guest, the controller killed midway, continue finishes" {
	kexec_plan "$D/plan.yaml"
	vm_ssh_setup
	vm_data_pack
	vm_supervise_start
	vm_wait_ssh 300 >/dev/null
	# seed 4: new old; killed while the guest reboots into boot 2
	# in a process group of its own: the controller and its per-host child are killed together
	setsid "$CP" campaign start "$D/plan.yaml" --boots 1 --seed 4 --yes --store "$STORE" --host "$VM_DEST" \
		--ssh-config "$D/ssh_config" --boot-timeout 300 >"$D/ctrl1.out" 2>&1 3>&- &
	CTRL=$!
	t0=$(date +%s)
	until [ "$(sql "select status from campaign_boot where pos = 1" 2>/dev/null)" = booting ]; do
		kill -0 "$CTRL" 2>/dev/null || { cat "$D/ctrl1.out"; false; }
		[ $(( $(date +%s) - t0 )) -lt 600 ] || { cat "$D/ctrl1.out"; false; }
		sleep 1
	done
	# 'booting' is before the controller's ssh has asked for the kexec, which a loaded machine can
	# take seconds to get there: killed once the guest is going down for boot 2
	kexecs=$(grep -a -c 'Rebooting with kexec' "$SERIAL" || true)
	until [ "$(grep -a -c 'Rebooting with kexec' "$SERIAL" || true)" -gt "$kexecs" ]; do
		kill -0 "$CTRL" 2>/dev/null || { cat "$D/ctrl1.out"; false; }
		[ $(( $(date +%s) - t0 )) -lt 900 ] || { cat "$D/ctrl1.out"; false; }
		sleep 1
	done
	kill -9 -- "-$CTRL"
	wait "$CTRL" 2>/dev/null || true
	CTRL=
	[ "$(sql "select status from campaign")" = running ]
	[ "$(sql "select status from campaign_boot where pos = 0")" = done ]
	# a host that cannot be reached is a later continue's: wait until the guest is back under a new boot
	vm_wait_ssh 600 "$(sql "select boot_before from campaign_boot where pos = 1")" >/dev/null
	run "$CP" campaign continue --store "$STORE"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(sql "select status from campaign")" = done ]
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
	[ "$(sql "select count(distinct boot_id) from session")" -eq 2 ]
	[ "$(sql "select count(*) from campaign_boot b join session s on s.uuid = b.session and s.boot_id = b.boot_id")" -eq 2 ]
	# each boot the campaign made is a boot of its swprofile's kernel, as the guest itself logged it
	vm_ssh cat /data/boots >"$D/boots"
	sed 's/^/#   /' "$D/boots" >&3
	[ "$(wc -l <"$D/boots")" -eq 3 ]
	[ "$(sed 1d "$D/boots" | cut -d' ' -f1,2)" = "$(sql "select boot_id || ' ' || release from campaign_boot order by pos")" ]
	[ "$(sql "select group_concat(swprofile || '=' || release, ' ') from (select swprofile, release from campaign_boot order by pos)")" = "new=$K_NEW old=$K_OLD" ]
}

# bogus_initrd FILE: an initramfs whose /init cannot run: its kernel panics ("No working init
# found"), panic=5 (the guest's command line, kept by kexec) resets it, and -no-reboot ends qemu.
bogus_initrd() {
	python3 - "$1" <<'PY'
import sys
def entry(ino, name, mode, data):
    name = name.encode() + b"\0"
    fields = (ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name), 0)
    out = b"070701" + b"".join(b"%08X" % v for v in fields) + name
    out += b"\0" * (-len(out) % 4) + data
    return out + b"\0" * (-len(out) % 4)
body = entry(1, "init", 0o100755, b"not a program\n") + entry(0, "TRAILER!!!", 0, b"")
open(sys.argv[1], "wb").write(body + b"\0" * (-len(body) % 512))
PY
}

# Here beside the remote test (the shortest suite), though it is a local campaign in the guest.
@test "vm fault: a kexec'd kernel that panics comes back under GRUB's default: the campaign stays running with the reason, nothing reboots it again; fixed, a person's continue completes it" {
	# a local campaign: the static clearpath on the data disk, and no hold (its unit runs the boots)
	rm "$D/data/hold"
	install -m 755 "${STATIC_BIN:?the static clearpath (make static)}" "$D/data/clearpath"
	kexec_plan "$D/data/plan.yaml"
	# old's initrd is /data/initrd-old, for now one whose kernel cannot boot
	sed -i "s|initrd: /boot/initrd.img-$K_OLD|initrd: /data/initrd-old|" "$D/data/plan.yaml"
	grep -q "initrd: /data/initrd-old" "$D/data/plan.yaml"
	bogus_initrd "$D/data/initrd-old"
	# seed 1: old first, kexec'd from GRUB's default kernel ($K_NEW, the newest)
	guest_start --boots 1 --seed 1
	vm_data_pack
	# the first boot kexecs old's kernel, which panics (that qemu ends); a fresh qemu boots GRUB's
	# default, whose unit's continue finds the wrong kernel and removes the unit; the guest powers off
	vm_run_until_off 4
	fetch_results
	grep -a -q "Kernel panic - not syncing" "$SERIAL"
	[ "$(grep -c '^=== qemu started' "$SERIAL")" -eq 2 ]
	grep -a -q "vmtest: no campaign unit left: powering off" "$SERIAL"
	# resumable, not failed: the boot pending again, its failed boot counted, the reason recorded
	[ "$(sql "select status from campaign")" = running ]
	[ "$(sql "select swprofile || '|' || status || '|' || failed_boots || '|' || release from campaign_boot where pos = 0")" = "old|pending|1|$K_NEW" ]
	reason="boot attempt 1 did not come up: came back under kernel $K_NEW (the one it left), not $K_OLD, which its boot method boots; nothing was measured under it"
	[ "$(sql "select message from campaign_boot where pos = 0")" = "$reason" ]
	[ "$(sql "select count(*) from session")" -eq 0 ]
	[ "$(wc -l <"$D/boots")" -eq 2 ]
	[ "$(cut -d' ' -f2 "$D/boots" | sort -u)" = "$K_NEW" ]
	# on the next boot a person reads the campaign's status, fixes the cause (old's real initrd in
	# place) and continues it
	cat >"$D/fix" <<EOF2
#!/bin/sh
cd /data
./clearpath campaign status --store store.db >status.txt 2>&1
./clearpath campaign status --store store.db --format json >status.json
cp /boot/initrd.img-$K_OLD initrd-old && exec ./clearpath campaign continue --store store.db
EOF2
	chmod +x "$D/fix"
	debugfs -w -f - "$D/data.img" >/dev/null 2>&1 <<EOF2
rm finished
rm started
rm start
write $D/fix start
EOF2
	vm_has start && ! vm_has finished
	vm_run_until_off 4
	fetch_results
	vm_get status.txt "$D/status.txt" && vm_get status.json "$D/status.json"
	cat "$D/status.txt"
	grep -qF "campaign 1: running, 0 of 2 boots done" "$D/status.txt"
	grep -qF "next: local: boot 1 of 2 (old): its last boot did not come up" "$D/status.txt"
	grep -qF "$reason" "$D/status.txt"
	python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["targets"][0]["next"]
assert n["step"] == "retry" and n["failed_boots"] == 1 and n["reason"] == sys.argv[2], n' "$D/status.json" "$reason"
	# every session under the kernel its swprofile asked for, as the guest itself logged its boots:
	# two before the fix (the first, GRUB's default after the panic), the fix's, then the campaign's
	check_sessions 2 3
	[ "$(sql "select failed_boots || '|' || coalesce(message, '') from campaign_boot where pos = 0")" = "1|" ]
	[ "$(sql "select group_concat(swprofile || '=' || release, ' ') from (select swprofile, release from campaign_boot order by pos)")" = "old=$K_OLD new=$K_NEW" ]
}
