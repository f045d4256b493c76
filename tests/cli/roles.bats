#!/usr/bin/env bats
# roles.bats: a lab's shared store set up by `clearpath store roles` on a real server (tests/pg-server):
# every command under the writer and the reader role, passwords from a pgpass file only.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	pg_file_start
}

teardown_file() {
	pg_file_stop
}

setup() {
	pg_test_db roles
	export CLEARPATH_FAKE_BOOT="$D/boot"
	export CLEARPATH_SYSTEMD_DIR="$D/units"
	mkdir -p "$CLEARPATH_SYSTEMD_DIR"
	boot_tool_standins "$D/bin"
	export PATH="$D/bin:$PATH"
	port=$(cat "$PGDIR/port")
	O=o_$DB W=w_$DB R=r_$DB
	run "$CP" store roles --store "$PG" --owner "$O" --writer "$W" --reader "$R"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$output" = "${PG/:secret@/:***@}: owned by $O, written by $W, read by $R; schema v$(schema_version)" ]
	# passwords as libpq takes them from a file, never in a URL
	for role in "$O" "$W" "$R"; do
		pg_sql "ALTER ROLE $role PASSWORD 'pw-$role'"
		echo "127.0.0.1:$port:$DB:$role:pw-$role" >>"$D/pgpass"
	done
	chmod 600 "$D/pgpass"
	export PGPASSFILE=$D/pgpass
	WU="postgresql://$W@127.0.0.1:$port/$DB"
	RU="postgresql://$R@127.0.0.1:$port/$DB"
}

teardown() {
	[ ! -e "$D/ran" ] || { echo "a boot tool ran: $(cat "$D/ran")"; return 1; }
	pg_sql "DROP DATABASE IF EXISTS $DB" -d postgres >/dev/null 2>&1 || true
}

pg_sql() {
	tests/pg-server psql "$PGDIR" -d "$DB" -c "$1"
}

# psql as role $1 with its password from the pgpass file.
as_role() {
	PGPASSWORD=pw-$1 psql -h 127.0.0.1 -p "$port" -U "$1" -d "$DB" -X -q -t -A -c "$2"
}

schema_version() {
	pg_sql "select version from clearpath_schema"
}

# Every row count of the store, one line: what a refused command must leave as it was.
counts() {
	pg_sql "select (select count(*) from session), (select count(*) from sample), (select count(*) from error),
		(select count(*) from sut), (select count(*) from swprofile), (select count(*) from campaign),
		(select count(*) from run_state), (select count(*) from sequential)"
}

plans() {
	cat >"$D/p.yaml" <<'EOF2'
name: lab
defaults: {warmups: 0, repeats: 2, sessions: 2}
benchmarks:
  - mem memset -f default -s 64KB -l 1
  - exec: {name: tick, command: "[ -e \"$STOP\" ] || { touch \"$STOP\"; kill -9 $PPID; }; echo v 1", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
	cat >"$D/ab.yaml" <<'EOF2'
name: ab
swprofiles:
  base:  {boot: {method: fake, release: 6.18.0-base}}
  patch: {boot: {method: fake, release: 6.18.0-patch}, cmdline: init_on_alloc=0}
defaults: {warmups: 0, repeats: 2}
benchmarks:
  - exec: {name: rate, command: "echo rate 42.5", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
}

@test "roles: the writer runs, plans, calibrates, imports, merges in and runs a whole campaign; it reads all" {
	skip_emulated "no libpq"
	plans
	"$CP" run --quiet --repeats 2 --sut box --store "$WU" -- mem memset -f default -s 64KB -l 1 >/dev/null
	# a plan interrupted, then resumed (its state written, updated, deleted)
	STOP=$D/stop run "$CP" plan run --quiet --sut box --swprofile now --store "$WU" "$D/p.yaml"
	[ "$status" -ne 0 ]
	STOP=$D/stop "$CP" plan run --quiet --resume --sut box --swprofile now --store "$WU" "$D/p.yaml" >/dev/null
	STOP=$D/stop "$CP" plan run --quiet --sut box --swprofile now-too --store "$WU" --until-decided --max-sessions 3 \
		"$D/p.yaml" >/dev/null 2>&1
	[ "$(pg_sql 'select count(*) from sequential')" -ge 1 ]
	STOP=$D/stop "$CP" calibrate --quiet --sut box --sessions 2 --store "$WU" "$D/p.yaml" >/dev/null
	# a whole campaign: start runs it to its end with the fake boots
	run "$CP" campaign start "$D/ab.yaml" --boots 2 --seed 3 --store "$WU"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(pg_sql "select status from campaign")" = done ]
	[ "$(pg_sql "select count(*) from campaign_boot where status = 'done'")" -eq 4 ]
	"$CP" campaign status --store "$WU" >/dev/null
	"$CP" campaign status --format json --store "$WU" >/dev/null
	# imports, both forms, and merges in, from a file with sessions of its own
	"$CP" run --quiet --repeats 1 --sut other --store "$D/a.db" -- mem memset -f default -s 64KB -l 1 >/dev/null
	"$CP" export --store "$D/a.db" "$D/a.csv"
	"$CP" export --store "$D/a.db" --whole "$D/a-whole.csv"
	"$CP" import --store "$WU" "$D/a.csv" >/dev/null
	sed 's/[0-9a-f]\{8\}-[0-9a-f]\{4\}-4/5eed0000-0000-4/' "$D/a-whole.csv" >"$D/b-whole.csv"
	"$CP" import --store "$WU" "$D/b-whole.csv" >/dev/null
	"$CP" run --quiet --repeats 1 --sut other --store "$D/c.db" -- mem memset -f default -s 64KB -l 1 >/dev/null
	"$CP" merge --into "$WU" "$D/c.db" >/dev/null
	# and it reads everything
	"$CP" show --store "$WU" >/dev/null
	"$CP" report --store "$WU" -o "$D/w.html" >/dev/null 2>&1 || [ $? -eq 3 ]
	for k in suts swprofiles benchmarks sessions; do
		"$CP" list "$k" --store "$WU" --format json >/dev/null
	done
	"$CP" export --store "$WU" --whole "$D/w.csv"
	"$CP" merge --into "$D/back.db" "$WU" >/dev/null
	[ "$(pg_sql 'select count(*) from session')" -gt 10 ]
	# what it must not: change or delete a sample or an error, change the schema or its version
	for sql in "DELETE FROM sample" "UPDATE sample SET value = 0" "DELETE FROM error" "DELETE FROM session" \
		"UPDATE clearpath_schema SET version = 1" "INSERT INTO clearpath_schema VALUES ('x', 1)" \
		"DROP TABLE sample" "CREATE TABLE mine (x int)" "ALTER TABLE sample ADD COLUMN x int"; do
		run as_role "$W" "$sql"
		[ "$status" -ne 0 ] && [[ "$output" == *"permission denied"* || "$output" == *"must be owner"* ]] ||
			{ echo "the writer could: $sql ($output)"; return 1; }
	done
}

@test "roles: the reader shows, reports, lists, exports and is a merge's source; it writes nothing, anywhere" {
	skip_emulated "no libpq"
	plans
	"$CP" run --quiet --repeats 2 --sut box --store "$WU" -- mem memset -f default -s 64KB -l 1 >/dev/null
	"$CP" campaign start "$D/ab.yaml" --boots 1 --seed 3 --store "$WU" >/dev/null
	run "$CP" show --store "$RU"
	[ "$status" -eq 0 ] && [[ "$output" == *"memset -f default -s 64KB -l 1"* ]]
	"$CP" show --store "$RU" --format json >/dev/null
	"$CP" report --store "$RU" -o "$D/r.html" >/dev/null 2>&1 || [ $? -eq 3 ]
	for k in suts swprofiles benchmarks sessions; do
		"$CP" list "$k" --store "$RU" --format json >/dev/null
	done
	"$CP" export --store "$RU" "$D/r.csv"
	"$CP" export --store "$RU" --whole --format json "$D/r.json"
	"$CP" merge --into "$D/copy.db" "$RU" >/dev/null
	"$CP" campaign status --store "$RU" >/dev/null
	"$CP" run --quiet --repeats 1 --sut other --store "$D/a.db" -- mem memset -f default -s 64KB -l 1 >/dev/null
	"$CP" export --store "$D/a.db" --whole "$D/a.csv"
	before=$(counts)
	# every command that writes is refused with the server's word, exit 3, and nothing lands
	refuse() {
		run --separate-stderr "$@"
		[ "$status" -eq 3 ] && [[ "$stderr" == *"permission denied"* || "$stderr" == *"read-only"* ]] ||
			{ echo "not refused ($status): $* -- $stderr"; return 1; }
	}
	refuse "$CP" run --quiet --repeats 1 --sut box --store "$RU" -- mem memset -f default -s 64KB -l 1
	STOP=$D/stop refuse "$CP" plan run --quiet --sut box --store "$RU" "$D/p.yaml"
	refuse "$CP" calibrate --quiet --sut box --sessions 2 --store "$RU" "$D/p.yaml"
	refuse "$CP" import --store "$RU" "$D/a.csv"
	refuse "$CP" merge --into "$RU" "$D/a.db"
	refuse "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 4 --store "$RU"
	[ "$(counts)" = "$before" ]
	for sql in "INSERT INTO sut (name) VALUES ('x')" "UPDATE session SET complete = 0" "DELETE FROM run_state" \
		"UPDATE campaign SET status = 'aborted'" "CREATE TABLE mine (x int)"; do
		run as_role "$R" "$sql"
		[ "$status" -ne 0 ] || { echo "the reader could: $sql"; return 1; }
	done
	[ "$(counts)" = "$before" ]
}

@test "roles: run again (after an upgrade) it is the same; names are checked, a file has no roles" {
	skip_emulated "no libpq"
	"$CP" run --quiet --repeats 1 --sut box --store "$WU" -- mem memset -f default -s 64KB -l 1 >/dev/null
	run "$CP" store roles --store "$PG" --owner "$O" --writer "$W" --reader "$R"
	[ "$status" -eq 0 ]
	"$CP" run --quiet --repeats 1 --sut box --store "$WU" -- mem memset -f default -s 64KB -l 1 >/dev/null
	[ "$(pg_sql "select tableowner from pg_tables where schemaname = 'public' group by 1")" = "$O" ]
	run --separate-stderr "$CP" store roles --store "$PG" --writer "Bad Name"
	refused 2 "the writer role's name 'Bad Name' is not a plain identifier"
	run --separate-stderr "$CP" store roles --store "$PG" --writer "$O" --owner "$O"
	refused 2 "must be three roles"
	run --separate-stderr "$CP" store roles --store "$D/x.db"
	refused 2 "is a file: a lab's roles are a database server's"
	[ ! -e "$D/x.db" ]
	run --separate-stderr "$CP" store roles
	refused 2 "'store roles' needs --store"
	run --separate-stderr "$CP" store
	refused 2 "'store' needs a subcommand: roles"
}

@test "roles: after the writer's campaign (its unit run as systemd would) and report -o by either role, no role's password is in a row, the unit, the output or a page" {
	skip_emulated "no libpq"
	plans
	export XDG_CONFIG_HOME=$D/config
	# boots simulated by command: the controller stops after each, and the unit it wrote goes on
	cat >"$D/cmd.yaml" <<EOF2
name: cmd
swprofiles:
  c-base:  {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-base"]}, expect: {release: 6.18.0-base}}
  c-patch: {boot: {method: command, commands: ["'$CP' campaign fake-boot --release 6.18.0-patch"]}, expect: {release: 6.18.0-patch}}
defaults: {warmups: 0, repeats: 2}
benchmarks:
  - exec: {name: rate, command: "echo rate 42.5", regex: 'rate ([0-9.]+)', unit: GB/sec, higher_is_better: true}
EOF2
	# the writer's password pasted into the URL as well, as a user may: it must go no further
	local wpu="postgresql://$W:pw-$W@127.0.0.1:$port/$DB" words
	run --separate-stderr "$CP" campaign start "$D/cmd.yaml" --boots 1 --seed 5 --yes --store "$wpu"
	[ "$status" -eq 0 ] || { echo "$output $stderr"; return 1; }
	printf '%s\n%s\n' "$output" "$stderr" >"$D/printed"
	mapfile -t words < <(unit_words "$D/units/clearpath-campaign.service")
	for i in 1 2; do
		run --separate-stderr "${words[@]}"
		[ "$status" -eq 0 ] || { echo "$output $stderr"; return 1; }
		printf '%s\n%s\n' "$output" "$stderr" >>"$D/printed"
	done
	[[ "$output" == *"done: 2 boots"* ]]
	# a whole fake campaign too, and the reader may not start one
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 6 --store "$WU"
	[ "$status" -eq 0 ] || { echo "$output $stderr"; return 1; }
	printf '%s\n%s\n' "$output" "$stderr" >>"$D/printed"
	run --separate-stderr "$CP" campaign start "$D/ab.yaml" --boots 1 --seed 7 --store "$RU"
	[ "$status" -eq 3 ] && [[ "$stderr" == *"permission denied"* ]]
	printf '%s\n%s\n' "$output" "$stderr" >>"$D/printed"
	[ "$(pg_sql "select string_agg(status, ' ' order by id) from campaign")" = "done done" ]
	# the pages and what the commands say, by each role, the writer's through the URL with its password
	for u in "$wpu" "$WU" "$RU" "${RU/@/:pw-$R@}"; do
		run --separate-stderr "$CP" report --store "$u" -o "$D/page-${#u}.html"
		[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || { echo "$stderr"; return 1; }
		printf '%s\n%s\n' "$output" "$stderr" >>"$D/printed"
		run --separate-stderr "$CP" campaign status --all --store "$u"
		printf '%s\n%s\n' "$output" "$stderr" >>"$D/printed"
		run --separate-stderr "$CP" show --store "$u"
		printf '%s\n%s\n' "$output" "$stderr" >>"$D/printed"
	done
	[[ "$(cat "$D/printed")" == *"pw-"* ]] && { grep -n "pw-" "$D/printed"; return 1; }
	pg_dump_rows >"$D/rows"
	[ "$(grep -c . "$D/rows")" -gt 10 ]
	# a password reaches libpq from a pgpass file only: nothing else clearpath writes or prints has one
	! grep -rlF -e "pw-$O" -e "pw-$W" -e "pw-$R" "$D/units" "$D/printed" "$D/rows" "$D"/page-*.html || {
		grep -rF -e "pw-$W" -e "pw-$R" "$D/units" "$D/printed" "$D/rows" | head -5; return 1; }
	ls "$D"/page-*.html >/dev/null
}
