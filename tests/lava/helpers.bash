# helpers.bash: what the LAVA suites share: the throwaway lab, Debian kernels with their initramfs, jobs through lavacli.
#
# LAB is the lab's directory (tests/lava/lab), LAVA_CACHE the cache of kernels and initramfs
# (build/lava-cache unless CLEARPATH_LAVA_CACHE says otherwise), TIMES the file the suites
# append their measured times to ("what seconds"), printed by `make check-lava` at the end.

LAVA_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LAVA_CACHE=${CLEARPATH_LAVA_CACHE:-$LAVA_TOP/build/lava-cache}
TIMES=${CLEARPATH_LAVA_TIMES:-$LAVA_TOP/build/lava-times}
# The two kernels the suites boot: Debian's generic and cloud flavours, two releases.
LAVA_FLAVOURS="amd64 cloud-amd64"

# Record "$1 $2" in $TIMES (and on bats' fd 3, where there is one).
measured() {
	echo "$1 $2" >>"$TIMES"
	{ echo "# $1 $2" >&3; } 2>/dev/null || true
}

# Record how long "$2..." took, as "$1 SECONDS".
timed() {
	local what=$1 t0 rc
	shift
	t0=$(date +%s)
	"$@"
	rc=$?
	measured "$what" "$(($(date +%s) - t0))"
	return $rc
}

# The kernels (tests/lava/kernels) and one initramfs each with the static clearpath:
# KERNEL_<n>, INITRD_<n>, RELEASE_<n> for n = 1, 2.
lava_kernels() {
	local static=$LAVA_TOP/build/static/clearpath-$(uname -m) n=0 release dir
	[ -x "$static" ] || { echo "no $static: make static" >&2; return 1; }
	while read -r release dir; do
		n=$((n + 1))
		"$LAVA_TOP/tests/lava/initramfs" "$dir" "$release" "$static" "$LAVA_CACHE/initrd-$release.cpio.gz" || return 1
		eval "RELEASE_$n=\$release KERNEL_$n=\$dir/boot/vmlinuz-\$release INITRD_$n=\$LAVA_CACHE/initrd-\$release.cpio.gz"
	done < <("$LAVA_TOP/tests/lava/kernels" "$LAVA_CACHE" $LAVA_FLAVOURS)
	[ "$n" -eq 2 ] && [ "$RELEASE_1" != "$RELEASE_2" ]
}

# Start the lab with $1 devices into $LAB (exported with LAVA_URL and lavacli's config).
lab_start() {
	LAB=$LAVA_TOP/build/lava-lab.$$
	LAVA_URL=$("$LAVA_TOP/tests/lava/lab" start "$LAB" "$1") || return 1
	XDG_CONFIG_HOME=$LAB/config
	export LAB LAVA_URL XDG_CONFIG_HOME
}

lab_stop() {
	[ -z "${LAB:-}" ] || "$LAVA_TOP/tests/lava/lab" stop "$LAB"
}

# GET $1 (a path under the server's URL) as the lab's user; the token goes in a header file,
# never on a command line.
lab_get() {
	local hdr
	hdr=$(mktemp)
	printf 'Authorization: Token %s\n' "$(cat "$LAB/token")" > "$hdr"
	curl -sf -H "@$hdr" "${LAVA_URL}$1"
	local rc=$?
	rm -f "$hdr"
	return $rc
}

# Wait until job $1 has finished (bounded by $2 seconds), then print its health.
job_wait() {
	local id=$1 limit=$2 t0 state
	t0=$(date +%s)
	while :; do
		state=$(lab_get "api/v0.2/jobs/$id/" | /usr/bin/python3 -c 'import json, sys; j = json.load(sys.stdin); print(j["state"], j["health"])') || return 1
		case $state in
		Finished*) echo "${state#Finished }"; return 0 ;;
		esac
		[ $(($(date +%s) - t0)) -lt "$limit" ] || { echo "job $id still '$state' after ${limit}s" >&2; return 1; }
		sleep 2
	done
}

# The seconds job $1 spent in the queue and running, from its own record: "QUEUED RUNNING".
job_times() {
	lab_get "api/v0.2/jobs/$1/" | /usr/bin/python3 -c 'import json, sys
from datetime import datetime
j = json.load(sys.stdin)
t = lambda k: datetime.fromisoformat(j[k].replace("Z", "+00:00"))
print(round((t("start_time") - t("submit_time")).total_seconds()), round((t("end_time") - t("start_time")).total_seconds()))'
}
