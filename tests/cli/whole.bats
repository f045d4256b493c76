#!/usr/bin/env bats
# whole.bats: export --whole and its import carry sessions whole (fingerprints, environment, errors,
# completeness): export -> import -> export equals merge, in CSV and JSON, all or nothing, idempotent.

bats_require_minimum_version 1.5.0
load helpers

WITH="next-20260821 with this patch"

setup_file() {
	local cp=${CLEARPATH:-./clearpath}
	"$cp" import --store "$BATS_FILE_TMPDIR/seed.db" "$BATS_TEST_DIRNAME/../fixtures/show/seed.csv" >/dev/null
	# what an import of the sample form cannot carry, as run and merge store it
	python3 - "$BATS_FILE_TMPDIR/seed.db" "$WITH" <<-'EOF'
	import json, sqlite3, sys
	db = sqlite3.connect(sys.argv[1])
	db.execute("UPDATE sut SET fingerprint = json_object('arch', 'aarch64', 'cores', 64, 'cpu', name)")
	db.execute("""UPDATE swprofile SET fingerprint = json_object('kernel', '6.17.0-next', 'cmdline',
	              'quiet', 'thp_enabled', CASE WHEN name = ? THEN 'always' ELSE 'madvise' END)""",
	           (sys.argv[2],))
	rows = db.execute("SELECT session.id, session.uuid, swprofile.name FROM session"
	                  " JOIN swprofile ON swprofile.id = session.swprofile_id ORDER BY session.uuid").fetchall()
	for n, (sid, uuid, swp) in enumerate(rows):
	    thp = "always" if swp == sys.argv[2] else "madvise"
	    # key order as stored by hand, not sorted: an export keeps it
	    env = {"settings": {"thp_enabled": thp, "thp_defrag": "madvise"}, "loadavg": "0.%d 0 0" % n}
	    db.execute("UPDATE session SET environment = ?, boot_id = ?, ended = replace(started, 'T08', 'T09')"
	               " WHERE id = ?", (json.dumps(env), None if n == 1 else "b0070000-0000-4000-8000-%012d" % n, sid))
	# one session killed midway, one benchmark that failed once and once for good
	sid, = db.execute("SELECT min(id) FROM session").fetchone()
	db.execute("UPDATE session SET complete = 0, ended = NULL WHERE id = ?", (sid,))
	db.execute("INSERT INTO benchmark (suite, params, key) VALUES ('perf/mem', 'mmap -p 1GB -f demand -s 64GB -l 5',"
	           " 'mmap -p 1GB -f demand -s 64GB -l 5')")
	bid, = db.execute("SELECT max(id) FROM benchmark").fetchone()
	db.execute("INSERT INTO error (session_id, benchmark_id, iteration, warmup, message, time) VALUES"
	           " (?, ?, 0, 1, 'mmap of 64GB in 1GB pages failed: \"no memory\", try fewer', '2026-08-22T08:30:00.000000Z'),"
	           " (?, ?, NULL, 0, 'gave up after 1 failure', '2026-08-22T08:30:01.000000Z')", (sid, bid, sid, bid))
	# a session with neither samples nor errors: started, nothing more
	db.execute("INSERT INTO session (uuid, sut_id, swprofile_id, started, complete) SELECT"
	           " '5eed0000-0000-4000-8000-0000000000ff', sut_id, swprofile_id, '2026-08-23T10:00:00.000000Z', 0"
	           " FROM session WHERE id = ?", (sid,))
	# a sut no session uses any more (merge copies it)
	db.execute("INSERT INTO sut (name, fingerprint) VALUES ('retired box', '{\"cores\": 8}')")
	# a sequential run grew the patched column of the first SUT class: 8 looks at 0.05 / 8, 2 made
	sut, = db.execute("SELECT min(u.name) FROM sut u JOIN session s ON s.sut_id = u.id").fetchone()
	db.execute("INSERT INTO sequential (sut, swprofile, looks, looked, alpha, started, updated) VALUES"
	           " (?, ?, 8, 2, 0.00625, '2026-08-22T07:00:00.000000Z', '2026-08-22T10:00:00.000000Z')",
	           (sut, sys.argv[2]))
	db.commit()
	EOF
	"$cp" merge --into "$BATS_FILE_TMPDIR/merged.db" "$BATS_FILE_TMPDIR/seed.db" >/dev/null
}

setup() {
	CP=${CLEARPATH:-./clearpath}
	S=$BATS_FILE_TMPDIR
	D=$BATS_TEST_TMPDIR/w
	GOLDEN="$BATS_TEST_DIRNAME/../golden/export"
	mkdir -p "$D"
	export CLEARPATH_STORE="$D/r.db"
}

# Compare file $2 byte for byte with tests/golden/export/$1; UPDATE_GOLDEN=1 writes it.
golden_file() {
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$2" "$GOLDEN/$1"
	fi
	diff -u "$GOLDEN/$1" "$2"
}

# Every view of store $1 (show in two formats with their warnings, list of each kind, both exports) into dir $2.
views() {
	mkdir -p "$2"
	"$CP" show --store "$1" --format grid >"$2/show.txt" 2>&1
	"$CP" show --store "$1" --format json >"$2/show.json" 2>&1
	for k in suts swprofiles benchmarks sessions; do
		"$CP" list "$k" --store "$1" >"$2/list-$k.txt"
		"$CP" list "$k" --store "$1" --format json >"$2/list-$k.json"
	done
	"$CP" export --store "$1" "$2/samples.csv"
	"$CP" export --store "$1" --whole "$2/whole.csv"
	"$CP" export --store "$1" --whole --format json "$2/whole.json"
}

@test "whole: golden CSV and JSON of a store with fingerprints, environments, errors, an incomplete session" {
	"$CP" export --store "$S/seed.db" --whole "$D/whole.csv"
	golden_file whole.csv "$D/whole.csv"
	"$CP" export --store "$S/seed.db" --whole --format json - > "$D/whole.json"
	golden_file whole.json "$D/whole.json"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d[0]["record"] == "sut", d[0]' "$D/whole.json"
}

@test "whole: export -> import -> export equals merge: exports, show with its warning, list" {
	for fmt in csv json; do
		"$CP" export --store "$S/seed.db" --whole --format $fmt "$D/a.$fmt"
		run "$CP" import --store "$D/$fmt.db" "$D/a.$fmt"
		[ "$status" -eq 0 ]
		[ "$output" = "imported 192 samples and 2 errors in 17 new sessions from $D/a.$fmt" ]
		views "$D/$fmt.db" "$D/$fmt"
	done
	views "$S/merged.db" "$D/merged"
	views "$S/seed.db" "$D/seed"
	diff -r "$D/merged" "$D/csv"
	diff -r "$D/merged" "$D/json"
	diff -r "$D/seed" "$D/csv"
	cmp "$D/a.csv" "$D/csv/whole.csv"
	cmp "$D/a.json" "$D/csv/whole.json"
	# the settings-differ warning survived the trip
	grep -qF "Warning: $WITH ran with thp_enabled = \"always\", the base with \"madvise\"" "$D/csv/show.txt"
	# and so did the sequential run: its column's cells are judged at 0.05 / 8, not 0.05, after either way
	for v in csv json merged; do
		grep -qF "Cells of $WITH are judged at alpha 0.00625: plan run --until-decided looked at them 8 times" "$D/$v/show.txt"
		[ "$(grep -c '"judged_alpha": 0.00625' "$D/$v/show.json")" -ge 1 ]
	done
}

# The number of rows of each table of store $1, one line.
counts() {
	STORE=$1 store_sql "SELECT (SELECT count(*) FROM sut), (SELECT count(*) FROM swprofile),
		(SELECT count(*) FROM session), (SELECT count(*) FROM sample), (SELECT count(*) FROM error),
		(SELECT count(*) FROM benchmark), (SELECT count(*) FROM resultclass)"
}

@test "whole: importing twice, or into a store that merged some of the sessions, adds nothing twice" {
	for fmt in csv json; do
		"$CP" export --store "$S/seed.db" --whole --format $fmt "$D/a.$fmt"
		"$CP" import --store "$D/twice.db" "$D/a.$fmt" >/dev/null
		before=$(counts "$D/twice.db")
		run "$CP" import --store "$D/twice.db" "$D/a.$fmt"
		[ "$status" -eq 0 ]
		[ "$output" = "imported 0 samples in 0 new sessions from $D/a.$fmt (all were stored already)" ]
		[ "$(counts "$D/twice.db")" = "$before" ]
	done
	# the merged store holds every session: nothing to add, and nothing differs
	cp "$S/merged.db" "$D/m.db"
	run "$CP" import --store "$D/m.db" "$D/a.csv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(all were stored already)" ]]
	# a store holding two of the sessions (exported alone) gets the other fifteen
	"$CP" export --store "$S/seed.db" --session 5eed0000-0000-4000-8000-000000000001 \
		--session 5eed0110-0000-4000-8000-000000000001 "$D/two.csv"
	"$CP" import --store "$D/part.db" "$D/two.csv" >/dev/null
	run "$CP" import --store "$D/part.db" "$D/a.json"
	[ "$status" -eq 0 ]
	[ "$output" = "imported 168 samples in 15 new sessions from $D/a.json" ]
	views "$D/part.db" "$D/part"
	views "$S/merged.db" "$D/merged"
	diff -r "$D/merged" "$D/part"
}

@test "whole: --session exports exactly those sessions and what they use; an unknown one is refused" {
	U=5eed0000-0000-4000-8000-000000000001
	run "$CP" export --store "$S/seed.db" --session $U -
	[ "$status" -eq 0 ]
	# one sut, one swprofile, the session, its 12 samples and 2 errors, the end
	[ "$(grep -c '^sut,' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^swprofile,' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^session,' <<<"$output")" -eq 1 ]
	[ "$(grep -c "^sample,,,$U," <<<"$output")" -eq 12 ]
	[ "$(grep -c "^error,,,$U," <<<"$output")" -eq 2 ]
	[ "${lines[-1]}" = "end,,,,,,,,,,,,,,,,,,,,," ]
	# the controller's side of a remote session: a pipe, all or nothing
	"$CP" export --store "$S/seed.db" --session $U --format json - | "$CP" import --store "$D/c.db" - >"$D/out"
	[ "$(cat "$D/out")" = "imported 12 samples and 2 errors in 1 new session from <stdin>" ]
	[ "$(STORE=$D/c.db store_sql "SELECT uuid, complete, ended IS NULL, boot_id FROM session")" = \
		"$U|0|1|b0070000-0000-4000-8000-000000000000" ]
	run --separate-stderr "$CP" export --store "$S/seed.db" --session 5eed9999-0000-4000-8000-000000000001 -
	refused 2 "holds no session 5eed9999-0000-4000-8000-000000000001"
	# to a file the same: exit 2 (was 3, with "export to ... failed (Invalid argument)"), the file as it was
	echo kept >"$D/kept.csv"
	for u in 5eed9999-0000-4000-8000-000000000001 nonsense ''; do
		run --separate-stderr "$CP" export --store "$S/seed.db" --session "$u" "$D/kept.csv"
		refused 2 "holds no session $u" "'clearpath list sessions'"
		[[ "$stderr" != *"failed"* ]]
		[ "$(cat "$D/kept.csv")" = kept ]
	done
}

@test "whole: session UUIDs in upper case name the same sessions: stored lower-case, never twice" {
	"$CP" export --store "$S/seed.db" --whole "$D/w.csv"
	"$CP" export --store "$S/seed.db" --whole --format json "$D/w.json"
	"$CP" export --store "$S/seed.db" "$D/s.csv"
	U=5eed0000-0000-4000-8000-000000000001
	for f in w.csv w.json s.csv; do
		sed 's/5eed/5EED/g' "$D/$f" >"$D/upper-$f"
		# upper case in the session's record, lower in its samples'
		awk '/5EED/ && !done { done = 1; print; next } { gsub(/5EED/, "5eed"); print }' "$D/upper-$f" >"$D/mixed-$f"
		for form in upper mixed; do
			rm -f "$D/$form.db"
			run --separate-stderr "$CP" import --store "$D/$form.db" "$D/$form-$f"
			echo "$form-$f: $stderr"
			[ "$status" -eq 0 ]
			[ "$(STORE=$D/$form.db store_sql "SELECT count(*) FROM session WHERE uuid <> lower(uuid)")" -eq 0 ]
			# the original file, and the sessions merged from the seed, are the same sessions
			run "$CP" import --store "$D/$form.db" "$D/$f"
			[[ "$output" == *"(all were stored already)" ]]
		done
		run "$CP" import --store "$S/merged.db" "$D/upper-$f"
		[[ "$output" == *"(all were stored already)" ]]
	done
	cmp <("$CP" export --store "$D/upper.db" --whole -) <("$CP" export --store "$D/mixed.db" --whole -)
	# --session takes it in upper case too
	cmp <("$CP" export --store "$S/seed.db" --session ${U^^} -) <("$CP" export --store "$S/seed.db" --session $U -)
}

@test "whole: a session stored with other content refuses the file, naming it; nothing is committed" {
	U=5eed0001-0000-4000-8000-000000000002
	"$CP" export --store "$S/seed.db" --whole "$D/a.csv"
	"$CP" export --store "$S/seed.db" --session $U "$D/one.csv"
	# the store holds that session with another environment, and lacks everything else
	sed "s/0\.1 0 0/0.9 9 9/" "$D/one.csv" > "$D/other.csv"
	"$CP" import --store "$D/c.db" "$D/other.csv" >/dev/null
	before=$(counts "$D/c.db")
	run --separate-stderr "$CP" import --store "$D/c.db" "$D/a.csv"
	refused 2 "session $U is already in the store with other content: its environment differs" \
		"nothing from $D/a.csv was imported"
	[ "$(counts "$D/c.db")" = "$before" ]
	# a sample's value differs
	awk -F, -v OFS=, -v u=$U '$1 == "sample" && $4 == u && !done { $17 = 1; done = 1 } { print }' \
		"$D/one.csv" > "$D/value.csv"
	"$CP" import --store "$D/v.db" "$D/one.csv" >/dev/null
	run --separate-stderr "$CP" import --store "$D/v.db" "$D/value.csv"
	refused 2 "session $U is already in the store with other content: this sample's value or time differs"
	# the file lacks one of the stored samples
	grep -v ',2,0,[0-9.]*,2026-08-22T10:00:12' "$D/one.csv" > "$D/fewer.csv"
	[ "$(wc -l < "$D/fewer.csv")" -lt "$(wc -l < "$D/one.csv")" ]
	run --separate-stderr "$CP" import --store "$D/v.db" "$D/fewer.csv"
	refused 2 "session $U is already in the store with other content: the store holds 12 samples and 0 errors of it, the file 11 and 0"
	# a finished session, then a file that finished it at another time
	awk -F, -v OFS=, -v u=$U '$1 == "session" && $4 == u { $8 = "2026-08-22T11:00:00.000000Z" } { print }' \
		"$D/one.csv" > "$D/end.csv"
	! cmp -s "$D/one.csv" "$D/end.csv"
	run --separate-stderr "$CP" import --store "$D/v.db" "$D/end.csv"
	refused 2 "session $U is already in the store with other content: its end time differs"
}

@test "whole: the sample form's copy of a session takes the whole form's record: end, boot id, environment, errors" {
	"$CP" export --store "$S/seed.db" --whole "$D/a.csv"
	"$CP" export --store "$S/seed.db" "$D/samples.csv"
	"$CP" import --store "$D/old.db" "$D/samples.csv" >/dev/null
	"$CP" import --store "$D/old.db" "$D/a.csv" >/dev/null
	# what the sample form left out is there, the session cut short is incomplete again: one store
	"$CP" export --store "$D/old.db" --whole "$D/back.csv"
	cmp "$D/a.csv" "$D/back.csv"
	# and merging works the same way, from either side
	"$CP" import --store "$D/m.db" "$D/samples.csv" >/dev/null
	run "$CP" merge --into "$D/m.db" "$S/seed.db"
	[ "$status" -eq 0 ]
	[ "$output" = "$S/seed.db: 1 session added, 15 completed, 1 given more of what the source holds, 1 sequential run" ]
	"$CP" export --store "$D/m.db" --whole "$D/m.csv"
	cmp "$D/a.csv" "$D/m.csv"
	run "$CP" merge --into "$S/merged2.db" "$S/seed.db" "$D/old.db"
	[ "${lines[1]}" = "$D/old.db: 0 sessions added" ]
}

@test "whole: a truncated or garbled file is refused whole, naming the place" {
	"$CP" export --store "$S/seed.db" --whole "$D/a.csv"
	"$CP" export --store "$S/seed.db" --whole --format json "$D/a.json"
	"$CP" import --store "$D/c.db" "$D/two.csv" 2>/dev/null || true
	"$CP" export --store "$S/seed.db" --session 5eed0000-0000-4000-8000-000000000001 "$D/one.csv"
	"$CP" import --store "$D/c.db" "$D/one.csv" >/dev/null
	before=$(counts "$D/c.db")
	# cut at a record boundary (an SSH connection that dropped): no end record
	head -n 100 "$D/a.csv" > "$D/cut.csv"
	run --separate-stderr "$CP" import --store "$D/c.db" "$D/cut.csv"
	refused 2 "cut.csv ends without its end record" "nothing from"
	# cut mid-record, in JSON
	head -c 30000 "$D/a.json" > "$D/cut.json"
	run --separate-stderr "$CP" import --store "$D/c.db" "$D/cut.json"
	refused 2 "cut.json: line" "nothing from"
	# garbled: a bad value late in the file, a sample before its session, an unknown record kind
	awk -F, -v OFS=, '$1 == "sample" && ++n == 150 { $17 = "fast" } { print }' "$D/a.csv" > "$D/bad.csv"
	run --separate-stderr "$CP" import --store "$D/c.db" "$D/bad.csv"
	refused 2 "bad.csv: line" "column 17 (value): 'fast' is not a finite number"
	grep -v '^session,aws-m7g.metal,next-20260821 with this patch,5eed0010' "$D/a.csv" > "$D/orphan.csv"
	run --separate-stderr "$CP" import --store "$D/c.db" "$D/orphan.csv"
	refused 2 "session 5eed0010-0000-4000-8000-000000000001 has no session record before this one"
	sed 's/^error,/mistake,/' "$D/a.csv" > "$D/kind.csv"
	run --separate-stderr "$CP" import --store "$D/c.db" "$D/kind.csv"
	refused 2 "'mistake' is not a record kind"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d[5]["complete"] = "yes"; json.dump(d, open(sys.argv[2], "w"))' "$D/a.json" "$D/type.json"
	run --separate-stderr "$CP" import --store "$D/c.db" "$D/type.json"
	refused 2 "type.json: record 6 (complete): not true or false"
	# the sample form of JSON is named as such
	"$CP" export --store "$S/seed.db" --format json "$D/samples.json"
	run --separate-stderr "$CP" import --store "$D/c.db" "$D/samples.json"
	refused 2 "this is the JSON sample form"
	[ "$(counts "$D/c.db")" = "$before" ]
}

@test "whole: the sample form still imports as before, beside the whole one" {
	run "$CP" import --store "$D/s.db" "$BATS_TEST_DIRNAME/../fixtures/show/seed.csv"
	[ "$status" -eq 0 ]
	[ "$output" = "imported 192 samples in 16 new sessions from $BATS_TEST_DIRNAME/../fixtures/show/seed.csv" ]
	# what the sample form carries is the same, from either
	"$CP" export --store "$D/s.db" "$D/s.csv"
	"$CP" export --store "$S/seed.db" "$D/seed.csv"
	cmp "$D/seed.csv" "$D/s.csv"
}

@test "export: OUT naming the store (or any SQLite database, through a link too) is refused, the store kept" {
	cp "$S/seed.db" "$D/store.db"
	sum=$(cksum <"$D/store.db")
	for form in "" --whole "--format json" "--whole --format json"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$CP" export $form --store "$D/store.db" "$D/store.db"
		refused 2 "$D/store.db is an SQLite database (a clearpath store?): export does not replace it" \
			"clearpath merge"
	done
	ln -s store.db "$D/link.db"
	run --separate-stderr "$CP" export --store "$D/store.db" "$D/link.db"
	refused 2 "link.db is an SQLite database"
	[ "$(cksum <"$D/store.db")" = "$sum" ]
	[ -L "$D/link.db" ]
	"$CP" list sessions --store "$D/store.db" >/dev/null
	# a file that merely starts like one is no database: replaced as before
	printf 'SQLite format 2\n' >"$D/notdb"
	"$CP" export --store "$D/store.db" "$D/notdb"
	head -1 "$D/notdb" | grep -q '^sut,swprofile,session'
}

@test "export: the store's -wal, -shm and -journal files are refused as the store is; a live writer's commits kept" {
	cp "$S/seed.db" "$D/store.db"
	# a writer that committed into the write-ahead log and is still running (no checkpoint yet):
	# replacing store.db-wal under it would lose that commit
	run --separate-stderr python3 - "$D/store.db" "$CP" <<-'EOF'
	import sqlite3, subprocess, sys
	db = sqlite3.connect(sys.argv[1], isolation_level=None)
	assert db.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
	db.execute("PRAGMA wal_autocheckpoint = 0")
	db.execute("UPDATE session SET boot_id = 'committed-in-wal' WHERE uuid = (SELECT min(uuid) FROM session)")
	out = subprocess.run([sys.argv[2], "export", "--store", sys.argv[1], sys.argv[1] + "-wal"],
	                     capture_output=True, text=True)
	sys.stdout.write(out.stdout)
	sys.stderr.write(out.stderr)
	sys.exit(out.returncode)
	EOF
	refused 2 "$D/store.db-wal is the write-ahead log (-wal) of an SQLite database (a clearpath store?):" \
		"export does not replace it"
	[ "$(STORE=$D/store.db store_sql "SELECT count(*) FROM session WHERE boot_id = 'committed-in-wal'")" = 1 ]
	# every companion, there or not yet (a writer may be about to create it), and through a link
	for suffix in -wal -shm -journal; do
		for form in "" --whole "--format json"; do
			# shellcheck disable=SC2086
			run --separate-stderr "$CP" export $form --store "$D/store.db" "$D/store.db$suffix"
			refused 2 "$D/store.db$suffix is the" "of an SQLite database"
			[ ! -e "$D/store.db$suffix" ]
		done
	done
	ln -s store.db-wal "$D/link.csv"
	run --separate-stderr "$CP" export --store "$D/store.db" "$D/link.csv"
	refused 2 "link.csv is the write-ahead log (-wal) of an SQLite database"
	[ ! -e "$D/store.db-wal" ]
	# the same names beside a file that is no database are ordinary outputs
	printf 'not a database\n' >"$D/plain"
	"$CP" export --store "$D/store.db" "$D/plain-wal"
	head -1 "$D/plain-wal" | grep -q '^sut,swprofile,session'
}

@test "whole: times that cannot be are refused: 2026-02-30, second 60, year 0000, an end before the start" {
	"$CP" export --store "$S/seed.db" --session 5eed0000-0000-4000-8000-000000000001 "$D/one.csv"
	# $1: sed expression on the session record, $2: what the refusal says
	bad() {
		sed "/^session,/$1" "$D/one.csv" > "$D/bad.csv"
		run --separate-stderr "$CP" import --store "$D/c.db" "$D/bad.csv"
		refused 2 "bad.csv: line 4" "$2" "nothing from"
		[ ! -e "$D/c.db" ]
	}
	bad 's/2026-08-22T08:00:00.000000Z/2026-02-30T08:00:00.000000Z/' \
		"column 7 (started): '2026-02-30T08:00:00.000000Z' is not a UTC time"
	bad 's/2026-08-22T08:00:00.000000Z/2025-02-29T08:00:00.000000Z/' "'2025-02-29T08:00:00.000000Z' is not"
	bad 's/2026-08-22T08:00:00.000000Z/2026-04-31T08:00:00.000000Z/' "'2026-04-31T08:00:00.000000Z' is not"
	bad 's/2026-08-22T08:00:00.000000Z/2026-08-22T08:00:60.000000Z/' "'2026-08-22T08:00:60.000000Z' is not"
	bad 's/2026-08-22T08:00:00.000000Z/0000-08-22T08:00:00.000000Z/' "'0000-08-22T08:00:00.000000Z' is not"
	bad 's/2026-08-22T08:00:00.000000Z,,/2026-08-22T08:00:00.000000Z,2026-08-22T07:59:59.999999Z,/' \
		"column 8 (ended): '2026-08-22T07:59:59.999999Z' is before the session's start, 2026-08-22T08:00:00.000000Z"
	# a fraction is a fraction: .5 of the start's second is after it, not before (as text it sorts first)
	bad 's/2026-08-22T08:00:00.000000Z,,/2026-08-22T08:00:00.5Z,2026-08-22T08:00:00Z,/' \
		"'2026-08-22T08:00:00Z' is before the session's start, 2026-08-22T08:00:00.5Z"
	# what can be: a leap day, an end at the start, an end a fraction after it
	sed '/^session,/s/2026-08-22T08:00:00.000000Z,,/2024-02-29T08:00:00Z,2024-02-29T08:00:00.000Z,/' \
		"$D/one.csv" > "$D/ok.csv"
	"$CP" import --store "$D/c.db" "$D/ok.csv" >/dev/null
	sed -e '/^session,/s/2026-08-22T08:00:00.000000Z,,/2026-08-22T08:00:00Z,2026-08-22T08:00:00.5Z,/' \
		-e 's/5eed0000-0000-4000-8000-000000000001/5eed0000-0000-4000-8000-0000000000aa/' \
		"$D/one.csv" > "$D/ok2.csv"
	"$CP" import --store "$D/c.db" "$D/ok2.csv" >/dev/null
	[ "$("$CP" list sessions --store "$D/c.db" --format json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')" = 2 ]
}

# $1 copied to $2 as it was while session $3 ran: its samples after the first $4 not there yet, no end.
while_running() {
	cp "$1" "$2"
	python3 - "$2" "$3" "$4" <<-'EOF'
	import sqlite3, sys
	db = sqlite3.connect(sys.argv[1])
	sid, = db.execute("SELECT id FROM session WHERE uuid = ?", (sys.argv[2],)).fetchone()
	db.execute("DELETE FROM sample WHERE session_id = ? AND id NOT IN (SELECT id FROM sample WHERE session_id = ?"
	           " ORDER BY id LIMIT ?)", (sid, sid, int(sys.argv[3])))
	db.execute("DELETE FROM error WHERE session_id = ?", (sid,))
	db.execute("UPDATE session SET complete = 0, ended = NULL WHERE id = ?", (sid,))
	db.commit()
	EOF
}

@test "merge and import: a session merged while it ran is completed by its finished form, never kept half" {
	U=5eed0001-0000-4000-8000-000000000002
	while_running "$S/merged.db" "$D/half.db" $U 6
	# merged while it ran: 6 of its 12 samples
	"$CP" merge --into "$D/lab.db" "$D/half.db" >/dev/null
	[ "$(STORE=$D/lab.db store_sql "SELECT complete, (SELECT count(*) FROM sample WHERE session_id = s.id) FROM session s WHERE uuid = '$U'")" = "0|6" ]
	# again once it finished: the other 6 and its end, nothing else changes
	run "$CP" merge --into "$D/lab.db" "$S/merged.db"
	[ "$status" -eq 0 ]
	[ "$output" = "$S/merged.db: 0 sessions added, 1 completed" ]
	"$CP" export --store "$S/merged.db" --whole "$D/want.csv"
	"$CP" export --store "$D/lab.db" --whole "$D/got.csv"
	cmp "$D/want.csv" "$D/got.csv"
	# the half merged after the whole adds nothing and takes nothing away
	run "$CP" merge --into "$D/lab.db" "$D/half.db"
	[ "$output" = "$D/half.db: 0 sessions added" ]
	"$CP" export --store "$D/lab.db" --whole "$D/got.csv"
	cmp "$D/want.csv" "$D/got.csv"
	# import: the same rule, from the same files
	"$CP" export --store "$D/half.db" --whole "$D/half.csv"
	"$CP" import --store "$D/imp.db" "$D/half.csv" >/dev/null
	"$CP" import --store "$D/imp.db" "$D/want.csv" >/dev/null
	"$CP" import --store "$D/imp.db" "$D/half.csv" >/dev/null
	"$CP" export --store "$D/imp.db" --whole "$D/got.csv"
	cmp "$D/want.csv" "$D/got.csv"
	# a running copy whose samples disagree with the finished form is another session: refused whole
	while_running "$S/merged.db" "$D/odd.db" $U 6
	STORE=$D/odd.db store_sql "UPDATE sample SET value = value + 1 WHERE id = (SELECT min(x.id) FROM sample x JOIN session s ON s.id = x.session_id WHERE s.uuid = '$U')"
	"$CP" merge --into "$D/odd-lab.db" "$D/odd.db" >/dev/null
	run --separate-stderr "$CP" merge --into "$D/odd-lab.db" "$S/merged.db"
	refused 2 "session $U is in both stores with other content: a sample's value or time differs" \
		"nothing from $S/merged.db was merged"
	[ "$(STORE=$D/odd-lab.db store_sql "SELECT complete FROM session WHERE uuid = '$U'")" = 0 ]
	run --separate-stderr "$CP" merge --into "$D/both.db" "$S/merged.db" "$D/odd.db"
	[ "$status" -eq 2 ] && [ "$output" = "$S/merged.db: 17 sessions added, 1 sequential run" ]
	[[ "$stderr" == *"session $U is in both stores with other content: a sample's value or time differs"* ]]
	# the finished form lacking a sample the running copy has: refused, naming both counts
	"$CP" export --store "$S/merged.db" --session $U "$D/u.csv"
	grep -v ',2,0,[0-9.]*,2026-08-22T10:00:12' "$D/u.csv" > "$D/u-fewer.csv"
	while_running "$S/merged.db" "$D/run.db" $U 12
	"$CP" merge --into "$D/r2.db" "$D/run.db" >/dev/null
	run --separate-stderr "$CP" import --store "$D/r2.db" "$D/u-fewer.csv"
	refused 2 "session $U is already in the store with other content: the store holds 12 samples and 0 errors of it, the file 11 and 0"
}
