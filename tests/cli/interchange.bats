#!/usr/bin/env bats
# interchange.bats: export/import/merge and store opening against hostile input: special files,
# odd bytes, long names, read-only stores, and what a failing command leaves behind.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	CP=${CLEARPATH:-./clearpath}
	FIX="$BATS_TEST_DIRNAME/../fixtures"
	D=$BATS_TEST_TMPDIR/w
	mkdir -p "$D"
	export CLEARPATH_STORE="$D/r.db"
	unset CLEARPATH_SYSROOT
	HEADER=sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value,session_started,sample_time
	ROW="box,base,5eed0000-0000-4000-8000-000000000001,mem/memset -s 4MB,memset,bytes/sec,1,0,0,5,2026-08-22T08:00:00.000000Z,2026-08-22T08:00:01.000000Z"
}

# Print the rows of SQL query $2 on database $1, fields joined by '|' (writes are committed).
sql() {
	STORE=$1 store_sql "$2"
}

# A store at $1 holding the one-sample CSV $ROW.
one_row_store() {
	printf '%s\n%s\n' "$HEADER" "$ROW" | "$CP" import --store "$1" - >/dev/null
}

@test "import: a record whose first field is empty is a clear error, not undefined behaviour" {
	run --separate-stderr sh -c "printf ',x\n' | \"$CP\" import --store \"$D/s.db\" -"
	refused 2 "<stdin>: line 1, column 1 (sut): header says ''"
}

@test "import: a file with another header says which column differs and what export writes" {
	printf 'benchmark,value\nmemset,1\n' >"$D/other.csv"
	run --separate-stderr "$CP" import --store "$D/o.db" "$D/other.csv"
	refused 2 "$D/other.csv: line 1, column 1 (sut): header says 'benchmark', not 'sut': this is no file 'clearpath export' wrote (its header: $HEADER)" \
		"hint: nothing from $D/other.csv was imported"
}

@test "import: stored text asking for --help is a raw benchmark, and no workload's usage is printed" {
	# the identity parser once printed 'usage: clearpath bench mem memset ...' into import's output
	printf '%s\n%s\n' "$HEADER" "${ROW/mem\/memset -s 4MB,memset/mem/memset --help,memset --help}" >"$D/help.csv"
	run --separate-stderr "$CP" import --store "$D/h.db" "$D/help.csv"
	[ "$status" -eq 0 ]
	[ "$output" = "imported 1 sample in 1 new session from $D/help.csv" ]
	[ -z "$stderr" ]
	[ "$(sql "$D/h.db" "SELECT key || '|' || workload FROM benchmark")" = "--help|" ]
}

@test "open: a negative schema version is refused as not a clearpath store" {
	one_row_store "$D/neg.db"
	sql "$D/neg.db" "PRAGMA user_version = -5"
	run --separate-stderr "$CP" list sessions --store "$D/neg.db"
	refused 2 "$D/neg.db is not a clearpath store: its schema version is -5"
	[[ "$stderr" != *"migrating"* ]]
}

@test "export: through a symbolic link the target is replaced and the link stays" {
	one_row_store "$CLEARPATH_STORE"
	mkdir "$D/real"
	echo old > "$D/real/target.csv"
	ln -s real/target.csv "$D/link.csv"
	ln -s "$D/real/new.csv" "$D/dangling.csv"
	"$CP" export "$D/link.csv"
	[ -L "$D/link.csv" ] && [ "$(readlink "$D/link.csv")" = real/target.csv ]
	[ "$(sed -n 2p "$D/real/target.csv")" = "$ROW" ]
	# a dangling link: the file it names is created
	"$CP" export "$D/dangling.csv"
	[ -L "$D/dangling.csv" ] && [ -f "$D/real/new.csv" ]
	cmp "$D/real/target.csv" "$D/real/new.csv"
	[ "$(cd "$D/real" && echo *)" = "new.csv target.csv" ]
	# a loop is refused, not followed forever
	ln -s loop1 "$D/loop2" && ln -s loop2 "$D/loop1"
	run --separate-stderr "$CP" export "$D/loop1"
	refused 2 "cannot export to $D/loop1: Too many levels of symbolic links"
}

@test "export: FIFOs and character devices are written to, never replaced" {
	one_row_store "$CLEARPATH_STORE"
	mkfifo "$D/fifo"
	# (bounded: an export that replaced the FIFO would leave this reader waiting)
	timeout 20 cat "$D/fifo" > "$D/from-fifo" &
	"$CP" export "$D/fifo"
	wait
	[ -p "$D/fifo" ]
	[ "$(sed -n 2p "$D/from-fifo")" = "$ROW" ]
	# /dev/stdout and a process substitution, as a shell user writes them
	run bash -c "\"$CP\" export /dev/stdout | sed -n 2p"
	[ "$output" = "$ROW" ]
	# /dev/stdout redirected to a regular file: appended to through the shell's descriptor,
	# never replaced (what the file held stays) nor overwritten from its start
	echo kept > "$D/appended"
	"$CP" export /dev/stdout >> "$D/appended"
	[ "$(sed -n 1p "$D/appended")" = kept ]
	[ "$(sed -n 3p "$D/appended")" = "$ROW" ]
	# (bash sets $! to the process substitution, so the test waits for gzip to finish)
	run bash -c "\"$CP\" export >(gzip > \"$D/x.csv.gz\") && wait \$!"
	[ "$status" -eq 0 ]
	[ "$(gzip -dc "$D/x.csv.gz" | sed -n 2p)" = "$ROW" ]
	# a full device (a private node for /dev/full, so the real one is never at risk) is an error
	if mknod "$D/full" c 1 7 2>/dev/null; then
		run --separate-stderr "$CP" export "$D/full"
		refused 3 "writing the export"
		[ -c "$D/full" ]
	fi
	mknod "$D/null" c 1 3 2>/dev/null || skip "cannot create device nodes here"
	"$CP" export "$D/null"
	[ -c "$D/null" ]
}

@test "export: a socket or block device is refused and left alone" {
	one_row_store "$CLEARPATH_STORE"
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$D/sock"
	run --separate-stderr "$CP" export "$D/sock"
	refused 2 "cannot export to $D/sock: it is a special file"
	[ -S "$D/sock" ]
}

# Run the rest of the line as user nobody (the tests run as root, who may write anything).
as_nobody() {
	setpriv --reuid nobody --regid nogroup --clear-groups "$@"
}

@test "read-only: show, list, export and merge read a store its user may not write" {
	command -v setpriv >/dev/null || skip "no setpriv"
	as_nobody "$CP" --version >/dev/null 2>&1 || skip "user nobody cannot run $CP"
	R=$(mktemp -d /tmp/clearpath-ro.XXXXXX)
	chmod 755 "$R"
	mkdir -m 777 "$R/mine"
	one_row_store "$R/s.db"
	chmod 644 "$R/s.db"
	for cmd in "show --store $R/s.db" "list sessions --store $R/s.db" "export --store $R/s.db -" \
		"merge --into $R/mine/m.db $R/s.db"; do
		run --separate-stderr as_nobody "$CP" $cmd
		[ "$status" -eq 0 ] || { echo "$cmd: $status $stderr"; rm -rf "$R"; return 1; }
	done
	[ "$(sql "$R/mine/m.db" "SELECT count(*) FROM sample")" = 1 ]
	# nothing was written beside the store
	[ "$(cd "$R" && echo *)" = "mine s.db" ]
	# writing is refused as before
	run --separate-stderr as_nobody "$CP" import --store "$R/s.db" "$R/mine/none.csv"
	[ "$status" -ne 0 ]
	rm -rf "$R"
}

@test "leftovers: failing commands leave no store, journal or directory behind" {
	# a reader never writes beside the file it reads
	run --separate-stderr "$CP" show --store /dev/null
	refused 2 "/dev/null holds no clearpath store yet"
	[ ! -e /dev/null-journal ] && [ -c /dev/null ]
	# a merge from a missing store creates no DST
	run --separate-stderr "$CP" merge --into "$D/new.db" "$D/missing.db"
	refused 2 "no store at $D/missing.db"
	[ ! -e "$D/new.db" ]
	# importing a directory is a usage error, and a refused import leaves no new store
	run --separate-stderr "$CP" import --store "$D/new.db" "$D"
	refused 2 "cannot read $D: it is a directory"
	printf 'not,a,header\n' > "$D/bad.csv"
	run --separate-stderr "$CP" import --store "$D/new.db" "$D/bad.csv"
	refused 2 "nothing from $D/bad.csv was imported"
	[ ! -e "$D/new.db" ]
	# a resume with nothing to resume creates no store
	printf 'name: tiny\nbenchmarks:\n  - mem memset -f default -s 1MB\n' > "$D/tiny.yaml"
	run --separate-stderr "$CP" plan run --resume --store "$D/new.db" "$D/tiny.yaml"
	refused 2 "no store at $D/new.db"
	[ "$(cd "$D" && echo *)" = "bad.csv tiny.yaml" ]
}

@test "--store: only the store's own directory is created; a typo in a parent is refused" {
	one_row_store "$D/own/s.db"
	[ -f "$D/own/s.db" ]
	run --separate-stderr "$CP" import --store "$D/nonexistent/dir/x.db" - <<< "$HEADER"
	refused 3 "cannot create store directory $D/nonexistent/dir: No such file or directory" "mkdir -p"
	[ ! -e "$D/nonexistent" ]
	# a 5000-character path: refused whole, no tree of directories
	long=$D/$(printf 'a/%.0s' $(seq 2500))x.db
	run --separate-stderr "$CP" import --store "$long" - <<< "$HEADER"
	refused 2 "store path is too long"
	[ ! -e "$D/a" ]
}

@test "long names: a benchmark and suite of 1024 bytes each, the limit, survive export -> import -> merge whole" {
	# "--command echo;echo;..." and "exec/nnn...": 1024 bytes each
	cmd=$(printf 'echo;%.0s' $(seq 202))echo
	suite=exec/$(printf 'n%.0s' $(seq 1019))
	printf '%s\nbox,base,5eed0000-0000-4000-8000-000000000001,%s --command %s,v,s,0,0,0,5,2026-08-22T08:00:00.000000Z,2026-08-22T08:00:01.000000Z\n' \
		"$HEADER" "$suite" "$cmd" > "$D/long.csv"
	"$CP" import --store "$D/a.db" "$D/long.csv"
	"$CP" export --store "$D/a.db" "$D/a.csv"
	cmp "$D/long.csv" "$D/a.csv"
	"$CP" import --store "$D/b.db" "$D/a.csv"
	"$CP" export --store "$D/b.db" "$D/b.csv"
	cmp "$D/a.csv" "$D/b.csv"
	[ "$(sql "$D/b.db" "SELECT length(suite), length(params) FROM benchmark")" = "1024|1024" ]
	"$CP" merge --into "$D/m.db" "$D/a.db" "$D/b.db" >/dev/null
	[ "$(sql "$D/m.db" "SELECT count(*) FROM benchmark")" = 1 ]
	"$CP" export --store "$D/a.db" --format json - | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert len(d[0]["benchmark"]) == 1024 + 1 + 1024, len(d[0]["benchmark"])'
}

@test "long names: a name over 1024 bytes is refused at every entry, as a server would have to; nothing stored" {
	long=$(printf 'p%.0s' $(seq 8000))
	MEMSET=(mem memset -s 1MB -l 1 -f default)
	run --separate-stderr "$CP" run --quiet --swprofile "$long" -- "${MEMSET[@]}"
	refused 2 "invalid value for --swprofile: 8000 bytes long, and a name in the store is at most 1024 bytes"
	run --separate-stderr "$CP" run --quiet --sut "x$(printf 'é%.0s' $(seq 512))" -- "${MEMSET[@]}"
	refused 2 "invalid value for --sut: 1025 bytes long"
	printf 'name: t\nbenchmarks:\n  - mem memset -f default -s 1MB\n' > "$D/ok.yaml"
	run --separate-stderr "$CP" plan run --swprofile "$long" "$D/ok.yaml"
	refused 2 "invalid value for --swprofile: 8000 bytes long"
	run --separate-stderr "$CP" calibrate --swprofile "$long" "$D/ok.yaml"
	refused 2 "invalid value for --swprofile: 8000 bytes long"
	# with its suffix, a calibration swprofile of 1024 bytes is too long
	run --separate-stderr "$CP" calibrate --swprofile "${long:0:1024}" "$D/ok.yaml"
	refused 2 "the calibration swprofile is 1038 bytes long"
	[ ! -e "$CLEARPATH_STORE" ]
	# import, either form: the line and column named, nothing from the file
	printf '%s\n%s\n' "$HEADER" "${ROW/base/$long}" > "$D/long.csv"
	run --separate-stderr "$CP" import --store "$D/s.db" "$D/long.csv"
	refused 2 "line 2, column 2 (swprofile): 8000 bytes long: a name in the store is at most 1024 bytes" "nothing from"
	printf '%s\n%s\n' "$HEADER" "${ROW/mem\/memset -s 4MB/mem/memset -s 4MB --x $long}" > "$D/longb.csv"
	run --separate-stderr "$CP" import --store "$D/s.db" "$D/longb.csv"
	refused 2 "line 2, column 4 (benchmark): 8022 bytes long (its suite or parameters too long)"
	[ ! -e "$D/s.db" ]
	one_row_store "$D/one.db"
	"$CP" export --store "$D/one.db" --whole "$D/one.csv"
	sed "s/,base,/,$long,/" "$D/one.csv" > "$D/longw.csv"
	run --separate-stderr "$CP" import --store "$D/s.db" "$D/longw.csv"
	refused 2 "line 3, column 3 (swprofile): 8000 bytes long: a name in the store is at most 1024 bytes"
	[ ! -e "$D/s.db" ]
	# a store an older clearpath let take it: readers cope, merge refuses it whole
	sql "$D/one.db" "UPDATE swprofile SET name = '$long'"
	"$CP" show --store "$D/one.db" >/dev/null
	run --separate-stderr "$CP" merge --into "$D/m.db" "$D/one.db"
	refused 2 "the store to merge holds a swprofile name that is 8000 bytes long ('pppp" \
		"a name in the store is at most 1024 bytes" "nothing from $D/one.db was merged"
	[ ! -e "$D/m.db" ]
	one_row_store "$D/other.db"
	sql "$D/other.db" "UPDATE swprofile SET name = 'other'"
	sum=$(cksum < "$D/other.db")
	run --separate-stderr "$CP" merge --into "$D/other.db" "$D/one.db"
	refused 2 "8000 bytes long"
	[ "$(sql "$D/other.db" "SELECT count(*) FROM swprofile")" = 1 ]
}

@test "import: strict fields: no NUL, hex, padded numbers or free-form times; a blank line is named" {
	T=2026-08-22T08:00:00.000000Z
	bad() {	# $1: the data line, $2: what the refusal says
		printf '%s\n%s\n' "$HEADER" "$1" > "$D/bad.csv"
		run --separate-stderr "$CP" import --store "$D/s.db" "$D/bad.csv"
		refused 2 "$2" "nothing from"
	}
	bad "box,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,0x10,$T,$T" "column 10 (value): '0x10' is not a finite number"
	bad "box,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,\" 5\",$T,$T" "column 10 (value): ' 5' is not a finite number"
	bad "box,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,inf,$T,$T" "'inf' is not a finite number"
	bad "box,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,+1,0,5,$T,$T" "column 8 (iteration): '+1' is not an iteration number"
	bad "box,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,5,yesterday,$T" "column 11 (session_started): 'yesterday' is not a UTC time"
	bad "box,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,5,$T,2026-13-01T00:00:00Z" "column 12 (sample_time): '2026-13-01T00:00:00Z' is not a UTC time"
	bad "box,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,5,2026-02-30T08:00:00Z,$T" "column 11 (session_started): '2026-02-30T08:00:00Z' is not a UTC time"
	bad "box,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,5,$T,2026-08-22T23:59:60Z" "column 12 (sample_time): '2026-08-22T23:59:60Z' is not a UTC time"
	bad "box,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,5,0000-01-01T00:00:00Z,$T" "'0000-01-01T00:00:00Z' is not a UTC time"
	printf '%s\n\n%s\n' "$HEADER" "$ROW" > "$D/blank.csv"
	run --separate-stderr "$CP" import --store "$D/s.db" "$D/blank.csv"
	refused 2 "blank.csv: line 2 is blank"
	printf '%s\nbox\0evil,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,5,%s,%s\n' "$HEADER" $T $T > "$D/nul.csv"
	run --separate-stderr "$CP" import --store "$D/s.db" "$D/nul.csv"
	refused 2 "nul.csv: line 2, column 1: a NUL byte inside a field"
	[ ! -e "$D/s.db" ]
}

@test "import: a subnormal value round-trips through export and import" {
	printf '%s\nbox,base,5eed0000-0000-4000-8000-000000000001,mem/x,v,s,1,0,0,1e-310,2026-08-22T08:00:00.000000Z,2026-08-22T08:00:01Z\n' "$HEADER" > "$D/tiny.csv"
	"$CP" import --store "$D/a.db" "$D/tiny.csv"
	"$CP" export --store "$D/a.db" "$D/a.csv"
	"$CP" import --store "$D/b.db" "$D/a.csv"
	"$CP" export --store "$D/b.db" "$D/b.csv"
	cmp "$D/a.csv" "$D/b.csv"
	[ "$(sql "$D/b.db" "SELECT value > 0 AND value < 1e-300 FROM sample")" = 1 ]
}

@test "import: a UTF-8 byte-order mark (a spreadsheet's CSV UTF-8) is skipped; a stray 0xef byte is named" {
	# the mark once became part of the first header field: "header says '\xef\xbb\xbfsut'", invisible
	printf '\357\273\277%s\r\n%s\r\n' "$HEADER" "$ROW" >"$D/bom.csv"
	run --separate-stderr "$CP" import "$D/bom.csv"
	[ "$status" -eq 0 ]
	[ "$output" = "imported 1 sample in 1 new session from $D/bom.csv" ]
	"$CP" export --whole --format json "$D/w.json"
	printf '\357\273\277' | cat - "$D/w.json" >"$D/bom.json"
	run --separate-stderr "$CP" import --store "$D/j.db" "$D/bom.json"
	[ "$status" -eq 0 ]
	printf '\357%s\n' "$HEADER" >"$D/stray.csv"
	run --separate-stderr "$CP" import --store "$D/s.db" "$D/stray.csv"
	refused 2 "starts with the byte 0xef but is not UTF-8 text with a byte-order mark" "nothing from $D/stray.csv was imported"
}

@test "--store naming a directory: exit 2 and the file it wants, for readers and writers alike" {
	mkdir "$D/dir"
	one_row_store "$D/one.db"
	printf '%s\n%s\n' "$HEADER" "$ROW" >"$D/one.csv"
	# was exit 3, "cannot open store DIR: Is a directory" (or "Inappropriate ioctl for device")
	for cmd in "show --store $D/dir" "list sessions --store $D/dir" "import --store $D/dir $D/one.csv" \
		   "merge --into $D/dir $D/one.db"; do
		run --separate-stderr $CP $cmd
		refused 2 "cannot open store $D/dir: it is a directory" "e.g. $D/dir/results.db"
	done
	[ -z "$(ls "$D/dir")" ]
}

@test "import: a JSON export is named as such" {
	one_row_store "$D/a.db"
	"$CP" export --store "$D/a.db" --format json "$D/x.json"
	run --separate-stderr "$CP" import --store "$D/b.db" "$D/x.json"
	refused 2 "x.json: record 1: no \"record\" key: this is the JSON sample form" "--whole, or with --format csv"
	[[ "$stderr" != *"header says"* ]]
}

@test "UTF-8: a name that is not UTF-8 is refused at every entry; an old bad row is still listed" {
	MEMSET=(mem memset -s 1MB -l 1 -f default)
	run --separate-stderr "$CP" run --quiet --sut $'box\xff' -- "${MEMSET[@]}"
	refused 2 "invalid value for --sut: not valid UTF-8"
	run --separate-stderr "$CP" run --quiet --swprofile $'p\xff' -- "${MEMSET[@]}"
	refused 2 "invalid value for --swprofile: not valid UTF-8"
	# plan files: raw bytes are a YAML error (an escape like "\xff" is U+00FF, valid UTF-8)
	printf 'name: t\xff\nbenchmarks:\n  - mem memset -f default -s 1MB\n' > "$D/bad.yaml"
	run --separate-stderr "$CP" plan run "$D/bad.yaml"
	refused 2 "invalid leading UTF-8 octet"
	printf 'name: t\nbenchmarks:\n  - mem memset -f default -s 1MB\n' > "$D/ok.yaml"
	run --separate-stderr "$CP" plan run --swprofile $'p\xff' "$D/ok.yaml"
	refused 2 "invalid value for --swprofile: not valid UTF-8"
	[ ! -e "$CLEARPATH_STORE" ]
	printf '%s\n%s\n' "$HEADER" "${ROW/box/$'box\xff'}" > "$D/bad.csv"
	run --separate-stderr "$CP" import --store "$D/s.db" "$D/bad.csv"
	refused 2 "line 2, column 1 (sut): not valid UTF-8" "nothing from"
	[ ! -e "$D/s.db" ]
	# a store written before the rule: every reader copes, import and merge refuse it whole
	one_row_store "$D/old.db"
	sql "$D/old.db" "UPDATE sut SET name = CAST(X'626f78ff' AS TEXT)"
	for k in suts swprofiles sessions benchmarks; do
		run --separate-stderr "$CP" list "$k" --store "$D/old.db" --format json
		[ "$status" -eq 0 ] && [ -z "$stderr" ]
		json_check 'assert len(d) == 1'
	done
	run --separate-stderr "$CP" export --store "$D/old.db" --format json -
	[ "$status" -eq 0 ]
	json_check 'assert d[0]["sut"] == "box\ufffd", d'
	run --separate-stderr "$CP" show --store "$D/old.db"
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	"$CP" export --store "$D/old.db" "$D/old.csv"
	run --separate-stderr "$CP" import --store "$D/s.db" "$D/old.csv"
	refused 2 "column 1 (sut): not valid UTF-8"
	run --separate-stderr "$CP" merge --into "$D/m.db" "$D/old.db"
	refused 2 "not valid UTF-8" "nothing from $D/old.db was merged"
	[ ! -e "$D/m.db" ] && [ ! -e "$D/s.db" ]
}
