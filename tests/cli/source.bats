#!/usr/bin/env bats
# source.bats: the result layer's rules, read from the source: formats are looked up in their registries, never
# compared by name; only the identity module reads a result class's name back; show and report only render.

setup() {
	SRC=$BATS_TEST_DIRNAME/../../src
}

@test "no strcmp on a format name outside the registries: commands switch on the index of their formats" {
	# the registries' own lookups compare table entries, never a literal name
	run grep -rnE 'str(n?case)?cmp\([^;]*"(box|grid|compact|markdown|csv|json|html|svg|png|text|table|simple)"' "$SRC"
	echo "$output"
	[ "$status" -eq 1 ]
	# and the grep finds what it looks for (so the test above can fail)
	printf '\tif (!strcmp(a.format, "json"))\n' >"$BATS_TEST_TMPDIR/x.c"
	grep -qE 'str(n?case)?cmp\([^;]*"(box|grid|compact|markdown|csv|json|html|svg|png|text|table|simple)"' \
		"$BATS_TEST_TMPDIR/x.c"
}

@test "no code outside the identity module takes a result class's name apart" {
	pat='str(str|chr|rchr|tok_r|tok|ncmp|spn|cspn|sep)\([^;]*(rclass|resultclass|ident->name|->display)|sscanf\([^;]*(rclass|resultclass)'
	run grep -rnE "$pat" "$SRC" --include=*.c
	echo "$output"
	[ "$status" -eq 1 ] || [ -z "$(grep -v '^[^:]*src/util/identity\.c:' <<<"$output")" ]
	printf '\tconst char *m = strstr(row->rclass, " :");\n' >"$BATS_TEST_TMPDIR/x.c"
	grep -qE "$pat" "$BATS_TEST_TMPDIR/x.c"
}

@test "show and report parse options, build the result and render it: no comparison, statistics or store of their own" {
	run grep -nE '#include "(compare|stats)/|#include "store/(store|db)\.h"|\b(cmp|stats)_[a-z_]+\(|store_(url_)?open' \
		"$SRC/cli/cmd_show.c" "$SRC/cli/cmd_report.c"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(grep -c 'result_build(' "$SRC/cli/cmd_show.c" "$SRC/cli/cmd_report.c" | grep -c ':1$')" -eq 2 ]
}
