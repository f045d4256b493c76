#!/usr/bin/env bats
# postgresql.bats: PostgreSQL stores against a real server that the tests start (tests/pg-server) and stop.

bats_require_minimum_version 1.5.0

load helpers

setup_file() {
	pg_file_start
}

teardown_file() {
	pg_file_stop
}

setup() {
	pg_test_db t
}

# pg_sql QUERY: the rows of database $DB, '|'-separated.
pg_sql() {
	tests/pg-server psql "$PGDIR" -d "$DB" -c "$1"
}

# The samples of a store as export writes them, sorted (merges need not keep session order).
samples_of() {
	"$CP" export --store "$1" - | sort
}

# A small store in $1 with one session of two functions, each a warmup and two repeats.
small_store() {
	"$CP" run --quiet --force --warmups 1 --repeats 2 --store "$1" -- mem memset -f default,c-loop -s 64KB -l 1 >/dev/null
}

@test "postgresql: run, list, show and export against a server; show is byte-identical to SQLite's" {
	run "$CP" run --quiet --force --repeats 2 --store "$PG" -- mem memset -f default,c-loop -s 64KB -l 1
	[ "$status" -eq 0 ]
	[ "$(pg_sql 'select count(*) from sample')" -eq 6 ]
	run "$CP" list sessions --store "$PG" --format json
	[ "$status" -eq 0 ]
	json_check 'assert len(d) == 1 and d[0]["samples"] == 6 and d[0]["complete"] is True, d'
	"$CP" export --store "$PG" "$D/pg.csv"
	# the copy takes the whole form: show reads the SUT's fingerprint (its last-level cache says
	# which rows are cache-resident), which the sample form does not carry
	"$CP" export --store "$PG" --whole "$D/pg-whole.csv"
	"$CP" import --store "$D/copy.db" "$D/pg-whole.csv"
	# one schema description, the same version in either backend
	STORE=$D/copy.db
	[ "$(pg_sql 'select version from clearpath_schema')" -eq "$(store_sql 'PRAGMA user_version')" ]
	"$CP" show --store "$PG" >"$D/pg.txt"
	"$CP" show --store "$D/copy.db" >"$D/sqlite.txt"
	cmp "$D/pg.txt" "$D/sqlite.txt"
	"$CP" export --store "$D/copy.db" "$D/sqlite.csv"
	cmp "$D/pg.csv" "$D/sqlite.csv"
	# $CLEARPATH_STORE names it too, and libpq's keyword form
	CLEARPATH_STORE=$PG run "$CP" list suts
	[ "$status" -eq 0 ]
	port=$(cat "$PGDIR/port")
	run "$CP" list sessions --store "host=127.0.0.1 port=$port dbname=$DB user=postgres password=secret"
	[ "$status" -eq 0 ]
	[[ "$output" == *complete* || "$output" == *yes* ]]
}

@test "postgresql: import into a server store, export gives the same file back" {
	small_store "$D/a.db"
	"$CP" export --store "$D/a.db" "$D/a.csv"
	run "$CP" import --store "$PG" "$D/a.csv"
	[ "$status" -eq 0 ]
	"$CP" export --store "$PG" "$D/back.csv"
	cmp "$D/a.csv" "$D/back.csv"
	# again: nothing added
	"$CP" import --store "$PG" "$D/a.csv"
	[ "$(pg_sql 'select count(*) from sample')" -eq "$(($(wc -l <"$D/a.csv") - 1))" ]
}

@test "postgresql: merge --into a server from two files, and from the server into a new file" {
	small_store "$D/a.db"
	small_store "$D/b.db"
	run "$CP" merge --into "$PG" "$D/a.db" "$D/b.db"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 session added"* ]]
	run "$CP" merge --into "$D/c.db" "$PG"
	[ "$status" -eq 0 ]
	[[ "$output" == *"2 sessions added"* ]]
	"$CP" show --store "$PG" >"$D/pg.txt"
	"$CP" show --store "$D/c.db" >"$D/c.txt"
	cmp "$D/pg.txt" "$D/c.txt"
	# sqlite -> postgresql -> sqlite keeps every sample
	cat <(samples_of "$D/a.db" | grep -v '^sut,') <(samples_of "$D/b.db" | grep -v '^sut,') | sort >"$D/want"
	samples_of "$D/c.db" | grep -v '^sut,' >"$D/got"
	cmp "$D/want" "$D/got"
	# error rows travel too: an exec that fails in its second invocation
	cat >"$D/fail.yaml" <<'EOF2'
name: fail
defaults: {warmups: 0, repeats: 3, sessions: 1}
benchmarks:
  - exec: {name: flaky, command: "n=$(cat \"$D/n\" 2>/dev/null || echo 0); echo $((n + 1)) >\"$D/n\"; [ $n -ne 1 ] || exit 1; echo v 1", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
	D=$D "$CP" plan run --quiet --force --store "$D/e.db" "$D/fail.yaml" >/dev/null 2>&1 || true
	"$CP" merge --into "$PG" "$D/e.db"
	"$CP" merge --into "$D/e2.db" "$PG"
	for s in "$D/e.db" "$PG" "$D/e2.db"; do
		run "$CP" list sessions --store "$s" --format json
		json_check 'e = [x for x in d if x["errors"]]; assert len(e) == 1 and e[0]["errors"] == 1 and e[0]["samples"] == 2, d'
	done
	# merging again adds nothing
	run "$CP" merge --into "$PG" "$D/a.db" "$D/c.db"
	[ "$status" -eq 0 ]
	[[ "$output" == *"0 sessions added"* ]]
	[ "$(pg_sql 'select count(*) from session')" -eq 3 ]
}

@test "postgresql: merge from a server named in libpq's keyword form (host=..., service=...), not a file of that name" {
	small_store "$D/a.db"
	"$CP" merge --into "$PG" "$D/a.db" >/dev/null
	port=$(cat "$PGDIR/port")
	run "$CP" merge --into "$D/k.db" "host=127.0.0.1 port=$port dbname=$DB user=postgres password=secret"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 session added"* ]]
	[[ "$output" != *secret* ]]
	printf '[lab]\nhost=127.0.0.1\nport=%s\ndbname=%s\nuser=postgres\npassword=secret\n' "$port" "$DB" >"$D/pg_service.conf"
	PGSERVICEFILE=$D/pg_service.conf run "$CP" merge --into "$D/s.db" service=lab
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 session added"* ]]
	cmp <(samples_of "$D/a.db") <(samples_of "$D/s.db")
}

@test "postgresql: names at the 1024-byte limit, none compressible, go in; one name limit refuses longer ones as SQLite does" {
	HEADER=sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time
	# random letters: the server cannot compress them into its index, as it did "nnnn..."
	python3 - "$HEADER" >"$D/long.csv" <<-'EOF2'
	import random, sys
	r = random.Random(26)
	name = lambda n: "".join(r.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(n))
	print(sys.argv[1])
	print(",".join([name(1024), name(1024), "5eed0000-0000-4000-8000-000000000001",
	                "exec/" + name(1019) + " --command " + name(1014), name(1024), name(1024), "1", "0", "0", "5",
	                "2026-08-22T08:00:00.000000Z", "2026-08-22T08:00:01.000000Z"]))
	EOF2
	"$CP" import --store "$D/a.db" "$D/long.csv" >/dev/null
	"$CP" merge --into "$PG" "$D/a.db" >/dev/null
	"$CP" export --store "$PG" "$D/pg.csv"
	cmp "$D/long.csv" "$D/pg.csv"
	"$CP" export --store "$PG" --whole "$D/pgw.csv"
	"$CP" import --store "$PG" "$D/pgw.csv" >/dev/null
	# an 8000-byte swprofile: refused at entry (exit 2), never the server's "index row size" (exit 3)
	long=$(python3 -c 'import random; r = random.Random(8); print("".join(r.choice("abcdefgh") for _ in range(8000)))')
	run --separate-stderr "$CP" run --quiet --store "$PG" --swprofile "$long" -- mem memset -s 1MB -l 1 -f default
	refused 2 "invalid value for --swprofile: 8000 bytes long, and a name in the store is at most 1024 bytes"
	"$CP" import --store "$D/b.db" "$D/long.csv" >/dev/null
	STORE=$D/b.db store_sql "UPDATE swprofile SET name = '$long'"
	run --separate-stderr "$CP" merge --into "$PG" "$D/b.db"
	refused 2 "the store to merge holds a swprofile name that is 8000 bytes long" "nothing from $D/b.db was merged"
	[[ "$stderr" != *"index row size"* ]]
	[ "$(pg_sql 'select count(*) from swprofile')" -eq 1 ]
	[ "$(pg_sql 'select count(*) from session')" -eq 1 ]
}

@test "postgresql: the references hold, checked per statement: no sample without its session or class, none left behind" {
	small_store "$D/a.db"
	"$CP" merge --into "$PG" "$D/a.db" >/dev/null
	refused_sql() {	# $1: SQL the server must refuse, $2: what it says
		run tests/pg-server psql "$PGDIR" -d "$DB" -c "$1"
		[ "$status" -ne 0 ] && [[ "$output" == *"$2"* ]] || { echo "status $status: $output"; return 1; }
	}
	refused_sql "INSERT INTO sample (session_id, resultclass_id, iteration, warmup, value, time)
		SELECT 999999, resultclass_id, 9, 0, 1, time FROM sample LIMIT 1" "a sample names no stored session"
	refused_sql "INSERT INTO sample (session_id, resultclass_id, iteration, warmup, value, time)
		SELECT session_id, 999999, 9, 0, 1, time FROM sample LIMIT 1" "a sample names no stored result class"
	refused_sql "UPDATE sample SET session_id = 999999" "a sample names no stored session"
	refused_sql "INSERT INTO session (uuid, sut_id, swprofile_id, started) VALUES
		('5eed0000-0000-4000-8000-00000000dead', 999999, 1, '2026-08-22T08:00:00Z')" "names no stored sut or swprofile"
	refused_sql "DELETE FROM session" "sample rows still refer to a session row gone"
	refused_sql "UPDATE session SET id = id + 1000" "sample rows still refer to a session row gone"
	refused_sql "DELETE FROM resultclass" "sample rows still refer to a resultclass row gone"
	refused_sql "DELETE FROM swprofile_sut; DELETE FROM sut" "session rows still refer to a sut row gone"
	refused_sql "DELETE FROM swprofile_sut; DELETE FROM swprofile" "session rows still refer to a swprofile row gone"
	# an error beside the samples of its invocation, and samples beside an error: refused both ways
	refused_sql "INSERT INTO error (session_id, benchmark_id, iteration, warmup, message, time)
		SELECT x.session_id, r.benchmark_id, x.iteration, x.warmup, 'x', x.time FROM sample x
		JOIN resultclass r ON r.id = x.resultclass_id LIMIT 1" "this invocation already has samples"
	pg_sql "INSERT INTO error (session_id, benchmark_id, iteration, warmup, message, time)
		SELECT session_id, r.benchmark_id, 7, 0, 'failed', '2026-08-22T08:00:00Z' FROM sample x
		JOIN resultclass r ON r.id = x.resultclass_id LIMIT 1"
	refused_sql "INSERT INTO sample (session_id, resultclass_id, iteration, warmup, value, time)
		SELECT session_id, resultclass_id, 7, 0, 1, time FROM sample LIMIT 1" "this invocation already has an error"
	# what is not referred to goes: an unused sut, a session without samples
	pg_sql "INSERT INTO sut (name) VALUES ('spare'); DELETE FROM sut WHERE name = 'spare'"
	[ "$(pg_sql 'select count(*) from sample')" -eq 6 ]
}

@test "postgresql: three machines run one plan into one server at once; none starts the others over" {
	cat >"$D/lab.yaml" <<'EOF2'
name: pgplan
defaults: {warmups: 0, repeats: 2, sessions: 3}
benchmarks:
  - mem memset -f default -s 64KB -l 1
  - exec: {name: tick, command: "sleep 0.2; echo v 1", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
	pids=()
	for sut in box-a box-b box-c; do
		"$CP" plan run --quiet --sut $sut --store "$PG" "$D/lab.yaml" >"$D/$sut.out" 2>&1 &
		pids+=($!)
	done
	rc=0
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=$?
	done
	cat "$D"/box-*.out
	[ "$rc" -eq 0 ]
	run pg_sql "select u.name, count(*), sum(s.complete) from session s join sut u on u.id = s.sut_id group by u.name order by u.name"
	[ "${lines[*]}" = "box-a|3|3 box-b|3|3 box-c|3|3" ]
	[ "$(pg_sql 'select count(*) from sample')" -eq 36 ]
	[ "$(pg_sql 'select count(*) from run_state')" -eq 0 ]
}

@test "postgresql: one swprofile, a cmdline per machine class, into a server by run and merge; a change within a class refused" {
	for m in a b a2; do
		mkdir -p "$D/$m"
		echo 6.18.0-lab >"$D/$m/release"
	done
	echo "console=ttyAMA0 quiet" >"$D/a/cmdline"
	echo "console=ttyS0 quiet" >"$D/b/cmdline"
	echo "console=ttyAMA0 quiet nosmt" >"$D/a2/cmdline"
	CLEARPATH_FAKE_BOOT=$D/a "$CP" run --quiet --repeats 1 --sut box-a --swprofile base --store "$PG" \
		-- mem memset -f default -s 64KB -l 1 >/dev/null
	CLEARPATH_FAKE_BOOT=$D/b "$CP" run --quiet --repeats 1 --sut box-b --swprofile base --store "$D/b.db" \
		-- mem memset -f default -s 64KB -l 1 >/dev/null
	CLEARPATH_FAKE_BOOT=$D/a2 "$CP" run --quiet --repeats 1 --sut box-a --swprofile base --store "$D/a2.db" \
		-- mem memset -f default -s 64KB -l 1 >/dev/null
	"$CP" merge --into "$PG" "$D/b.db" >/dev/null
	[ "$(pg_sql 'select count(*) from swprofile_sut')" -eq 2 ]
	run --separate-stderr "$CP" merge --into "$PG" "$D/a2.db"
	refused 2 "swprofile 'base' already exists with a different fingerprint on SUT class 'box-a' (as the source has it)"
	run --separate-stderr env CLEARPATH_FAKE_BOOT="$D/a2" "$CP" run --quiet --repeats 1 --sut box-a --swprofile base \
		--store "$PG" -- mem memset -f default -s 64KB -l 1
	refused 2 "swprofile 'base' already exists with a different fingerprint on this SUT class"
	# out of the server: each class's own, the same bytes as SQLite's
	"$CP" merge --into "$D/back.db" "$PG" >/dev/null
	"$CP" export --store "$PG" --whole "$D/pg.csv"
	"$CP" export --store "$D/back.db" --whole "$D/back.csv"
	cmp "$D/pg.csv" "$D/back.csv"
	[ "$(grep -c '^sut_swprofile,' "$D/pg.csv")" -eq 2 ]
}

# Every row of every table of database $DB as text, one a line.
pg_all_rows() {
	for t in $(pg_sql "select tablename from pg_tables where schemaname = 'public'"); do
		pg_sql "select t::text from $t t"
	done
}

@test "postgresql: a password in the store URL (user:pw@ or ?password=) is in no output, page, child's command line or row" {
	PW=Zq9-never-shown-7f3e
	pg_sql "CREATE ROLE pw_$DB LOGIN PASSWORD '$PW'; ALTER DATABASE $DB OWNER TO pw_$DB;
		ALTER SCHEMA public OWNER TO pw_$DB;"
	port=$(cat "$PGDIR/port")
	U1="postgresql://pw_$DB:$PW@127.0.0.1:$port/$DB"
	U2="postgresql://127.0.0.1:$port/$DB?user=pw_$DB&password=$PW&sslmode=disable"
	"$CP" run --repeats 2 --store "$U1" -- mem memset -f default -s 64KB -l 1 >"$D/out" 2>&1
	# a plan whose exec records its session process's command line, then stops the run once
	cat >"$D/p.yaml" <<'EOF2'
name: pw
defaults: {warmups: 0, repeats: 1, sessions: 2}
benchmarks:
  - exec: {name: argv, command: "tr '\\0' ' ' </proc/$PPID/cmdline >>\"$ARGV\"; [ -e \"$ARGV.stop\" ] || { touch \"$ARGV.stop\"; kill -9 $PPID; }; echo v 1", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
	ARGV=$D/argv "$CP" plan run --store "$U2" "$D/p.yaml" >>"$D/out" 2>&1 && false
	grep -q "clearpath plan run --resume" "$D/out"
	grep -q -- "--store 'postgresql://127.0.0.1:$port/$DB?user=pw_$DB&password=\*\*\*&sslmode=disable'" "$D/out"
	ARGV=$D/argv "$CP" plan run --resume --store "$U2" "$D/p.yaml" >>"$D/out" 2>&1
	[ "$(wc -l <"$D/argv")" -ge 2 ] && grep -q -- "--session-child" "$D/argv"
	for u in "$U1" "$U2"; do
		"$CP" show --store "$u" --header >>"$D/out" 2>&1
		"$CP" list sessions --store "$u" --format json >>"$D/out" 2>&1
		"$CP" export --store "$u" --whole - >>"$D/out" 2>&1
		"$CP" merge --into "$D/copy.db" "$u" >>"$D/out" 2>&1
	done
	"$CP" report --store "$U2" -o "$D/page.html" >>"$D/out" 2>&1 || [ $? -eq 3 ]
	# a wrong password and a bad URL say so without it
	"$CP" show --store "postgresql://pw_$DB:$PW-x@127.0.0.1:$port/$DB" >>"$D/out" 2>&1 || true
	"$CP" show --store "postgresql://127.0.0.1:$port/$DB?password=$PW&nosuchparam=1" >>"$D/out" 2>&1 || true
	grep -q '\*\*\*' "$D/out"
	! grep -r -- "$PW" "$D" "$PGDIR/log" 2>/dev/null
	pg_all_rows >"$D/rows"
	[ "$(wc -l <"$D/rows")" -gt 10 ]
	! grep -q -- "$PW" "$D/rows"
}

@test "postgresql: 6 concurrent runs into one new store keep every sample" {
	for i in 1 2 3 4 5 6; do
		"$CP" run --quiet --force --warmups 0 --repeats 3 --store "$PG" -- mem memset -f default -s 64KB -l 1 \
			>"$D/out$i" 2>&1 &
	done
	rc=0
	for i in 1 2 3 4 5 6; do
		wait -n || rc=$?
	done
	cat "$D"/out*
	[ "$rc" -eq 0 ]
	[ "$(pg_sql 'select count(*) from session where complete = 1')" -eq 6 ]
	[ "$(pg_sql 'select count(*) from sample')" -eq 18 ]
	[ "$(pg_sql 'select count(*) from benchmark')" -eq 1 ]
	[ "$(pg_sql 'select count(*) from resultclass')" -eq 1 ]
}

@test "postgresql: a store d2c8860 wrote (schema v4) reads as it is, then migrates: every sample kept, its export as it was" {
	V4=tests/fixtures/store-v4
	tests/pg-server psql "$PGDIR" -d "$DB" -f "$V4/postgresql.sql" >/dev/null
	[ "$(pg_sql 'select version from clearpath_schema')" -eq 4 ]
	before=$(pg_sql 'select count(*), sum(value) from sample')
	# read-only, as it is: the identities a migration would give, from the parser; every view
	# as a store that never needed migrating gives it
	"$CP" export --store "$PG" "$D/export.csv"
	cmp "$V4/export.csv" "$D/export.csv"
	"$CP" export --whole --store "$PG" "$D/whole.csv"
	"$CP" import --store "$D/fresh.db" "$D/whole.csv" >/dev/null
	v4_views "$D/fresh.db" "$D/fresh"
	v4_views "$PG" "$D/ro"
	for v in show profile param answer; do diff "$D/fresh.$v" "$D/ro.$v"; done
	[ "$(pg_sql 'select version from clearpath_schema')" -eq 4 ]
	# written to: migrated, nothing added or lost
	run --separate-stderr "$CP" import --store "$PG" "$V4/export.csv"
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$(pg_sql 'select version from clearpath_schema')" -ge 8 ]
	[ "$(pg_sql 'select count(*), sum(value) from sample')" = "$before" ]
	"$CP" export --store "$PG" "$D/export2.csv"
	cmp "$V4/export.csv" "$D/export2.csv"
	v4_views "$PG" "$D/now"
	for v in show profile param answer; do diff "$D/fresh.$v" "$D/now.$v"; done
	[ "$(pg_sql "select b.workload || ' ' || r.metric from resultclass r join benchmark b on b.id = r.benchmark_id
		where r.name = 'clear -k 2MB -f default -s 4MB --then read :then-read'")" = "mem/clear then-read" ]
	[ "$(pg_sql "select count(*) from resultclass where metric is null and name = 'rate of echo'")" -eq 2 ]
	[ "$(pg_sql "select count(*) from resultclass where metric is null")" -eq 2 ]
}

@test "postgresql: a server that is down at start: exit 3 with libpq's message and a hint" {
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	run --separate-stderr timeout 60 "$CP" list sessions --store "postgresql://postgres@127.0.0.1:$port/x"
	refused 3 "cannot connect to store postgresql://postgres@127.0.0.1:$port/x" "Connection refused" \
		"is the PostgreSQL server running"
	run --separate-stderr timeout 60 "$CP" run --store "postgresql://postgres@127.0.0.1:$port/x" -- mem memset -s 64KB
	[ "$status" -eq 3 ]
}

@test "postgresql: a malformed store URL: exit 2 saying what is wrong and how to write it, not 'is the server running'" {
	echo sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time >"$D/empty.csv"
	# each is refused before any connection: only 127.0.0.1 is ever named
	for url in 'postgresql://[::1' 'postgresql://127.0.0.1:99999/x' 'host=127.0.0.1 nosuchkeyword=1' \
		'postgresql://u:s3cret@127.0.0.1:70000/x' 'postgresql://127.0.0.1/x?sslmode=sometimes'; do
		for cmd in "list sessions" "export -" "import $D/empty.csv" "run --quiet -- mem memset -s 4KB"; do
			run --separate-stderr timeout 60 "$CP" ${cmd%% *} --store "$url" ${cmd#* }
			echo "$url $cmd: $stderr"
			refused 2 "is malformed" "postgresql://USER@HOST:PORT/DATABASE"
			[[ "$stderr" != *"server running"* && "$stderr" != *s3cret* ]]
		done
	done
	run --separate-stderr "$CP" list sessions --store 'postgresql://127.0.0.1:99999/x'
	refused 2 'port "99999" is not a TCP port (1 to 65535)'
	run --separate-stderr "$CP" list sessions --store 'host=127.0.0.1 nosuchkeyword=1'
	refused 2 'invalid connection option "nosuchkeyword"' "host=HOST port=PORT dbname=DATABASE"
	# a keyword libpq does not know first, a known one after: that form too, not an SQLite file of that name
	cp=$(readlink -f "$CP")
	cd "$D"
	run --separate-stderr "$cp" run --quiet --store 'nosuchkeyword=1 host=127.0.0.1' -- mem memset -s 4KB
	refused 2 'invalid connection option "nosuchkeyword"'
	[ -z "$(ls -A "$D" | grep nosuchkeyword)" ]
}

@test "postgresql: a server that never answers: exit 3 after the connect timeout, not a hang" {
	# a socket that takes the connection and says nothing: libpq waits for the server's greeting
	python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); time.sleep(120)' >"$D/port" &
	silent=$!
	for _ in $(seq 100); do [ -s "$D/port" ] && break; sleep 0.1; done
	# the default bound (10 s); timeout(1) turns a hang into a failure instead of a stuck suite
	run --separate-stderr timeout 60 "$CP" list suts --store "postgresql://postgres@127.0.0.1:$(cat "$D/port")/x"
	kill "$silent"
	refused 3 "cannot connect to store" "timeout" "connect_timeout"
}

@test "postgresql: wrong password, missing database, a database of something else: exit 3 and a hint" {
	run --separate-stderr "$CP" list suts --store "${PGBASE/secret/wrong}/$DB"
	refused 3 "password authentication failed" "check the user and password"
	[[ "$stderr" != *wrong* ]]
	run --separate-stderr "$CP" list suts --store "$PGBASE/nosuchdb"
	refused 3 "does not exist" "createdb"
	# the hint is the command to run, for that server and name, a name quoted for the shell
	port=$(cat "$PGDIR/port")
	[[ "$stderr" == *"hint: create the database first, as the server's administrator: createdb -E UTF8 -h 127.0.0.1 -p $port nosuchdb "* ]]
	run --separate-stderr "$CP" list suts --store "$PGBASE/it%27s"
	refused 3 "does not exist" "createdb -E UTF8 -h 127.0.0.1 -p $port 'it'\''s' "
	[[ "$stderr" != *secret* ]]
	pg_sql 'create table inventory (id int)'
	run --separate-stderr "$CP" run --store "$PG" -- mem memset -s 64KB
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"holds 1 tables of something else"* ]]
	[ "$(pg_sql "select count(*) from pg_tables where schemaname = 'public'")" -eq 1 ]
}

# A plan whose exec stops the server (and with $1 = restart, starts it again soon) in its third invocation.
stopping_plan() {
	export PGDIR COUNT="$D/count" MODE=$1
	cat >"$D/stop.yaml" <<'EOF2'
name: stop
defaults: {warmups: 0, repeats: 4, sessions: 1}
benchmarks:
  - exec: {name: stopper, command: "n=$(cat \"$COUNT\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >\"$COUNT\"; if [ $n -eq 3 ]; then tests/pg-server stop-server \"$PGDIR\"; [ \"$MODE\" != restart ] || setsid sh -c 'sleep 1; tests/pg-server restart \"$PGDIR\"' >/dev/null 2>&1 </dev/null & fi; echo v $n", regex: 'v ([0-9.]+)', unit: s, higher_is_better: false}
EOF2
}

@test "postgresql: the server stopped mid-run: exit 3, the invocations committed before stay whole" {
	stopping_plan stop
	run --separate-stderr "$CP" plan run --quiet --force --store "$PG" "$D/stop.yaml"
	tests/pg-server restart "$PGDIR"
	echo "$stderr"
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"measured but not stored"* ]]
	# invocations 1 and 2, nothing of the third
	[ "$(pg_sql 'select string_agg(value::text, $$,$$ order by iteration) from sample')" = "1,2" ]
}

@test "postgresql: the server back soon after a lost connection: the run goes on, every sample once" {
	stopping_plan restart
	run --separate-stderr "$CP" plan run --quiet --force --store "$PG" "$D/stop.yaml"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"connected again"* ]]
	[ "$(pg_sql 'select string_agg(value::text, $$,$$ order by iteration) from sample')" = "1,2,3,4" ]
	[ "$(pg_sql 'select count(*) from session where complete = 1')" -eq 1 ]
}

@test "postgresql: export on a connection lost after it started: exit 3, the loss said once" {
	small_store "$D/a.db"
	"$CP" merge --into "$PG" "$D/a.db" >/dev/null
	mkfifo "$D/fifo"
	for whole in "" --whole; do
		# connected, then held opening the FIFO until the server dropped the connection (bounded,
		# as the reader below is: an export that never opens the FIFO, or never ends, fails the test)
		timeout 120 "$CP" export $whole --store "$PG" "$D/fifo" 2>"$D/err" &
		pid=$!
		for _ in $(seq 300); do
			[ "$(pg_sql "select count(*) from pg_stat_activity where datname = '$DB' and application_name = 'clearpath'")" -eq 1 ] && break
			sleep 0.1
		done
		pg_sql "select pg_terminate_backend(pid, 30000) from pg_stat_activity where datname = '$DB' and application_name = 'clearpath'"
		timeout 60 cat "$D/fifo" >/dev/null || { echo "the export did not write the FIFO within 60 s"; cat "$D/err"; return 1; }
		rc=0
		wait $pid || rc=$?
		cat "$D/err"
		[ "$rc" -eq 3 ]
		[ "$(grep -c "the connection to the PostgreSQL server was lost" "$D/err")" -eq 1 ]
		[ "$(grep -c '^clearpath: ' "$D/err")" -eq 1 ]
	done
}

@test "postgresql: export --whole from a server equals SQLite's, and import --whole into one gives it back" {
	small_store "$D/a.db"
	small_store "$D/b.db"
	"$CP" merge --into "$D/m.db" "$D/a.db" "$D/b.db"
	"$CP" merge --into "$PG" "$D/a.db" "$D/b.db"
	for fmt in csv json; do
		"$CP" export --store "$D/m.db" --whole --format $fmt "$D/sqlite.$fmt"
		"$CP" export --store "$PG" --whole --format $fmt "$D/pg.$fmt"
		cmp "$D/sqlite.$fmt" "$D/pg.$fmt"
	done
	tests/pg-server createdb "$PGDIR" "${DB}w"
	"$CP" import --store "$PGBASE/${DB}w" "$D/sqlite.json"
	"$CP" export --store "$PGBASE/${DB}w" --whole "$D/back.csv"
	cmp "$D/sqlite.csv" "$D/back.csv"
}
