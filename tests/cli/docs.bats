#!/usr/bin/env bats
# docs: the man page keeps up with every command and --help, `clearpath help`, the bash completion, make install.

setup() {
	cd "$BATS_TEST_DIRNAME/../.."
	CP=${CLEARPATH:-./clearpath}
	MAN=docs/clearpath.1
}

# The commands of main.c's table, one a line.
commands() {
	sed -n 's/^\t{ "\([a-z]*\)", .*/\1/p' src/main.c
}

# The man page section ".SS $1", with troff's \- turned back into -.
man_section() {
	sed 's/\\-/-/g' "$MAN" | awk -v s="$1" '/^\.S[SH] / { t = $2; gsub(/"/, "", t); on = ($1 == ".SS" && t == s) } on'
}

@test "main.c's command table is read (so the next test checks something)" {
	run commands
	[ "${#lines[@]}" -ge 6 ]
	[[ " ${lines[*]} " == *" bench "* ]]
	[[ " ${lines[*]} " == *" help "* ]]
}

@test "every command of main.c's table has its own section in the man page" {
	for c in $(commands); do
		man_section "$c" | grep -q . || { echo "no '.SS $c' in $MAN"; return 1; }
	done
}

# Every workload the binary offers, as "bench <collection> <workload>" one a line (from `bench --help`),
# so a new workload is checked here without editing this file.
workloads() {
	$CP bench --help | sed -n 's/^  \([a-z0-9_]*\) \([a-z0-9_]*\)  .*/bench \1 \2/p'
}

@test "the workload list is read from bench --help (so the next test checks every workload)" {
	run workloads
	[ "${#lines[@]}" -ge 3 ]
	[[ "${lines[*]}" == *"bench mem mmap"* ]]
}

# check_options CMDLINE TEXT OPTION...: count each OPTION in $checked, and add those TEXT does not
# name (as a whole option, not a prefix of a longer one) to $missing as 'CMDLINE OPTION'.
check_options() {
	local cmdline=$1 text=$2 opt
	shift 2
	for opt; do
		checked=$((checked + 1))
		grep -qE -- "${opt}([^a-z_-]|\$)" <<<"$text" || missing+=" '$cmdline $opt'"
	done
}

@test "every long option a --help prints appears in that command's man page section" {
	local missing='' checked=0 help sec cmdlines
	mapfile -t cmdlines < <(workloads)
	# "bench mem mmap" and "plan run" are documented under bench and plan
	for cmdline in "${cmdlines[@]}" run show report plan "plan run" campaign doctor list export import merge "remote check" "store roles"; do
		# commands still on other branches are absent from this binary: skip them
		help=$($CP $cmdline --help 2>/dev/null) || continue
		sec=$(man_section "${cmdline%% *}")
		# --help itself is documented once, for every command, under COMMANDS
		check_options "$cmdline" "$sec" $(grep -oE -- '--[a-z][a-z_-]*' <<<"$help" | grep -vx -- --help | sort -u)
	done
	echo "options checked: $checked; missing from $MAN:$missing"
	[ "$checked" -ge 40 ]
	[ -z "$missing" ]
}

@test "a usage line that spells out its options names every option its --help lists" {
	local missing='' checked=0 help usage
	for cmdline in run show report calibrate "plan run" campaign doctor list export import merge "remote check" "store roles"; do
		help=$($CP $cmdline --help 2>/dev/null) || continue
		# the usage: its first line up to the first blank one
		usage=$(awk '/^usage:/ { on = 1 } on && /^$/ { exit } on' <<<"$help")
		[[ $usage == *"[options]"* ]] && continue
		check_options "$cmdline" "$usage" $(grep -oE -- '^ +--[a-z][a-z_-]*' <<<"$help" | tr -d ' ' | sort -u)
	done
	echo "options checked: $checked; missing from the usage line:$missing"
	[ "$checked" -ge 20 ]
	[ -z "$missing" ]
}

@test "a --help that lists the forms of --store names PostgreSQL's (campaigns run into a lab's server too)" {
	local wrong='' checked=0 forms
	for cmdline in run "plan run" calibrate campaign doctor show report list export import; do
		forms=$(grep -A1 -- '^ *--store URL *a path' <<<"$($CP $cmdline --help)") || continue
		checked=$((checked + 1))
		[[ $forms == *postgresql://* ]] || wrong+=" '$cmdline'"
	done
	echo "checked $checked; --store's forms without postgresql:// in:$wrong"
	[ "$checked" -ge 3 ]
	[ -z "$wrong" ]
}

@test "clearpath help run prints run's usage and exits 0" {
	run "$CP" run --help
	[ "$status" -eq 0 ]
	local want=$output
	run "$CP" help run
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: clearpath run [options] -- <collection> <workload> [bench options]" ]
	[ "$output" = "$want" ]
}

@test "clearpath help reaches nested helps and says where a workload's options are" {
	run "$CP" help plan run
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: clearpath plan run [options] FILE" ]
	run "$CP" help bench
	[ "$status" -eq 0 ]
	[[ "$output" == *"mem mmap"* ]]
	[ "${lines[${#lines[@]} - 1]}" = "'clearpath bench <collection> <workload> --help' lists a workload's options" ]
	run "$CP" help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: clearpath <command> [options]" ]
}

@test "clearpath help nosuch exits 2 and names the command" {
	run "$CP" help nosuch
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown command 'nosuch'"* ]]
}

# Complete the words "$@" (the last one is being typed) with the script, as bash would.
complete_words() {
	bash -c 'source completions/clearpath.bash
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _clearpath
		printf "%s\n" "${COMPREPLY[@]}"' complete "$CP" "$@"
}

@test "the completion script parses and completes commands, workloads and -f names" {
	bash -n completions/clearpath.bash
	run complete_words be
	[ "$status" -eq 0 ]
	[ "$output" = bench ]
	run complete_words bench mem ''
	[ "${lines[*]}" = "memcpy memset mmap clear all" ]
	run complete_words bench ''
	[ "${lines[*]}" = "mem" ]
	run complete_words bench mem memset -f ''
	[[ " ${lines[*]} " == *" default "* ]]
	[[ " ${lines[*]} " == *" x86-64-stosb "* ]]
	[[ " ${lines[*]} " == *" all all+ "* ]]
	run complete_words bench mem memcpy -f ''
	[[ " ${lines[*]} " == *" x86-64-movsb "* ]]
	# perf's common options before the collection: -f is the format there
	run complete_words bench -f ''
	[ "${lines[*]}" = "default simple json" ]
	run complete_words bench -f simple -r 3 m
	[ "$output" = mem ]
	run complete_words run --repeats 3 -- mem mmap -f ''
	[[ " ${lines[*]} " == *" demand populate"* ]]
	run complete_words show --rule ''
	[ "${lines[*]}" = "nested fastpath" ]
	run complete_words plan run --re
	[ "$output" = --resume ]
	run complete_words campaign ''
	[ "${lines[*]}" = "start status continue abort fake-boot" ]
	run complete_words campaign start --boots
	[ "$output" = --boots ]
	run complete_words campaign start --ho
	[ "$output" = --host ]
}

@test "the man page renders without groff warnings" {
	command -v groff >/dev/null || skip "groff is not installed"
	run groff -man -Tutf8 -ww -z "$MAN"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run groff -man -Tutf8 -P-cbou "$MAN"	# plain text: no bold or underline
	[[ "$output" == *"EXIT STATUS"* ]]
}

@test "make install puts the binary, the man page and the completion under PREFIX and DESTDIR" {
	[ -x ./clearpath ] || skip "no ./clearpath built to install"
	local tmp
	tmp=$(mktemp -d)
	# -o clearpath: install what is built, never rebuild it here (a SANITIZE run's make flags stay out too)
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -o clearpath install PREFIX="$tmp/usr" DESTDIR="$tmp/stage"
	local root=$tmp/stage$tmp/usr
	[ -x "$root/bin/clearpath" ]
	cmp "$MAN" "$root/share/man/man1/clearpath.1"
	cmp completions/clearpath.bash "$root/share/bash-completion/completions/clearpath"
	rm -rf "$tmp"
}
