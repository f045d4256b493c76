# vm.bash: host-side helpers of the VM suites: a throw-away overlay and data disk per test, qemu (TCG) boots, files back.
#
# Everything is handed to the guest on a second virtio disk (an ext4 image made with
# mkfs.ext4 -d, read back with debugfs: no loop device, no mount); the guest's vmtest-boot
# logs each boot there and powers the guest off once no campaign unit is left.  qemu runs with
# -no-reboot: a reboot ends it, and a fresh qemu boots the same disk (an in-place reset under TCG
# stalls the firmware for 10-45 s).  Serial console logs: $VM_LOGS/<test>.serial, kept.

# the guest's two kernels (tests/vm/mkimage installs them)
K_OLD=6.1.0-57-cloud-amd64
K_NEW=6.12.117+deb12-cloud-amd64

VM_DIR=${VM_DIR:-build/vm}
VM_LOGS=${VM_LOGS:-$VM_DIR/logs}
# seconds one boot may take under TCG on busy cores, shutdown to userspace and the session after it
VM_BOOT_SECONDS=${VM_BOOT_SECONDS:-300}

# vm_setup_dirs: $D/data/ to fill, the serial log's path; the host's clearpath $CP and the store
# $STORE that comes back from the guest.
vm_setup_dirs() {
	cd "$BATS_TEST_DIRNAME/../.."
	D="$BATS_TEST_TMPDIR"
	CP=${CLEARPATH:-./clearpath}
	STORE="$D/store.db"
	mkdir -p "$D/data" "$VM_LOGS"
	SERIAL="$(realpath "$VM_LOGS")/$(printf '%s' "$BATS_TEST_DESCRIPTION" | tr -c 'A-Za-z0-9_-' _ | cut -c1-60).serial"
	: >"$SERIAL"
	VM_PORT=
}

# vm_setup: vm_setup_dirs, and $D/root.qcow2 over the cached x86_64 image $VM_IMAGE.
vm_setup() {
	vm_setup_dirs
	[ -n "${VM_IMAGE:-}" ] && [ -e "$VM_IMAGE" ] || { echo "no guest image: run 'make check-vm' (VM_IMAGE=${VM_IMAGE:-})"; return 1; }
	qemu-img create -q -f qcow2 -F qcow2 -b "$(realpath "$VM_IMAGE")" "$D/root.qcow2"
	touch "$D/data/ready"
	install -m 755 tests/vm/vmtest-boot "$D/data/vmtest-boot"
}

# vm_setup_local: vm_setup, and the static clearpath ($STATIC_BIN) on the data disk for the guest to run.
vm_setup_local() {
	vm_setup
	install -m 755 "${STATIC_BIN:?the static clearpath (make static)}" "$D/data/clearpath"
}

# vm_teardown: on failure, say where the serial console log is, and print its qemu runs and its
# tail: a CI machine's logs are gone with it, so the TAP must carry what the guest last said.
vm_teardown() {
	[ -z "${BATS_TEST_COMPLETED:-}" ] || return 0
	echo "# serial console log: ${SERIAL:-none}" >&3
	[ ! -s "${SERIAL:-}" ] || vm_serial_tail "${VM_TAIL_LINES:-80}" | sed 's/^/#   /' >&3
	# what came back from the guest, beside it
	[ ! -e "${STORE:-}" ] || cp "$STORE" "${SERIAL%.serial}.store.db"
	[ ! -e "$D/boots" ] || cp "$D/boots" "${SERIAL%.serial}.boots"
}

# vm_serial_tail LINES: $SERIAL's qemu start/end markers, its kexec and vmtest lines, then its last
# LINES lines, without terminal escapes.
vm_serial_tail() {
	sed 's/\x1b\[[0-9;]*[A-Za-z]//g; s/\r$//' "$SERIAL" >"$D/serial.txt"
	echo "serial console, its qemu runs, boots and kexecs:"
	grep -a -E '^=== qemu|vmtest:|kexec|Linux version|Kernel panic' "$D/serial.txt" | cut -c1-160
	echo "serial console, its last $1 lines:"
	tail -n "$1" "$D/serial.txt" | cut -c1-160
}

# vm_data_pack [SIZE]: $D/data/ into the data disk $D/data.img (96M unless told).
vm_data_pack() {
	rm -f "$D/data.img"
	mkfs.ext4 -q -F -L data -d "$D/data" "$D/data.img" "${1:-96M}"
}

# vm_get PATH OUT: the file PATH of the data disk into OUT (the guest must be off).
vm_get() {
	rm -f "$2"
	debugfs -R "dump /$1 $2" "$D/data.img" 2>/dev/null
	[ -e "$2" ]
}

# vm_has PATH: the data disk holds PATH.
vm_has() {
	debugfs -R "stat /$1" "$D/data.img" 2>&1 | grep -q '^Inode:'
}

# vm_free_port: a free TCP port on 127.0.0.1.
vm_free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# vm_qemu [SECONDS]: one qemu run of the guest until it reboots, powers off or SECONDS pass
# (then it is killed: exit 124).  sshd is forwarded to 127.0.0.1:$VM_PORT when that is set.
vm_qemu() {
	local nic="user,model=virtio-net-pci,restrict=on"
	[ -z "$VM_PORT" ] || nic="$nic,hostfwd=tcp:127.0.0.1:$VM_PORT-:22"
	vm_qemu_run "${1:-$VM_BOOT_SECONDS}" qemu-system-x86_64 -m 1024 \
		-drive file="$D/root.qcow2",format=qcow2,if=virtio -drive file="$D/data.img",format=raw,if=virtio \
		-nic "$nic"
}

# vm_qemu_run SECONDS QEMU ARGS...: one run of QEMU (TCG, one CPU, no display, the serial console
# appended to $SERIAL, -no-reboot) until the guest reboots or powers off, killed after SECONDS (exit 124).
vm_qemu_run() {
	local seconds=$1 qemu=$2 t0 rc
	shift 2
	t0=$(date +%s)
	echo "=== qemu started $(date -u +%T)" >>"$SERIAL"
	timeout -k 5 "$seconds" "$qemu" -accel tcg -smp 1 -display none -no-reboot -monitor none \
		-chardev file,id=ser,path="$SERIAL",append=on -serial chardev:ser "$@" </dev/null >>"$D/qemu.out" 2>&1
	rc=$?
	echo "=== qemu ended $(date -u +%T) after $(( $(date +%s) - t0 )) s, exit $rc" >>"$SERIAL"
	return $rc
}

# vm_run_until_off MAX_BOOTS: boot the guest again after each reboot until vmtest-boot powers it off
# (it touches /finished), at most MAX_BOOTS boots of VM_BOOT_SECONDS each; 1 when it never did.
vm_run_until_off() {
	local budget=$(( $1 * VM_BOOT_SECONDS )) t0 left
	t0=$(date +%s)
	while :; do
		left=$(( budget - ($(date +%s) - t0) ))
		[ "$left" -gt 0 ] || { echo "the guest did not finish within $budget s: see $SERIAL"; return 1; }
		vm_qemu "$left" || { echo "qemu failed or timed out (exit $?): see $SERIAL"; return 1; }
		! vm_has finished || break
	done
	echo "# guest finished in $(( $(date +%s) - t0 )) s" >&3
}

# vm_boots: the guest's own log of its boots, "BOOT_ID RELEASE UPTIME_S" a line, into $D/boots.
vm_boots() {
	vm_get boots "$D/boots"
}

# vm_supervise_start: keep the guest running in the background, a fresh qemu after each reboot,
# until vm_supervise_stop (call it from teardown).  For a guest a host-side controller drives.
vm_supervise_start() {
	(
		while [ ! -e "$D/stop" ]; do
			vm_qemu 1800
		done
	) 3>&- &
	VM_SUPERVISOR=$!
}

vm_supervise_stop() {
	[ -n "${VM_SUPERVISOR:-}" ] || return 0
	touch "$D/stop"
	pkill -P "$VM_SUPERVISOR" timeout 2>/dev/null
	wait "$VM_SUPERVISOR" 2>/dev/null
	VM_SUPERVISOR=
}

# vm_ssh_setup: a throw-away client key the guest authorizes at boot, sshd forwarded to
# 127.0.0.1:$VM_PORT, and $D/ssh_config for ssh -F and --ssh-config (known_hosts once it is up).
vm_ssh_setup() {
	ssh-keygen -q -t ed25519 -N '' -f "$D/key" -C clearpath-vm-test
	cp "$D/key.pub" "$D/data/authorized_keys"
	VM_PORT=$(vm_free_port)
	VM_DEST="root@127.0.0.1:$VM_PORT"
	cat >"$D/ssh_config" <<EOF2
Host *
	IdentityFile $D/key
	IdentitiesOnly yes
	UserKnownHostsFile $D/known_hosts
	StrictHostKeyChecking yes
	BatchMode yes
	ConnectTimeout 10
	ServerAliveInterval 5
	ServerAliveCountMax 3
EOF2
}

# vm_ssh CMD...: run CMD in the guest as root.
vm_ssh() {
	timeout 60 ssh -F "$D/ssh_config" -p "$VM_PORT" root@127.0.0.1 "$@"
}

# vm_wait_ssh SECONDS [BOOT_ID]: until the guest's sshd lets us in (under another boot than
# BOOT_ID when given); its host key is learnt on the first call.  The guest's boot id on stdout.
vm_wait_ssh() {
	local t0 id
	t0=$(date +%s)
	while [ $(( $(date +%s) - t0 )) -lt "$1" ]; do
		[ -s "$D/known_hosts" ] || ssh-keyscan -T 5 -p "$VM_PORT" 127.0.0.1 >"$D/known_hosts" 2>/dev/null || true
		id=$(vm_ssh cat /proc/sys/kernel/random/boot_id 2>/dev/null) && [ -n "$id" ] && [ "$id" != "${2:-}" ] &&
			{ echo "$id"; return 0; }
		sleep 3
	done
	echo "the guest's sshd did not let us in within $1 s: see $SERIAL" >&2
	return 1
}

# sql QUERY: the rows of $STORE, '|'-separated.
sql() {
	python3 - "$STORE" "$1" <<'PY'
import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join(str(c) for c in row))
PY
}

# kexec_plan FILE: swprofiles old and new, each a kexec of its kernel from /boot with today's command line.
kexec_plan() {
	cat >"$1" <<EOF2
name: vm-kexec
swprofiles:
  old: {boot: {method: kexec, kernel: /boot/vmlinuz-$K_OLD, initrd: /boot/initrd.img-$K_OLD, cmdline: keep}}
  new: {boot: {method: kexec, kernel: /boot/vmlinuz-$K_NEW, initrd: /boot/initrd.img-$K_NEW, cmdline: keep}}
defaults: {warmups: 0, repeats: 2}
benchmarks:
  - exec: {name: rate, command: "echo rate 42", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
}

# guest_start ARGS...: the guest's first boot runs `clearpath campaign start ARGS --yes` on its plan.
guest_start() {
	printf '#!/bin/sh\ncd /data && exec /data/clearpath campaign start /data/plan.yaml --store /data/store.db --yes %s\n' "$*" >"$D/data/start"
	chmod +x "$D/data/start"
}

# The store and the guest's boot log, back from the data disk.
fetch_results() {
	vm_get store.db "$STORE" || { echo "no store came back; the guest's start.log:"; vm_get start.log "$D/start.log" && cat "$D/start.log"; return 1; }
	vm_boots
	echo "# guest boots (boot id, kernel, seconds to userspace):" >&3
	sed 's/^/#   /' "$D/boots" >&3
}

# check_sessions N [BEFORE]: N boots done, each with one complete session under its own boot id, whose
# swprofile's kernel is the one the guest itself says that boot ran; the guest's log has BEFORE
# boots (1: its first) before the campaign's.
check_sessions() {
	local before=${2:-1}
	[ "$(sql "select status from campaign")" = done ]
	[ "$(sql "select count(*) from campaign_boot where status = 'done'")" -eq "$1" ]
	[ "$(sql "select count(*) from session where complete = 1")" -eq "$1" ]
	[ "$(sql "select count(distinct boot_id) from session")" -eq "$1" ]
	[ "$(sql "select count(*) from campaign_boot b join session s on s.uuid = b.session and s.boot_id = b.boot_id")" -eq "$1" ]
	# each session under the swprofile its boot asked for, and that swprofile's kernel is what the boot ran
	sql "select s.boot_id, w.name, json_extract(w.fingerprint, '$.kernel_release') from session s
	     join swprofile w on w.id = s.swprofile_id join campaign_boot b on b.session = s.uuid and b.swprofile = w.name" >"$D/sessions"
	[ "$(wc -l <"$D/sessions")" -eq "$1" ]
	while IFS='|' read -r boot sw release; do
		case $sw in old) want=$K_OLD ;; new) want=$K_NEW ;; *) want=$sw ;; esac
		[ "$release" = "$want" ] || { echo "session under $sw has kernel $release, not $want"; return 1; }
		grep -q "^$boot $want " "$D/boots" || { echo "boot $boot ($sw) is not a boot of $want in the guest's log"; return 1; }
	done <"$D/sessions"
	# the guest's boots before the campaign's (its first boot), then the campaign's boots in its order
	[ "$(wc -l <"$D/boots")" -eq $(( $1 + before )) ]
	[ "$(sed "1,${before}d" "$D/boots" | cut -d' ' -f1,2)" = "$(sql "select boot_id || ' ' || release from campaign_boot order by pos")" ]
}
