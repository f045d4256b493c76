#!/usr/bin/env bats
# lava.bats: the real LAVA lab of setup_suite.bash boots two Debian kernels under QEMU with clearpath's initramfs, by a hand-written job.

load ../cli/helpers
load helpers

setup() {
	cd "$LAVA_TOP"
}

# The hand-written job of tests/lava/jobs/bench.yaml for kernel $1 (1 or 2), into $2.
bench_job() {
	local r k i
	eval "r=\$RELEASE_$1 k=\$KERNEL_$1 i=\$INITRD_$1"
	sed -e "s|@RELEASE@|$r|g" -e "s|@KERNEL@|$k|g" -e "s|@INITRD@|$i|g" tests/lava/jobs/bench.yaml > "$2"
}

@test "lava: the hand-written job passes LAVA's own schema check, offline and on the server" {
	bench_job 1 "$BATS_TEST_TMPDIR/job.yaml"
	/usr/bin/python3 -c 'import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])), strict=True)' "$BATS_TEST_TMPDIR/job.yaml"
	run lavacli -i lab jobs validate "$BATS_TEST_TMPDIR/job.yaml"
	[ "$status" -eq 0 ]
	# and a job the schema refuses is refused (so the check above can fail)
	sed 's/^  arch: amd64$/  arch: amd64\n  no_such_variable: 1/' "$BATS_TEST_TMPDIR/job.yaml" > "$BATS_TEST_TMPDIR/bad.yaml"
	run lavacli -i lab jobs validate "$BATS_TEST_TMPDIR/bad.yaml"
	[[ "$output" == *no_such_variable* ]]
}

@test "lava: each Debian kernel boots on its own device and LAVA records clearpath's perf lines as measurements" {
	local n id ids=() t0 health
	t0=$(date +%s)
	for n in 1 2; do
		bench_job $n "$BATS_TEST_TMPDIR/job$n.yaml"
		id=$(lavacli -i lab jobs submit "$BATS_TEST_TMPDIR/job$n.yaml")
		[[ "$id" =~ ^[0-9]+$ ]]
		ids+=("$id")
	done
	for n in 1 2; do
		id=${ids[$((n - 1))]}
		health=$(job_wait "$id" 900)
		[ "$health" = Complete ] || { lavacli -i lab jobs logs "$id" | tail -40; false; }
		measured "job-$n-queued-running" "$(job_times "$id")"
	done
	measured two-jobs-wall "$(($(date +%s) - t0))"

	local boot1 boot2
	for n in 1 2; do
		id=${ids[$((n - 1))]}
		eval "r=\$RELEASE_$n"
		# the kernel asked for is the kernel that ran
		run lavacli -i lab jobs logs --raw "$id"
		[ "$status" -eq 0 ]
		[[ "$output" =~ clearpath-release\ $r\ boot_id\ ([0-9a-f-]{36}) ]]
		eval "boot$n=\${BASH_REMATCH[1]}"
		# both perf lines became measurements, in perf's own units
		run lab_get "api/v0.2/jobs/$id/tests/?limit=100"
		[ "$status" -eq 0 ]
		json_check 'res = {t["name"]: t for t in d["results"]}
for name in ("memset-1MB-default", "mmap-4MB-demand"):
    t = res[name]
    assert t["result"] == "pass", t
    assert float(t["measurement"]) > 0, t
    assert t["unit"] in ("GB/sec", "MB/sec"), t'
	done
	# two boots, two boot ids
	[ "$boot1" != "$boot2" ]
	# the two jobs ran on the two devices at once
	run lab_get "api/v0.2/jobs/?id__in=${ids[0]},${ids[1]}"
	json_check 'devs = {j["actual_device"] for j in d["results"]}
assert len(devs) == 2, devs'
}
