#!/usr/bin/env bats
# campaign_remote: `clearpath campaign start --host` against two real sshds on 127.0.0.1 (sshd.bash)
# with simulated boots: sessions run on the hosts, their samples come back whole, hosts in parallel.

bats_require_minimum_version 1.5.0
load helpers
load sshd

setup_file() {
	# two hosts: two sshds, each with its own keys; one ssh config that knows both
	sshd_start "$BATS_FILE_TMPDIR/a"
	A_PID=$SSHD_PID A_DEST=$SSHD_DEST A_DIR=$SSHD_DIR
	SSHD_PID=
	sshd_start "$BATS_FILE_TMPDIR/b"
	B_PID=$SSHD_PID B_DEST=$SSHD_DEST B_DIR=$SSHD_DIR
	cat "$A_DIR/known_hosts" "$B_DIR/known_hosts" > "$BATS_FILE_TMPDIR/known_hosts"
	cat > "$BATS_FILE_TMPDIR/ssh_config" <<-CONF
		Host *
		  IdentityFile $A_DIR/client_key
		  IdentityFile $B_DIR/client_key
		  IdentitiesOnly yes
		  IdentityAgent none
		  UserKnownHostsFile $BATS_FILE_TMPDIR/known_hosts
		  GlobalKnownHostsFile /dev/null
		  StrictHostKeyChecking yes
	CONF
	export A_PID A_DEST A_DIR B_PID B_DEST B_DIR
}

teardown_file() {
	SSHD_PID=$A_PID sshd_stop
	SSHD_PID=$B_PID sshd_stop
}

teardown() {
	local pid
	for pid in ${GONE_PIDS:-}; do SSHD_PID=$pid sshd_stop; done
}

setup() {
	setup_store
	skip_emulated "the test sshds' host is this x86-64 machine, not the emulated one"
	export CLEARPATH_FAKE_BOOT="$D/boot"
	export CLEARPATH_STATIC_DIR="$D/nostatic"
	mkdir -p "$CLEARPATH_STATIC_DIR"
	CFG=$BATS_FILE_TMPDIR/ssh_config
	cat >"$D/ab.yaml" <<-EOF
		name: ab
		swprofiles:
		  base:  {boot: {method: fake, release: 6.18.0-base, cmdline: "root=/dev/vda1 ro"}}
		  patch: {boot: {method: fake, release: 6.18.0-patch, cmdline: "root=/dev/vda1 ro"}, cmdline: "init_on_alloc=0"}
		defaults: {warmups: 0, repeats: 2}
		benchmarks:
		  - exec: {name: rate, command: "echo rate 42.5", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
	EOF
}

sql() {
	store_sql "$1"
}

# $1 as a YAML single-quoted scalar.
yaml_str() {
	printf "'%s'" "${1//\'/\'\'}"
}

# Another sshd for one test, in $D/$1 (with $SSHD_SETENV, when set), stopped by teardown: sets
# THIRD (its user@host:port) and $D/cfg, an ssh config that knows every host so far.
third_host() {
	local saved_pid=$SSHD_PID
	sshd_start "$D/$1"
	GONE_PIDS="${GONE_PIDS:-} $SSHD_PID"
	SSHD_PID=$saved_pid
	THIRD=$SSHD_DEST
	[ -e "$D/known_hosts" ] || cp "$BATS_FILE_TMPDIR/known_hosts" "$D/known_hosts"
	cat "$D/$1/known_hosts" >> "$D/known_hosts"
	[ -e "$D/cfg" ] || sed -e "s|UserKnownHostsFile .*|UserKnownHostsFile $D/known_hosts|" "$CFG" > "$D/cfg"
	sed -i "s|^  IdentitiesOnly yes|  IdentityFile $D/$1/client_key\n  IdentitiesOnly yes|" "$D/cfg"
}

@test "campaign remote: two hosts in parallel, every boot's session measured there and brought back" {
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 2 --seed 3 --host "$A_DEST" --host "$B_DEST" \
		--ssh-config "$CFG"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 8 boots, one session each"* ]]
	[ "$(sql "select status from campaign")" = "done" ]
	[ "$(sql "select json_extract(spec, '$.mode') from campaign")" = "remote" ]
	# each host: 2 boots of each swprofile, all done, in the same seeded order
	[ "$(sql "select target, count(*) from campaign_boot where status = 'done' group by target order by target" | tr '\n' ' ')" = \
	  "$(printf '%s\n' "$A_DEST|4" "$B_DEST|4" | sort | tr '\n' ' ')" ]
	# one complete session per boot, brought back, under the boot id the host's fake boot gave
	[ "$(sql "select count(*) from session where complete = 1")" -eq 8 ]
	[ "$(sql "select count(distinct boot_id) from session")" -eq 8 ]
	[ "$(sql "select count(*) from campaign_boot b join session s on s.uuid = b.session and s.boot_id = b.boot_id")" -eq 8 ]
	# each host simulated its boots in its own directory
	[ -s "$CLEARPATH_FAKE_BOOT/$A_DEST/boot_id" ]
	[ -s "$CLEARPATH_FAKE_BOOT/$B_DEST/boot_id" ]
	# the release in each swprofile's fingerprint, as the host saw it
	[ "$(sql "select name, json_extract(fingerprint, '$.kernel_release') from swprofile order by name" | tr '\n' ' ')" = \
	  "base|6.18.0-base patch|6.18.0-patch " ]
	[ "$(sql "select count(*) from sample")" -eq 16 ]
	# each session came back whole (export --whole, import): the host's environment with it
	[ "$(sql "select count(*) from session where environment != '{}' and json_extract(environment, '$.settings') is not null")" -eq 8 ]
	# nothing left on the hosts
	[ -z "$(ls -A "$A_DIR/tmp" "$B_DIR/tmp" | grep clearpath)" ]
	# the ssh config is recorded for continue, as an absolute path
	[ "$(sql "select json_extract(spec, '$.ssh_config') from campaign")" = "$CFG" ]
}

@test "campaign remote: a host that refuses the connection fails, the other host still finishes its boots" {
	local refused
	refused="$(id -un)@127.0.0.1:$(free_port)"
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --host "$refused" \
		--ssh-config "$CFG"
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"cannot reach $refused over ssh"*"Connection refused"* ]]
	[[ "$stderr" == *"hint: nothing listens for ssh there"* ]]
	[ "$(sql "select count(*) from campaign_boot where target = '$A_DEST' and status = 'done'")" -eq 2 ] || { echo "$output"; echo "$stderr"; sql "select * from campaign_boot"; return 1; }
	[ "$(sql "select count(*) from campaign_boot where target = '$refused' and status = 'pending'")" -eq 2 ]
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
	# the campaign is still running: once the host is back, continue finishes it
	[ "$(sql "select status from campaign")" = "running" ]
}

@test "campaign remote: a host that does not come back from its boot is an error for that boot; the other goes on" {
	# a third sshd for this test alone: its "boot" stops it for good
	third_host gone
	local gone=$THIRD
	# each boot runs the user's commands on the host: they simulate the boot, then on the gone
	# host (its sessions' TMPDIR tells) stop its sshd
	# (and the connection the command came on, as a reboot would)
	local stop="[ \"\$TMPDIR\" != '$D/gone/tmp' ] || { kill \$(cat '$D/gone/sshd.pid'); kill \$PPID; }"
	local sw
	{
		echo "name: gone"
		echo "swprofiles:"
		for sw in base patch; do
			echo "  $sw:"
			echo "    boot:"
			echo "      method: command"
			echo "      commands:"
			printf '        - %s\n' "$(yaml_str "'$CP' campaign fake-boot --release 6.18.0-$sw")" "$(yaml_str "$stop")"
			echo "    expect: {release: 6.18.0-$sw}"
		done
		echo "defaults: {warmups: 0, repeats: 1}"
		echo "benchmarks:"
		echo "  - exec: {name: rate, command: \"echo rate 42.5\", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}"
	} > "$D/gone.yaml"
	run --separate-stderr "$CP" campaign start "$D/gone.yaml" --boots 1 --seed 3 --yes --host "$A_DEST" --host "$gone" \
		--ssh-config "$D/cfg" --boot-timeout 3
	[ "$status" -eq 3 ] || { echo "$output"; echo "$stderr"; return 1; }
	# with what ssh last said, on the same line
	grep -q "$gone: did not come back from the boot within 3 seconds (unreachable: .*Connection refused)" <<<"$stderr" ||
		{ echo "$stderr"; return 1; }
	[ "$(sql "select status from campaign")" = "failed" ]
	[ "$(sql "select count(*) from campaign_boot where target = '$gone' and status = 'error'")" -eq 1 ]
	[[ "$(sql "select message from campaign_boot where target = '$gone' and status = 'error'")" == *"did not come back"* ]]
	# nothing was measured on it; the other host did all its boots
	[ "$(sql "select count(*) from campaign_boot where target = '$gone' and status = 'done'")" -eq 0 ]
	[ "$(sql "select count(*) from campaign_boot where target = '$A_DEST' and status = 'done'")" -eq 2 ] || { echo "$output"; echo "$stderr"; sql "select * from campaign_boot"; return 1; }
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
}

@test "campaign remote: a boot that comes back with the wrong kernel is caught on the host; nothing is measured" {
	{
		echo "name: wrong"
		echo "swprofiles:"
		echo "  base:"
		echo "    boot: {method: command, commands: [$(yaml_str "'$CP' campaign fake-boot --release 6.1.0-other")]}"
		echo "    expect: {release: 6.18.0-base}"
		echo "benchmarks:"
		echo "  - exec: {name: rate, command: \"echo rate 42.5\", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}"
	} > "$D/wrong.yaml"
	run --separate-stderr "$CP" campaign start "$D/wrong.yaml" --boots 1 --yes --host "$A_DEST" --ssh-config "$CFG"
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"6.1.0-other"* ]]
	[ "$(sql "select status, release from campaign_boot")" = "error|6.1.0-other" ]
	[[ "$(sql "select message from campaign_boot")" == *"nothing was measured"* ]]
	[ "$(sql "select count(*) from session")" -eq 0 ]
	[ "$(sql "select status from campaign")" = "failed" ]
}

@test "campaign remote: continue after the controller is killed mid-session finishes every boot" {
	# the first session on the host tells the test it runs, then lingers; later ones measure at once
	sed -i "s|command: \"echo rate 42.5\"|command: \"if [ ! -e '$D/reached' ]; then touch '$D/reached'; sleep 5; fi; echo rate 42.5\"|" "$D/ab.yaml"
	set -m	# the controller in a process group of its own, to kill it whole
	"$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG" >"$D/out" 2>"$D/err" &
	local ctl=$! i
	set +m
	for ((i = 0; i < 600; i++)); do [ ! -e "$D/reached" ] || break; sleep 0.1; done
	[ -e "$D/reached" ] || { cat "$D/out" "$D/err"; return 1; }
	kill -KILL -- "-$ctl"
	wait "$ctl" || true
	[ "$(sql "select status from campaign")" = "running" ]
	[ "$(sql "select count(*) from campaign_boot where status = 'done'")" -eq 0 ]
	# the restarted controller: --ssh-config comes from the store
	run --separate-stderr "$CP" campaign continue
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 2 boots, one session each"* ]]
	[ "$(sql "select count(*) from campaign_boot where status = 'done'")" -eq 2 ]
	# the killed session never came back: only whole sessions are in the store
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
	[ "$(sql "select count(*) from session")" -eq 2 ]
	[ "$(sql "select count(*) from campaign_boot b join session s on s.uuid = b.session and s.boot_id = b.boot_id")" -eq 2 ]
}

@test "campaign remote: the plan's fit is checked against each host's own facts, not the controller's" {
	local fix=$BATS_TEST_DIRNAME/../fixtures
	# the hosts' facts are fixtures, never this machine's (whose free hugepages come and go):
	# one that fits (the vm-x86 root with 4 free 2MB pages), one that does not (small-box:
	# 96MB available, 1 of 4 2MB pages free)
	cp -r "$fix/vm-x86" "$D/fits"
	echo 4 >"$D/fits/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
	echo 4 >"$D/fits/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"
	SSHD_SETENV="CLEARPATH_SYSROOT=$D/fits" third_host big
	local big=$THIRD
	SSHD_SETENV="CLEARPATH_SYSROOT=$fix/small-box" third_host small
	local small=$THIRD
	sed -i 's/^benchmarks:/requires: {memory: 1GB, hugepages: {2MB: 2}}\nbenchmarks:/' "$D/ab.yaml"
	# the small host does not fit: refused before anything is recorded or copied, naming the host
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$big" --host "$small" \
		--ssh-config "$D/cfg"
	refused 3 "the plan does not fit $small:" "the plan needs 1GB of memory but only 96MB is available" \
		"the plan needs 2 free 2MB hugetlb pages, but 1 of 4 are free"
	[[ "$stderr" != *"does not fit $big"* ]]
	[ ! -e "$STORE" ] || [ "$(sql "select count(*) from campaign")" -eq 0 ]
	[ -z "$(ls -A "$D/big/tmp")" ]
	[ -z "$(ls -A "$D/small/tmp")" ]
	# a controller that would not fit (the small-box fixture here) runs it on a host that does
	CLEARPATH_SYSROOT="$fix/small-box" run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 \
		--host "$big" --ssh-config "$D/cfg"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 2 boots, one session each"* ]]
}

@test "campaign start --dry-run --host: each host's boots, commands and sessions from its own facts; nothing done there" {
	# a host whose shell finds stand-ins for the boot tools first: were any run, it leaves a trace
	boot_tool_standins "$D/bin"
	SSHD_SETENV="PATH=$D/bin:/usr/local/bin:/usr/bin:/bin" third_host safe
	local safe=$THIRD
	# the host runs a kernel of its own (its simulated boot), whose command line kexec keeps
	mkdir -p "$CLEARPATH_FAKE_BOOT/$safe"
	CLEARPATH_FAKE_BOOT="$CLEARPATH_FAKE_BOOT/$safe" "$CP" campaign fake-boot --release 6.1.0-9-amd64 \
		--cmdline "BOOT_IMAGE=/boot/vmlinuz-6.1.0-9-amd64 root=UUID=1234 ro quiet" >/dev/null
	local before
	before=$(cat "$CLEARPATH_FAKE_BOOT/$safe/boot_id")
	cat >"$D/real.yaml" <<'EOF2'
name: real
swprofiles:
  base:  {boot: {method: kexec, kernel: /boot/vmlinuz-6.18.0-base, initrd: /boot/initrd.img-6.18.0-base, cmdline: keep}}
  patch: {boot: {method: grub, entry: "Debian GNU/Linux, with Linux 6.18.0-patch"}, sysctl: {vm.swappiness: 10}}
  lab:   {boot: {method: command, commands: ["ipmitool chassis bootdev disk", "ipmitool power cycle"]}, expect: {release: 6.18.0-lab, cmdline_has: [mitigations=off]}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	run --separate-stderr "$CP" campaign start "$D/real.yaml" --boots 1 --seed 3 --dry-run --host "$safe" \
		--ssh-config "$D/cfg" --boot-timeout 60
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	printf '%s\n' "$output" | sed -e "s|$D|\$D|g" -e "s|$safe|\$HOST|g" -e "s|$(cp_exe)|\$CLEARPATH|g" \
		-e "s|boot id ${before:0:8}|boot id \$BOOT_ID|" -e "s|(for $(uname -m))|(for \$ARCH)|" >"$D/dry.out"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$D/dry.out" "$BATS_TEST_DIRNAME/../golden/campaign/dry-run-host.txt"
	fi
	diff -u "$BATS_TEST_DIRNAME/../golden/campaign/dry-run-host.txt" "$D/dry.out"
	# nothing was done: no boot tool ran, the host's boot and private directories are as they were,
	# no store here
	[ ! -e "$D/ran" ] || { echo "a boot tool ran: $(cat "$D/ran")"; return 1; }
	[ "$(cat "$CLEARPATH_FAKE_BOOT/$safe/boot_id")" = "$before" ]
	[ -z "$(ls -A "$D/safe/tmp")" ]
	[ ! -e "$STORE" ]
	# two hosts: each has its part, in the same order; fake boots name each host's own directory
	local left
	left=$(ls -A "$A_DIR/tmp" "$B_DIR/tmp")
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --dry-run --host "$A_DEST" \
		--host "$B_DEST" --ssh-config "$CFG"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"on 2 targets in parallel"* ]]
	[[ "$output" == *"$A_DEST: runs kernel "*"$B_DEST: runs kernel "* ]]
	[ "$(grep -c ': boot 1 of 2: ' <<<"$output")" -eq 2 ]
	[[ "$output" == *"CLEARPATH_FAKE_BOOT='$CLEARPATH_FAKE_BOOT/$B_DEST'"* ]]
	[ "$(ls -A "$A_DIR/tmp" "$B_DIR/tmp")" = "$left" ]
	[ ! -e "$CLEARPATH_FAKE_BOOT/$A_DEST" ]
	[ ! -e "$STORE" ]
	# a host that cannot be reached: what depends on it is unknown, the rest is shown
	local refused
	refused="$(id -un)@127.0.0.1:$(free_port)"
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --dry-run --host "$refused" \
		--ssh-config "$CFG"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$refused: cannot be reached now: its kernel, command line and architecture are unknown"* ]]
	[[ "$output" == *"'\$DIR/clearpath' plan run --sessions 1 --swprofile base --store '\$HELD/session.db' '\$DIR/plan/ab.yaml'"* ]]
	[[ "$stderr" == *"cannot reach $refused over ssh"* ]]
	[[ "$stderr" == *"$refused: whether the plan fits it is checked when the campaign reaches it"* ]]
}

@test "campaign remote: abort stops the controller before the host's next boot" {
	# the first session, on the host, aborts the campaign in the controller's store
	sed -i "s|command: \"echo rate 42.5\"|command: \"[ -e '$D/aborted' ] \|\| { touch '$D/aborted'; '$(cp_exe)' campaign abort --store '$STORE' >/dev/null; }; echo rate 42.5\"|" "$D/ab.yaml"
	local left
	left=$(ls -A "$A_DIR/tmp")
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 2 --seed 3 --host "$A_DEST" --ssh-config "$CFG"
	[ "$status" -eq 2 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$stderr" == *"campaign 1 was aborted while it ran: stopped before boot 2 of 4 of $A_DEST"* ]]
	[ "$(sql "select status from campaign")" = aborted ]
	[ "$(sql "select count(*) from campaign_boot where status = 'done'")" -eq 1 ]
	[ "$(sql "select count(*) from campaign_boot where status = 'pending'")" -eq 3 ]
	[ "$(ls -A "$A_DIR/tmp")" = "$left" ]
}

@test "campaign remote: a plan's includes are copied beside it on each host; an absolute include is refused before anything runs" {
	mkdir -p "$D/p/inc"
	sed -n '/^benchmarks:/,$p' "$D/ab.yaml" >"$D/p/inc/bench.yaml"
	sed '/^benchmarks:/,$d' "$D/ab.yaml" >"$D/p/ab.yaml"
	echo "include: [inc/bench.yaml]" >>"$D/p/ab.yaml"
	run --separate-stderr "$CP" campaign start "$D/p/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 2 boots, one session each"* ]]
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
	# an include by an absolute path would not be found in the host's copy: said before anything is recorded
	sed -i "s|include: \[inc/bench.yaml\]|include: [$D/p/inc/bench.yaml]|" "$D/p/ab.yaml"
	run --separate-stderr "$CP" campaign start "$D/p/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG" \
		--store "$D/abs.db"
	refused 2 "plan file $D/p/inc/bench.yaml is included by an absolute path"
	[ ! -e "$D/abs.db" ]
}

@test "campaign remote: a host without an SFTP subsystem (no scp either) runs the campaign: files go through ssh itself" {
	SSHD_NO_SFTP=1 third_host nosftp
	local bare=$THIRD
	! grep -q '^Subsystem' "$D/nosftp/sshd_config"
	run --separate-stderr "$CP" remote check --ssh-config "$D/cfg" "$bare"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" == "$bare: $(uname -m), "*" runs there" ]]
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$bare" --ssh-config "$D/cfg"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 2 boots, one session each"* ]]
	[[ "$stderr" != *"cannot reach"* ]]
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
}

# A host's clearpath that is not what it seems: $D/static/clearpath-x86_64 runs the real one, but
# what it does to sessions and --version is $D/mode's (see below); copied to the hosts in its place.
hostile_host() {
	local real
	real="$(cd "$(dirname "$CP")" && pwd)/$(basename "$CP")"
	mkdir -p "$D/static"
	cat >"$D/static/clearpath-x86_64" <<EOF2
#!/bin/bash
mode=\$(cat '$D/mode' 2>/dev/null)
if [ "\$1" = --version ]; then
	case \$mode in
	huge) head -c 30000000 /dev/zero | tr '\\\\0' x; echo; exit 0;;
	escape) printf 'clearpath 1.0 \\033]0;owned\\007\\033[2J\\n'; exit 0;;
	esac
fi
# a kernel release that retitles the terminal
if [ "\$1 \$2" = "campaign fake-boot" ] && [ "\$mode" = release ]; then
	'$real' "\$@" && printf '6.18.0\\033]0;owned\\007\\n' >"\$CLEARPATH_FAKE_BOOT/release"; exit
fi
if [ "\$1 \$2" = "plan run" ]; then
	case \$mode in
	# a second session beside the one asked for
	extra) '$real' "\$@" || exit; exec '$real' "\$@";;
	# the patch boot's session filed under base
	relabel) args=(); for a; do [ "\$a" = patch ] && a=base; args+=("\$a"); done; exec '$real' "\${args[@]}";;
	# the second session under another machine's class
	sut) if [ -e '$D/sut-once' ]; then exec '$real' plan run --sut forged "\${@:3}"; fi
	     touch '$D/sut-once';;
	# the first session already under another machine's class: no earlier session to compare with
	sut-first) if [ ! -e '$D/sut-once' ]; then touch '$D/sut-once'; exec '$real' plan run --sut forged "\${@:3}"; fi;;
	# the terminal's title and screen, through the session's output
	chatter) printf '\\033]0;owned\\007\\033[2Jrate\\n';;
	esac
fi
exec '$real' "\$@"
EOF2
	chmod +x "$D/static/clearpath-x86_64"
	export CLEARPATH_STATIC_DIR="$D/static"
}

@test "campaign remote: a hostile host's session is refused unless it is exactly the one its boot was to give" {
	hostile_host
	local mode want
	for mode in extra relabel sut sut-first; do
		echo "$mode" >"$D/mode"
		rm -f "$STORE" "$D/sut-once"
		run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG"
		[ "$status" -eq 3 ] || { echo "$mode: $status: $output $stderr"; return 1; }
		case $mode in
		extra) want="it holds 2 sessions, not the one of this boot";;
		relabel) want="its session is filed under swprofile 'base', not 'patch', the swprofile of this boot";;
		sut|sut-first) want="its session is filed under SUT class 'forged', not";;
		esac
		[[ "$stderr" == *"the session the host handed back for boot "*" is refused: $want"* ]] || { echo "$mode: $stderr"; return 1; }
		[ "$(sql "select status from campaign")" = failed ]
		# nothing of it was stored: no session but the ones accepted, no SUT or swprofile it named
		[ "$(sql "select count(*) from session s join swprofile p on p.id = s.swprofile_id join sut u on u.id = s.sut_id
			where u.name = 'forged' or s.boot_id not in (select boot_id from campaign_boot where status = 'done')")" -eq 0 ]
		[ "$(sql "select count(*) from sut where name = 'forged'")" -eq 0 ]
		# what was refused is not kept on the host either
		[ -z "$(ls -A "$A_DIR/state/clearpath/held")" ]
	done
}

@test "campaign remote: a host's escape sequences never reach the terminal; a 30 MB --version is no clearpath" {
	hostile_host
	echo chatter >"$D/mode"
	run "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"$A_DEST:  ]0;owned  [2Jrate"* ]]
	[[ "$output" != *$'\e'* && "$output" != *$'\a'* ]]
	echo release >"$D/mode"
	rm -f "$STORE"
	run "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG"
	[ "$status" -eq 3 ] || { echo "release: $status: $output"; return 1; }
	[[ "$output" == *"came back under kernel 6.18.0 ]0;owned , not 6.18.0-"* ]] || { echo "$output"; return 1; }
	[[ "$output" != *$'\e'* && "$output" != *$'\a'* ]]
	for mode in escape huge; do
		echo "$mode" >"$D/mode"
		rm -f "$STORE"
		run "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG"
		[ "$status" -eq 3 ] || { echo "$mode: $status: ${output:0:2000}"; return 1; }
		[[ "$output" == *"cannot run $D/static/clearpath-x86_64"* ]]
		[[ "$output" != *$'\e'* && "$output" != *$'\a'* ]]
		[ "${#output}" -lt 4000 ]
		[ "$(sql "select count(*) from session")" -eq 0 ]
	done
}

# The first session on the host tells the test it runs ($D/reached), then lingers 3 s.
lingering_first_session() {
	# nothing held on the host before: what the test finds there is its own
	[ -z "$(ls -A "$A_DIR/state/clearpath/held" 2>/dev/null)" ]
	sed -i "s|command: \"echo rate 42.5\"|command: \"if [ ! -e '$D/reached' ]; then touch '$D/reached'; sleep 3; fi; echo rate 42.5\"|" "$D/ab.yaml"
}

wait_reached() {
	local i
	for ((i = 0; i < 600; i++)); do [ ! -e "$D/reached" ] || return 0; sleep 0.1; done
	return 1
}

@test "campaign remote: a store locked past its busy timeout at bring-back is exit 3; the host keeps the session, continue stores it" {
	lingering_first_session
	"$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG" >"$D/out" 2>"$D/err" &
	local ctl=$! rc=0
	wait_reached || { cat "$D/out" "$D/err"; return 1; }
	# another writer holds the store for longer than the 10 s a writer waits
	python3 -c 'import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute("BEGIN EXCLUSIVE"); open(sys.argv[2], "w").close(); time.sleep(25)' \
		"$STORE" "$D/locked" &
	local locker=$!
	wait "$ctl" || rc=$?
	[ "$rc" -eq 3 ] || { echo "rc $rc"; cat "$D/out" "$D/err"; kill "$locker"; return 1; }
	[ -e "$D/locked" ]
	wait "$locker"
	grep -q "keeps the session in $A_DIR/state/clearpath/held/c1-b1-.* until it is stored: 'clearpath campaign continue' brings it back" "$D/err" || { cat "$D/err"; return 1; }
	[ "$(sql "select status from campaign")" = running ]
	[ "$(sql "select count(*) from session")" -eq 0 ]
	ls "$A_DIR"/state/clearpath/held/c1-b1-*/session.csv
	[ "$(stat -c %a "$A_DIR"/state/clearpath/held/c1-b1-*)" = 700 ]
	run --separate-stderr "$CP" campaign continue
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"the host kept the session of boot 1 "*": bringing it back"* ]]
	[[ "$output" == *"campaign 1 done: 2 boots, one session each"* ]]
	# measured once, under the boot that measured it, stored once; nothing kept on the host
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
	[ "$(sql "select count(*) from campaign_boot b join session s on s.uuid = b.session and s.boot_id = b.boot_id")" -eq 2 ]
	[ -z "$(ls -A "$A_DIR/state/clearpath/held")" ]
}

@test "campaign remote: a store deleted mid-campaign is not made again, empty: exit 3, and continue goes on once it is back" {
	lingering_first_session
	"$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG" >"$D/out" 2>"$D/err" &
	local ctl=$! rc=0
	wait_reached || { cat "$D/out" "$D/err"; return 1; }
	mkdir "$D/aside"
	mv "$STORE"* "$D/aside/"
	wait "$ctl" || rc=$?
	[ "$rc" -eq 3 ] || { echo "rc $rc"; cat "$D/out" "$D/err"; return 1; }
	grep -q "the campaign's store $STORE is gone" "$D/err" || { cat "$D/err"; return 1; }
	[ ! -e "$STORE" ]
	ls "$A_DIR"/state/clearpath/held/c1-b1-*/session.csv
	mv "$D/aside/"* "$D/"
	run --separate-stderr "$CP" campaign continue
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 2 boots, one session each"* ]]
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
	[ -z "$(ls -A "$A_DIR/state/clearpath/held")" ]
}

@test "campaign remote: a host whose user has no state directory to write keeps each session in the private directory" {
	SSHD_SETENV="XDG_STATE_HOME=/proc/clearpath-none" third_host nostate
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$THIRD" --ssh-config "$D/cfg"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 2 boots, one session each"* ]]
	[ "$(sql "select count(*) from session where complete = 1")" -eq 2 ]
	[ -z "$(ls -A "$D/nostate/tmp" | grep clearpath)" ]
	# the state directory sshd's own SetEnv named first was not the one used
	[ ! -e "$D/nostate/state/clearpath" ]
}

@test "campaign remote: continue while a killed controller's process for a host still runs is refused; no host runs twice" {
	# the first session on the host says it runs, then waits until the test lets it go
	cat >"$D/linger.sh" <<-EOF2
		if [ ! -e '$D/reached' ]; then
			touch '$D/reached'
			i=0; while [ ! -e '$D/go' ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
		fi
		echo rate 42.5
	EOF2
	sed -i "s|command: \"echo rate 42.5\"|command: \"sh '$D/linger.sh'\"|" "$D/ab.yaml"
	"$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --host "$A_DEST" --ssh-config "$CFG" >"$D/out" 2>"$D/err" &
	local ctl=$! kid
	wait_reached || { touch "$D/go"; cat "$D/out" "$D/err"; return 1; }
	# the controller alone is killed: its process for the host goes on with the session
	kill -KILL "$ctl"
	wait "$ctl" || true
	run --separate-stderr "$CP" campaign continue
	touch "$D/go"
	refused 3 "campaign 1 is being advanced by another controller: pid $ctl on $(hostname)"
	# the host's process finishes its boots (the campaign's last), then ends
	kid=$(sql "select json_extract(owner, '$.kids[0].pid') from campaign")
	[ -n "$kid" ] && [ "$kid" != "$ctl" ]
	while kill -0 "$kid" 2>/dev/null; do sleep 0.1; done
	[ "$(sql "select status from campaign")" = done ] || { cat "$D/out" "$D/err"; return 1; }
	# each boot measured once: two sessions, no other ran on the host
	[ "$(sql "select count(*) from session")" -eq 2 ]
	[ "$(sql "select count(*) from campaign_boot b join session s on s.uuid = b.session and s.boot_id = b.boot_id")" -eq 2 ]
	[ "$(grep -c 'session of' "$D/out")" -eq 2 ]
}

@test "campaign remote: continue while the host still reboots waits for it to come back, within the boot timeout" {
	third_host slow
	local slow=$THIRD sshd_pid=${GONE_PIDS##* } i
	# its boot: simulated, then its sshd stops (the host goes down) and the connection with it
	local down="kill \$(cat '$D/slow/sshd.pid'); kill \$PPID"
	{
		echo "name: slow"
		echo "swprofiles:"
		echo "  base:"
		echo "    boot:"
		echo "      method: command"
		echo "      commands:"
		printf '        - %s\n' "$(yaml_str "'$CP' campaign fake-boot --release 6.18.0-base")" "$(yaml_str "$down")"
		echo "    expect: {release: 6.18.0-base}"
		echo "benchmarks:"
		echo "  - exec: {name: rate, command: \"echo rate 42.5\", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}"
	} > "$D/slow.yaml"
	set -m	# the controller in a process group of its own, to kill it whole
	"$CP" campaign start "$D/slow.yaml" --boots 1 --yes --host "$slow" --ssh-config "$D/cfg" --boot-timeout 120 \
		>"$D/out" 2>"$D/err" &
	local ctl=$!
	set +m
	# the host went down: the controller waits for it, and is killed there
	wait "$sshd_pid" || true
	for ((i = 0; i < 600; i++)); do [ "$(sql "select status from campaign_boot")" != booting ] || break; sleep 0.1; done
	local kid
	kid=$(sql "select json_extract(owner, '$.kids[0].pid') from campaign")
	kill -KILL -- "-$ctl"
	wait "$ctl" || true
	# its process for the host is gone too (at most a zombie nobody reaped yet)
	while ps -o stat= -p "$kid" | grep -qv Z; do sleep 0.1; done
	[ "$(sql "select status from campaign_boot")" = booting ] || { cat "$D/out" "$D/err"; return 1; }
	# the next controller waits for the host; once it says so, the host comes back up
	"$CP" campaign continue >"$D/out2" 2>"$D/err2" &
	local cont=$! rc=0
	for ((i = 0; i < 600; i++)); do
		! grep -q "was started: waiting for it to come back, at most 120 seconds" "$D/out2" || break
		ps -o stat= -p "$cont" | grep -qv Z || break
		sleep 0.1
	done
	/usr/sbin/sshd -D -e -f "$D/slow/sshd_config" </dev/null >/dev/null 2>"$D/slow/sshd.log" 3>&- &
	GONE_PIDS="$GONE_PIDS $!"
	wait "$cont" || rc=$?
	[ "$rc" -eq 0 ] || { echo "rc $rc"; cat "$D/out2" "$D/err2"; return 1; }
	grep -q "campaign 1 done: 1 boots, one session each" "$D/out2"
	[ "$(sql "select status from campaign_boot")" = done ]
	[ "$(sql "select count(*) from session where complete = 1")" -eq 1 ]
}
