# helpers.bash: assertions the bats CLI suites share (load helpers).

# Check $output as JSON with a python3 snippet reading `d`; python3 is part of the test image.
json_check() {
	printf '%s' "$output" | python3 -c "import json, sys
d = json.load(sys.stdin)
$1"
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
