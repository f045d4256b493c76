#!/usr/bin/env bats
# vm remote: a host-side `campaign start --host` drives a real x86_64 guest over ssh through real kexec reboots.
#
# The guest's sshd is forwarded to 127.0.0.1 (user networking, restrict=on) and authorizes a
# throw-away key; the controller copies the static clearpath there itself, is killed once
# mid-campaign (kill -9), and `campaign continue` finishes.  Run by `make check-vm`.

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
