# helpers.bash: assertions the bats CLI suites share (load helpers).

# Check $output as JSON with a python3 snippet reading `d` (further arguments in sys.argv[1:]); python3 is part of the test image.
json_check() {
	printf '%s' "$output" | python3 -c "import json, sys
d = json.load(sys.stdin)
$1" "${@:2}"
}

# A refusal: exit $1, nothing on stdout, stderr containing every further argument.
refused() {
	local code=$1
	shift
	[ "$status" -eq "$code" ] || { echo "status $status, expected $code; stderr: $stderr"; return 1; }
	[ -z "$output" ] || { echo "stdout not empty: $output"; return 1; }
	for msg in "$@"; do
		[[ "$stderr" == *"$msg"* ]] || { echo "stderr lacks '$msg': $stderr"; return 1; }
	done
}

# setup_store: run from the top of the tree with $CP, a scratch $D and a fresh store $STORE there.
setup_store() {
	cd "$BATS_TEST_DIRNAME/../.."
	CP=${CLEARPATH:-./clearpath}
	D="$BATS_TEST_TMPDIR"
	STORE="$D/results.db"
	export CLEARPATH_STORE="$STORE"
}

# whole_copies: $STORE copied three ways, export --whole (CSV, JSON) then import into $D/csv.db and $D/json.db
# (the exports stay as $D/a.csv, $D/a.json), and merge into $D/m.db.
whole_copies() {
	for fmt in csv json; do
		"$CP" export --store "$STORE" --whole --format $fmt "$D/a.$fmt"
		"$CP" import --store "$D/$fmt.db" "$D/a.$fmt" >/dev/null
	done
	"$CP" merge --into "$D/m.db" "$STORE" >/dev/null
}

# store_sql QUERY: the rows of the store $STORE, '|'-separated; writes are committed.
store_sql() {
	python3 - "$STORE" "$1" <<'PY'
import sqlite3, sys
for row in sqlite3.connect(sys.argv[1], isolation_level=None).execute(sys.argv[2]):
    print("|".join(str(c) for c in row))
PY
}

# unwrapped TEXT: a doctor report with each wrapped line joined back to the line it continues.
unwrapped() {
	printf '%s\n' "$1" | awk '/^ / && !/^ +fix: / {sub(/^ +/, ""); line = line " " $0; next}
		{if (NR > 1) print line; line = $0} END {print line}'
}

# The architecture clearpath was built for (uname -m spelling), from `clearpath --version`: under
# `make check-arm64` an aarch64 binary runs emulated on an x86-64 host, so uname -m would be wrong.
cp_machine() {
	"$CP" --version | sed -n 's/^clearpath .* (\(.*\))$/\1/p'
}

# The file clearpath runs as (what it finds in /proc/self/exe and writes into a unit's ExecStart):
# $CP itself, or under `make check-arm64` the arm64 binary that $CP, a wrapper script, hands to qemu.
cp_exe() {
	local target=
	[ -z "${CLEARPATH_EMULATOR:-}" ] || target=$(sed -n 's/^exec [^ ]* \([^ ]*\) "\$@"$/\1/p' "$CP")
	readlink -f "${target:-$CP}"
}

# Skip the current test when clearpath runs under a user-mode emulator (CLEARPATH_EMULATOR, set
# by make check-arm64) with the reason given: what the emulator cannot do that the test needs.
skip_emulated() {
	[ -z "${CLEARPATH_EMULATOR:-}" ] || skip "under ${CLEARPATH_EMULATOR##*/}: $*"
}

# A real PostgreSQL server for a whole bats file (tests/pg-server): pg_file_start in setup_file,
# pg_file_stop in teardown_file, pg_test_db PREFIX in setup for a fresh database $DB at $PG.
# The server's directory is not under bats' own: its user (nobody, when root) must reach it.
pg_file_start() {
	cd "$BATS_TEST_DIRNAME/../.."
	PGDIR=$(mktemp -u /tmp/clearpath-pg.XXXXXX)
	export PGDIR
	[ -n "${CLEARPATH_EMULATOR:-}" ] && return 0
	url=$(tests/pg-server start "$PGDIR")
	export PGBASE=${url%/clearpath}
}

pg_file_stop() {
	cd "$BATS_TEST_DIRNAME/../.."
	tests/pg-server stop "$PGDIR"
}

pg_test_db() {
	setup_store
	# the arm64 cross build leaves libpq out (make check-arm64)
	skip_emulated "clearpath is built without PostgreSQL there"
	DB=$1$BATS_TEST_NUMBER
	tests/pg-server createdb "$PGDIR" "$DB"
	PG=$PGBASE/$DB
}

# report_drawn ARGS...: run `clearpath report ARGS`; false where the binary was built without cairo
# (the arm64 cross build says so and exits 3), so the caller checks the page only where one is drawn.
# Any other failure fails the test.
report_drawn() {
	run --separate-stderr "$CP" report "$@"
	[[ $status -eq 3 && $stderr == *"built without cairo support"* ]] && return 1
	if [ "$status" -ne 0 ]; then
		printf 'clearpath report %s exited %s:\n%s\n' "$*" "$status" "$stderr"
		exit 1
	fi
}

# Skip where the binary was built without cairo (the arm64 cross build): `clearpath report` must say
# so and exit 3.  Needs $CP, $D and a store with samples ($CLEARPATH_STORE).
need_cairo() {
	report_drawn -o "$D/probe.html" || skip "this clearpath is built without cairo (WITH_CAIRO=0)"
}

# report_normalised PAGE STOREDIR: a report page as its golden files hold it: each plot's data: URI
# cut (cairo's bytes vary with its version), STOREDIR/ as STORE/, the clearpath version as VERSION.
report_normalised() {
	sed -e 's|src="data:image/svg+xml;base64,[A-Za-z0-9+/=]*"|src="data:image/svg+xml;base64,..."|g' \
		-e "s|$2/|STORE/|g" -e 's|clearpath [^ <]*</p>|clearpath VERSION</p>|' "$1"
}

# boot_tool_standins DIR: stand-ins for the boot tools (kexec, systemctl, grub-reboot, reboot,
# shutdown) in DIR, to put first on $PATH: were anything to run one, it leaves a trace in $D/ran
# (the campaign tests' teardown fails on it) instead of rebooting this shared machine.
boot_tool_standins() {
	local tool
	mkdir -p "$1"
	for tool in kexec systemctl grub-reboot reboot shutdown; do
		printf '#!/bin/sh\necho "$0 $*" >>"%s/ran"\nexit 1\n' "$D" >"$1/$tool"
		chmod +x "$1/$tool"
	done
}

# The views of store $1 the v4 migration tests compare, into $2.show, .profile, .param and .answer.
v4_views() {
	"$CP" show --store "$1" --format grid >"$2.show"
	"$CP" show --store "$1" --profile --format grid >"$2.profile"
	"$CP" show --store "$1" --columns param:f --benchmark mem/clear --format grid >"$2.param"
	"$CP" report --store "$1" --answer >"$2.answer"
}

# The words of unit $1's ExecStart= line, as systemd splits them (quotes, \ escapes, %% and $$).
unit_words() {
	python3 - "$1" <<'PY'
import re, sys
line = [l for l in open(sys.argv[1]) if l.startswith("ExecStart=")][0][len("ExecStart="):].strip()
for w in re.findall(r'"((?:[^"\\]|\\.)*)"', line):
    print(re.sub(r'\\(.)', r'\1', w).replace("%%", "%").replace("$$", "$"))
PY
}

# Every row of every table of the test's database $DB (pg_test_db), as text.
pg_dump_rows() {
	local t
	for t in $(tests/pg-server psql "$PGDIR" -d "$DB" -c \
		"select table_name from information_schema.tables where table_schema = 'public'"); do
		tests/pg-server psql "$PGDIR" -d "$DB" -c "select * from \"$t\""
	done
}
