# sshd.bash: a real, throwaway sshd on 127.0.0.1 for the remote tests (load sshd).
#
# sshd_start DIR starts /usr/sbin/sshd on a free port with its own host key, authorizes a fresh
# client key, and writes DIR/ssh_config for `ssh -F`/--ssh-config: that key, and DIR/known_hosts
# holding the host key as the only known host.  Host key checking stays on
# (StrictHostKeyChecking yes): the tests talk to a host they know, as a user's would.
# sshd_stop stops it; call it from teardown (or teardown_file), which bats runs even when a
# test fails.  Sets SSHD_PORT, SSHD_DEST (user@127.0.0.1:port), SSHD_CONFIG, SSHD_DIR; sessions
# there have the NAME=VALUE words of $SSHD_SETENV when set (a host whose clearpath reads a fixture:
# SSHD_SETENV=CLEARPATH_SYSROOT=DIR; sshd takes a name's first value, so they win), then
# TMPDIR=$SSHD_DIR/tmp and XDG_STATE_HOME=$SSHD_DIR/state (what a host keeps for its user).  With SSHD_NO_SFTP set it has no
# SFTP subsystem, as a dropbear board or a minimal image has none.

# A TCP port nothing listens on now, from the kernel.
free_port() {
	python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

sshd_start() {
	SSHD_DIR=$1
	# the sessions' TMPDIR, so a test sees what clearpath left on the "host"
	mkdir -p "$SSHD_DIR/tmp" "$SSHD_DIR/state"
	# sshd runs as root with privilege separation, which needs this empty directory
	[ "$(id -u)" != 0 ] || mkdir -p /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/host_key" -C clearpath-test-host
	ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/client_key" -C clearpath-test-client
	cp "$SSHD_DIR/client_key.pub" "$SSHD_DIR/authorized_keys"
	local user sftp tries
	user=$(id -un)
	sftp=$(ls /usr/lib/openssh/sftp-server /usr/libexec/openssh/sftp-server /usr/libexec/sftp-server 2>/dev/null | head -1)
	# A port taken between free_port and sshd's bind makes sshd exit: take another.
	for tries in 1 2 3 4 5; do
		SSHD_PORT=$(free_port)
		cat > "$SSHD_DIR/sshd_config" <<-CONF
			ListenAddress 127.0.0.1
			Port $SSHD_PORT
			HostKey $SSHD_DIR/host_key
			PidFile $SSHD_DIR/sshd.pid
			AuthorizedKeysFile $SSHD_DIR/authorized_keys
			AuthenticationMethods publickey
			PasswordAuthentication no
			KbdInteractiveAuthentication no
			PermitRootLogin prohibit-password
			AllowUsers $user
			UsePAM no
			StrictModes no
			$([ -n "${SSHD_NO_SFTP:-}" ] || echo "Subsystem sftp $sftp")
			SetEnv ${SSHD_SETENV:-} TMPDIR=$SSHD_DIR/tmp XDG_STATE_HOME=$SSHD_DIR/state
		CONF
		: > "$SSHD_DIR/sshd.log"
		/usr/sbin/sshd -D -e -f "$SSHD_DIR/sshd_config" </dev/null >/dev/null 2>"$SSHD_DIR/sshd.log" 3>&- &
		SSHD_PID=$!
		# sshd says so once it listens; it exits when it cannot
		while kill -0 "$SSHD_PID" 2>/dev/null && ! grep -q 'Server listening' "$SSHD_DIR/sshd.log"; do
			sleep 0.1
		done
		grep -q 'Server listening' "$SSHD_DIR/sshd.log" && break
		wait "$SSHD_PID" 2>/dev/null
		SSHD_PID=
	done
	[ -n "$SSHD_PID" ] || { cat "$SSHD_DIR/sshd.log"; return 1; }
	printf '[127.0.0.1]:%s %s\n' "$SSHD_PORT" "$(cut -d' ' -f1-2 "$SSHD_DIR/host_key.pub")" \
		> "$SSHD_DIR/known_hosts"
	SSHD_CONFIG=$SSHD_DIR/ssh_config
	sshd_client_config "$SSHD_CONFIG" "$SSHD_DIR/client_key" "$SSHD_DIR/known_hosts"
	SSHD_DEST=$user@127.0.0.1:$SSHD_PORT
}

# sshd_client_config FILE KEY KNOWN_HOSTS: an ssh config logging in with KEY only, trusting the
# hosts of KNOWN_HOSTS only.
sshd_client_config() {
	cat > "$1" <<-CONF
		Host *
		  IdentityFile $2
		  IdentitiesOnly yes
		  IdentityAgent none
		  UserKnownHostsFile $3
		  GlobalKnownHostsFile /dev/null
		  StrictHostKeyChecking yes
		  UpdateHostKeys no
	CONF
}

sshd_stop() {
	[ -n "${SSHD_PID:-}" ] || return 0
	kill "$SSHD_PID" 2>/dev/null
	wait "$SSHD_PID" 2>/dev/null
	SSHD_PID=
}
