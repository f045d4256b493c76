#!/usr/bin/env bats
# remote.bats: `clearpath remote check` over a real sshd on 127.0.0.1 (sshd.bash): the transport's
# login, uname -m, private directory and copy, and what each way of failing to connect says.

bats_require_minimum_version 1.5.0
load helpers
load sshd

setup_file() {
	sshd_start "$BATS_FILE_TMPDIR/sshd"
	export SSHD_PID SSHD_PORT SSHD_DEST SSHD_CONFIG SSHD_DIR
}

teardown_file() {
	sshd_stop
}

setup() {
	setup_store
	skip_emulated "the test sshd's host is this x86-64 machine, not the emulated one"
	# no static build: the binary under test is what reaches the host
	export CLEARPATH_STATIC_DIR=$D/nostatic
	mkdir -p "$CLEARPATH_STATIC_DIR"
}

# What clearpath left in the host's TMPDIR.
leftovers() {
	ls -A "$SSHD_DIR/tmp"
}

@test "remote check: logs in, copies this binary, runs it there and cleans up" {
	run --separate-stderr "$CP" remote check --ssh-config "$SSHD_CONFIG" "$SSHD_DEST"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$output" = "$SSHD_DEST: $(uname -m), $("$CP" --version) runs there" ]
	[ -z "$(leftovers)" ]
}

@test "remote check: the static build for the host's architecture is preferred" {
	# a stand-in 'static build' that answers --version like clearpath, so the test sees which file went over
	printf '#!/bin/sh\necho "clearpath static-stand-in ($(uname -m))"\n' > "$CLEARPATH_STATIC_DIR/clearpath-$(uname -m)"
	chmod +x "$CLEARPATH_STATIC_DIR/clearpath-$(uname -m)"
	run --separate-stderr "$CP" remote check --ssh-config "$SSHD_CONFIG" "$SSHD_DEST"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$output" = "$SSHD_DEST: $(uname -m), clearpath static-stand-in ($(uname -m)) runs there" ]
}

@test "remote check: a refused connection is exit 3 with ssh's message and a hint" {
	run --separate-stderr "$CP" remote check --ssh-config "$SSHD_CONFIG" "$(id -un)@127.0.0.1:$(free_port)"
	refused 3 "cannot reach" "Connection refused" "hint: nothing listens for ssh there"
	# ssh's closing \r\n does not trail the message as blanks
	[[ "${stderr%%$'\n'*}" == *"Connection refused" ]]
}

@test "remote check: an unknown host key is refused, never accepted" {
	: > "$D/empty_known_hosts"
	sshd_client_config "$D/cfg" "$SSHD_DIR/client_key" "$D/empty_known_hosts"
	run --separate-stderr "$CP" remote check --ssh-config "$D/cfg" "$SSHD_DEST"
	refused 3 "Host key verification failed" "not in your known_hosts"
	# and nothing was added to it
	[ ! -s "$D/empty_known_hosts" ]
}

@test "remote check: a key the host does not accept is an authentication failure, no prompt" {
	ssh-keygen -q -t ed25519 -N '' -f "$D/other_key"
	sshd_client_config "$D/cfg" "$D/other_key" "$SSHD_DIR/known_hosts"
	run --separate-stderr "$CP" remote check --ssh-config "$D/cfg" "$SSHD_DEST" </dev/null
	refused 3 "Permission denied" "BatchMode"
}

@test "remote check: every host is checked; one failing makes the exit 3" {
	run --separate-stderr "$CP" remote check --ssh-config "$SSHD_CONFIG" "$(id -un)@127.0.0.1:$(free_port)" "$SSHD_DEST"
	[ "$status" -eq 3 ]
	[ "$output" = "$SSHD_DEST: $(uname -m), $("$CP" --version) runs there" ]
	[[ "$stderr" == *"Connection refused"* ]]
}

@test "remote check: bad destinations and a missing subcommand are usage errors" {
	run --separate-stderr "$CP" remote check "root@127.0.0.1:99999"
	refused 2 "bad host 'root@127.0.0.1:99999'"
	run --separate-stderr "$CP" remote check -- "-oProxyCommand=x"
	refused 2 "bad host"
	# without '--' it is an option: named as written, not as the word before it ("check is not an option")
	run --separate-stderr "$CP" remote check "-oProxyCommand=x" nohost.invalid
	refused 2 "-o is not an option of 'remote'"
	run --separate-stderr "$CP" run --quiet -xyz -- mem memset
	refused 2 "-x is not an option of 'run'"
	run --separate-stderr "$CP" plan run -Qz plans/quick.yaml
	refused 2 "-Q is not an option of 'plan run'"
	# ssh refused these itself ("hostname contains invalid characters"), which was exit 3
	for bad in "a b.invalid" $'box\t1.invalid' $'root@bo\nx.invalid'; do
		run --separate-stderr "$CP" remote check "$bad"
		refused 2 "bad host"
	done
	# a missing --ssh-config was "cannot reach HOST over ssh", exit 3
	run --separate-stderr "$CP" remote check --ssh-config "$D/nonexistent" nohost.invalid
	refused 2 "cannot read the ssh config $D/nonexistent"
	# ssh read /dev/zero as its configuration for ever (a hang), and took a directory for none
	for cfg in /dev/zero "$D"; do
		run --separate-stderr timeout 60 "$CP" remote check --ssh-config "$cfg" nohost.invalid
		refused 2 "the ssh config $cfg is not a regular file"
	done
	run --separate-stderr "$CP" remote check
	refused 2 "at least one host"
	run --separate-stderr "$CP" remote
	refused 2 "needs a subcommand"
}
