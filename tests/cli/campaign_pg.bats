#!/usr/bin/env bats
# campaign_pg: campaigns whose store is a password-protected PostgreSQL server (tests/pg-server): the
# password reaches libpq through a pgpass file only, never anything clearpath writes or prints.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	pg_file_start
	[ -n "${CLEARPATH_EMULATOR:-}" ] && return 0
	# a password found nowhere else, so a grep for it finds only a leak
	PW="cp-pw-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')-Zq"
	tests/pg-server psql "$PGDIR" -c "ALTER ROLE postgres PASSWORD '$PW'" >/dev/null
	export PW
}

teardown_file() {
	pg_file_stop
}

setup() {
	pg_test_db camp
	export CLEARPATH_FAKE_BOOT="$D/boot"
	export CLEARPATH_SYSTEMD_DIR="$D/units"
	export XDG_CONFIG_HOME="$D/config"
	mkdir -p "$CLEARPATH_SYSTEMD_DIR"
	boot_tool_standins "$D/bin"
	export PATH="$D/bin:$PATH"
	# the server's URL with this file's password in it, as a user would write it
	URL="${PG/:secret@/:$PW@}"
	# each session writes its own command line (its parent's argv) down, as ps would show it
	cat >"$D/cmd.yaml" <<EOF
swprofiles:
  base:  {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-base"]}, expect: {release: 6.18.0-base}}
  patch: {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-patch"]}, expect: {release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "tr '\\\\0' ' ' </proc/\$PPID/cmdline >>'$D/argv'; echo >>'$D/argv'; echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
}

teardown() {
	[ ! -e "$D/ran" ] || { echo "a boot tool ran: $(cat "$D/ran")"; return 1; }
}

@test "campaign on a password-protected PostgreSQL store: the password is in no unit, row, output, session argv or report" {
	run --separate-stderr "$CP" campaign start "$D/cmd.yaml" --boots 1 --seed 3 --yes --store "$URL"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
	printf '%s\n%s\n' "$output" "$stderr" >"$D/printed"
	[ -f "$D/units/clearpath-campaign.service" ]
	# the unit's own command line, as systemd would run it after each boot: no password given
	local words
	mapfile -t words < <(unit_words "$D/units/clearpath-campaign.service")
	[ "${words[3]}" = 1 ]
	for i in 1 2; do
		run --separate-stderr "${words[@]}"
		[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; return 1; }
		printf '%s\n%s\n' "$output" "$stderr" >>"$D/printed"
	done
	[[ "$output" == *"campaign 1 done: 2 boots"* ]]
	[ "$(tests/pg-server psql "$PGDIR" -d "$DB" -c "select status from campaign")" = done ]
	[ "$(wc -l <"$D/argv")" -eq 2 ]
	# the table and the report of the campaign's store, through the URL it recorded
	run --separate-stderr "$CP" campaign status --store "$URL"
	[ "$status" -eq 0 ]
	printf '%s\n%s\n' "$output" "$stderr" >>"$D/printed"
	run --separate-stderr "$CP" report --store "${words[5]}" -o "$D/report.html"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	pg_dump_rows >"$D/rows"
	[ -s "$D/rows" ]
	# libpq's own mechanism holds it: a pgpass file only its owner reads
	[ "$(stat -c %a "$XDG_CONFIG_HOME/clearpath/pgpass")" = 600 ]
	[ "$(stat -c %a "$XDG_CONFIG_HOME/clearpath")" = 700 ]
	grep -qF "$PW" "$XDG_CONFIG_HOME/clearpath/pgpass"
	# and nothing else
	! grep -rlF "$PW" "$D/units" "$D/printed" "$D/rows" "$D/argv" "$D/report.html" || {
		grep -rF "$PW" "$D/units" "$D/printed" "$D/rows" "$D/argv" | head -5; return 1; }
}

@test "campaign on PostgreSQL: a password in the URL's query is moved out too; a dry run writes no pgpass" {
	local q="${PG/:secret@/@}?password=$PW"
	cat >"$D/ab.yaml" <<'EOF'
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base}}
  patch: {boot: {method: fake, release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --dry-run --store "$q"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" != *"$PW"* && "$stderr" != *"$PW"* ]]
	[ ! -e "$XDG_CONFIG_HOME/clearpath/pgpass" ]
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --store "$q"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[[ "$output" == *"campaign 1 done: 2 boots"* ]]
	[[ "$output" != *"$PW"* && "$stderr" != *"$PW"* ]]
	! pg_dump_rows | grep -qF "$PW"
	grep -qF "$PW" "$XDG_CONFIG_HOME/clearpath/pgpass"
}

@test "campaign start: two at once never make two running campaigns, even when both checked before either wrote" {
	cat >"$D/reb.yaml" <<EOF2
swprofiles:
  base: {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-base"]}, expect: {release: 6.18.0-base}}
defaults: {warmups: 0, repeats: 1}
benchmarks:
  - exec: {name: rate, command: "echo rate 1", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	# the store's tables first
	"$CP" run --quiet --force --repeats 1 --store "$URL" -- mem memset -f default -s 64KB -l 1 >/dev/null
	# a transaction that lets both starts read (no campaign runs) and makes both wait to write
	tests/pg-server psql "$PGDIR" -d "$DB" -c "BEGIN; LOCK TABLE campaign IN SHARE MODE; SELECT pg_sleep(4); COMMIT;" >/dev/null &
	local lock=$!
	sleep 1
	CLEARPATH_SYSTEMD_DIR=$D/u1 "$CP" campaign start "$D/reb.yaml" --boots 1 --yes --store "$URL" >"$D/a" 2>&1 &
	local a=$!
	CLEARPATH_SYSTEMD_DIR=$D/u2 "$CP" campaign start "$D/reb.yaml" --boots 1 --yes --store "$URL" >"$D/b" 2>&1 &
	local b=$! sa=0 sb=0
	mkdir -p "$D/u1" "$D/u2"
	wait "$lock"
	wait "$a" || sa=$?
	wait "$b" || sb=$?
	[ "$(tests/pg-server psql "$PGDIR" -d "$DB" -c "select count(*) from campaign where status = 'running'")" -eq 1 ] || {
		cat "$D/a" "$D/b"; return 1; }
	# one started, the other was refused saying which campaign runs
	[ $((sa + sb)) -eq 2 ] || { echo "$sa $sb"; cat "$D/a" "$D/b"; return 1; }
	grep -q "local is in campaign [12], which is running in this store" "$D/a" "$D/b"
}
