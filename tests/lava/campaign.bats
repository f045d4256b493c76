#!/usr/bin/env bats
# campaign.bats: `clearpath campaign start --lava` through the real LAVA lab of setup_suite.bash: a 2x2 campaign on two
# devices at once with two Debian kernels, the job YAML against LAVA's schema, and the faults (a bogus kernel URL,
# the worker stopped mid-job, the controller killed mid-campaign, a job left in the queue past its timeout), each
# completed by `campaign continue`; and a lab whose devices are all in maintenance refused at start.

bats_require_minimum_version 1.5.0
load ../cli/helpers
load helpers

setup() {
	setup_store
}

# Whatever a test took out of service comes back, even when it failed midway.
teardown() {
	[ ! -e "$D/worker-down" ] || worker_health ACTIVE
	[ ! -e "$D/devices-down" ] || devices_health GOOD
}

# Set the lab worker's health (ACTIVE, MAINTENANCE): LAVA schedules nothing on a worker in maintenance.
# Through the model, as `workers update --health` would: in LAVA 2023.01 that command fails with a
# TypeError (it calls go_health_maintenance() without the user its model now takes).
worker_health() {
	"$LAVA_TOP/tests/lava/lab" manage "$LAB" shell -c "from django.db import transaction
from lava_scheduler_app.models import Worker
with transaction.atomic():
    w = Worker.objects.select_for_update().get(hostname='$(cat "$LAB/worker")')
    getattr(w, 'go_health_' + '$1'.lower())(None, 'clearpath test')
    w.save()" >/dev/null || return 1
	if [ "$1" = ACTIVE ]; then rm -f "$D/worker-down"; else touch "$D/worker-down"; fi
}

# Set the health of every device of the lab (GOOD, MAINTENANCE).
devices_health() {
	local dev
	while read -r dev; do
		"$LAVA_TOP/tests/lava/lab" manage "$LAB" devices update --health "$1" "$dev" >/dev/null || return 1
	done <"$LAB/devices.list"
	if [ "$1" = GOOD ]; then rm -f "$D/devices-down"; else touch "$D/devices-down"; fi
}

# tests/lava/plans/$1.yaml.in with the lab's kernels, into $D/$1.yaml.
plan() {
	sed -e "s|@KERNEL_1@|$KERNEL_1|g" -e "s|@INITRD_1@|$INITRD_1|g" -e "s|@KERNEL_2@|$KERNEL_2|g" \
		-e "s|@INITRD_2@|$INITRD_2|g" "tests/lava/plans/$1.yaml.in" >"$D/$1.yaml"
}

# campaign start on the lab's qemu devices, with the arguments given.
start() {
	"$CP" campaign start --lava "$LAVA_URL" --device-type qemu --store "$STORE" "$@"
}

# The campaign's status as JSON in $output.
status_json() {
	run --separate-stderr "$CP" campaign status --store "$STORE" --format json
	[ "$status" -eq 0 ]
}

# The LAVA jobs whose names carry the campaign's key, as "ID STATE HEALTH NAME" lines.
campaign_jobs() {
	local key
	key=$(python3 -c 'import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(json.loads(db.execute("select spec from campaign order by id desc limit 1").fetchone()[0])["lava_key"])' "$STORE")
	lab_get "api/v0.2/jobs/?limit=200&ordering=id" | python3 -c 'import json, sys
for j in json.load(sys.stdin)["results"]:
    if j["description"].startswith("clearpath " + sys.argv[1] + " "):
        print(j["id"], j["state"], j["health"], j["description"])' "$key"
}

# Wait (at most $1 seconds) until one of the campaign's jobs runs on a device, while the controller $2 runs.
wait_running() {
	local i
	for ((i = 0; i < $1; i++)); do
		[ -s "$STORE" ] && campaign_jobs 2>/dev/null | grep -q ' Running ' && return 0
		kill -0 "$2" 2>/dev/null || { echo "the controller ended before a job ran:"; cat "$D/out" "$D/err"; return 1; }
		sleep 1
	done
	echo "no job of the campaign ran within $1 s" >&2
	cat "$D/out" "$D/err"
	return 1
}

@test "lava campaign: every job of a dry run passes LAVA's own schema check, offline and on the server" {
	plan ab
	run --separate-stderr start "$D/ab.yaml" --boots 2 --seed 7 --lava-devices 2 --dry-run
	[ "$status" -eq 0 ]
	# each job is printed between --- and ...
	printf '%s\n' "$output" | awk -v dir="$D" '/^---$/ { n++; f = dir "/job" n ".yaml"; next } /^\.\.\.$/ { f = ""; next } f { print > f }'
	[ "$(ls "$D"/job*.yaml | wc -l)" -eq 8 ]
	for f in "$D"/job*.yaml; do
		/usr/bin/python3 -c 'import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])), strict=True)' "$f"
		run lavacli -i lab jobs validate "$f"
		[ "$status" -eq 0 ] || { echo "$output"; false; }
	done
}

@test "lava campaign: 2 swprofiles x 2 boots on two devices at once, one whole session per boot under its kernel" {
	local t0
	plan ab
	t0=$(date +%s)
	run --separate-stderr start "$D/ab.yaml" --boots 1 --seed 3 --lava-devices 2
	measured campaign-2x2-two-devices "$(($(date +%s) - t0))"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; false; }
	# the seed-style table of both kernels
	[[ "$output" == *"campaign 1 done: 4 boots, one session each"* ]]
	[[ "$output" == *"memset -f default -s 1MB (bytes/sec)"* ]]
	[[ "$output" == *"| base (base)"* ]]
	status_json
	json_check 'import sys
boots = d["boots"]
assert len(boots) == 4, boots
assert all(b["status"] == "done" for b in boots), boots
want = {"base": sys.argv[1], "patch": sys.argv[2]}
assert all(b["release"] == want[b["swprofile"]] for b in boots), boots
assert len({b["boot_id"] for b in boots}) == 4, boots
assert len({b["session"] for b in boots}) == 4, boots
assert {b["target"] for b in boots} == {"lava:qemu/1", "lava:qemu/2"}, boots' "$RELEASE_1" "$RELEASE_2"
	# exactly those sessions in the store, each under its boot's id, complete
	run store_sql "select count(*), count(distinct uuid), sum(complete) from session"
	[ "$output" = "4|4|4" ]
	# one job per boot on the server, each Complete, with the session's numbers as LAVA measurements
	run campaign_jobs
	[ "$(printf '%s\n' "$output" | grep -c ' Finished Complete ')" -eq 4 ]
	id=$(printf '%s\n' "$output" | head -n 1 | cut -d' ' -f1)
	run lab_get "api/v0.2/jobs/$id/tests/?limit=100"
	json_check 'res = {t["name"]: t for t in d["results"]}
assert res["clearpath-session"]["result"] == "pass", res.keys()
m = [t for t in d["results"] if t["name"].startswith("memset-f-default-s-1MB")]
assert m and float(m[0]["measurement"]) > 0 and m[0]["unit"] == "bytes/sec", m'
}

@test "lava campaign: a bogus kernel URL is tried again with the reasons kept; the campaign waits and 'continue' completes it" {
	local k t0
	plan one
	k=$D/kernels/$(basename "$KERNEL_1")
	sed -i "s|file://$KERNEL_1|file://$k|" "$D/one.yaml"
	t0=$(date +%s)
	run --separate-stderr start "$D/one.yaml" --boots 1 --seed 1 --lava-retries 1
	measured fault-bogus-url-two-tries "$(($(date +%s) - t0))"
	[ "$status" -eq 3 ] || { echo "$output"; echo "$stderr"; false; }
	[[ "$stderr" == *"no session after 2 tries here; the boot waits for 'clearpath campaign continue'"* ]]
	status_json
	json_check 'b = d["boots"][0]
assert d["state"] == "running", d["state"]
assert b["status"] == "booting", b
assert "try 1: job " in b["error"] and "try 2: job " in b["error"] and "Incomplete" in b["error"], b' 
	# the kernel is there now: continue completes it, with one session
	mkdir -p "$D/kernels"
	ln -s "$KERNEL_1" "$k"
	run --separate-stderr "$CP" campaign continue --store "$STORE"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; false; }
	status_json
	json_check 'import sys
b = d["boots"][0]
assert d["state"] == "done" and b["status"] == "done" and b["release"] == sys.argv[1], d' "$RELEASE_1"
	run store_sql "select count(*) from session"
	[ "$output" = 1 ]
	run campaign_jobs
	[ "$(printf '%s\n' "$output" | grep -c ' Finished Incomplete ')" -eq 2 ]
	[ "$(printf '%s\n' "$output" | grep -c ' Finished Complete ')" -eq 1 ]
}

# The one-boot campaign of plan one, with "$@" run while its job runs on a device; measured as $MEASURE.
# It must complete with one session.
fault_mid_job() {
	local pid t0
	plan one
	t0=$(date +%s)
	start "$D/one.yaml" --boots 1 --seed 1 >"$D/out" 2>"$D/err" &
	pid=$!
	wait_running 300 "$pid"
	"$@"
	wait "$pid" || { cat "$D/out" "$D/err"; false; }
	measured "$MEASURE" "$(($(date +%s) - t0))"
	status_json
	json_check 'b = d["boots"][0]
assert d["state"] == "done" and b["status"] == "done", d'
	run store_sql "select count(*) from session"
	[ "$output" = 1 ]
}

# Stop the lab's $1 (worker, server) for $2 seconds.
lab_pause() {
	"$LAVA_TOP/tests/lava/lab" "stop-$1" "$LAB"
	sleep "$2"
	"$LAVA_TOP/tests/lava/lab" "start-$1" "$LAB"
}

@test "lava campaign: the worker stopped mid-job ends that job; it is tried again and the campaign completes" {
	MEASURE=fault-worker-stopped fault_mid_job eval 'sleep 5; lab_pause worker 2'
	status_json
	json_check 'b = d["boots"][0]
assert "try 1: job " in b["error"], b'
}

@test "lava campaign: the controller killed mid-campaign; 'continue' follows the job it left, submits nothing twice" {
	local pid t0
	plan one
	t0=$(date +%s)
	# in a session of its own, so the kill reaches its per-target process too
	setsid "$CP" campaign start --lava "$LAVA_URL" --device-type qemu --store "$STORE" "$D/one.yaml" --boots 1 --seed 1 \
		>"$D/out" 2>"$D/err" &
	pid=$!
	wait_running 300 "$pid"
	kill -KILL -- "-$pid"
	wait "$pid" || true
	run --separate-stderr "$CP" campaign continue --store "$STORE"
	measured fault-controller-killed "$(($(date +%s) - t0))"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; false; }
	[[ "$output" == *"following LAVA job "*"(try 1), submitted before"* ]]
	run campaign_jobs
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	run store_sql "select count(*) from session"
	[ "$output" = 1 ]
	# continue again: nothing more is imported or submitted
	run --separate-stderr "$CP" campaign continue --store "$STORE"
	run store_sql "select count(*) from session"
	[ "$output" = 1 ]
}

@test "lava campaign: the server lost mid-job; the controller waits for it and brings the session back" {
	MEASURE=fault-server-lost-20s fault_mid_job lab_pause server 20
}

@test "lava campaign: every device in maintenance: start is refused with the reason, nothing submitted or recorded" {
	plan one
	devices_health MAINTENANCE
	run --separate-stderr start "$D/one.yaml" --boots 1 --seed 1
	devices_health GOOD
	[ "$status" -eq 3 ] || { echo "$output"; echo "$stderr"; false; }
	[[ "$stderr" == *"the lab has no device of type qemu usable (2 in all)"* ]] || { echo "$stderr"; false; }
	[[ "$stderr" == *"lavacli devices list shows the lab's devices and their health"* ]]
	[ ! -s "$STORE" ] || [ "$(store_sql "select count(*) from campaign")" = 0 ]
}

@test "lava campaign: a job left in the queue (worker in maintenance) is canceled by its queue timeout; the reason kept, 'continue' completes it" {
	local t0
	plan one
	worker_health MAINTENANCE
	t0=$(date +%s)
	run --separate-stderr start "$D/one.yaml" --boots 1 --seed 1 --lava-retries 0 --lava-queue-timeout 1
	measured fault-queue-timeout-1min "$(($(date +%s) - t0))"
	worker_health ACTIVE
	[ "$status" -eq 3 ] || { echo "$output"; echo "$stderr"; false; }
	[[ "$stderr" == *"was canceled in the queue (no free device of type qemu within 1 minute, or canceled by hand)"* ]] ||
		{ echo "$stderr"; false; }
	[[ "$stderr" == *"no session after 1 try here; the boot waits for 'clearpath campaign continue'"* ]]
	status_json
	json_check 'b = d["boots"][0]
assert d["state"] == "running" and b["status"] == "booting", d
assert "try 1: job " in b["error"] and "canceled in the queue" in b["error"], b'
	run campaign_jobs
	[ "$(printf '%s\n' "$output" | grep -c ' Finished Canceled ')" -eq 1 ] || { echo "$output"; false; }
	# the worker is back: continue submits the boot again and it completes, one session
	run --separate-stderr "$CP" campaign continue --store "$STORE"
	[ "$status" -eq 0 ] || { echo "$output"; echo "$stderr"; false; }
	status_json
	json_check 'b = d["boots"][0]
assert d["state"] == "done" and b["status"] == "done", d'
	run store_sql "select count(*) from session"
	[ "$output" = 1 ]
	run campaign_jobs
	[ "$(printf '%s\n' "$output" | grep -c ' Finished Complete ')" -eq 1 ] || { echo "$output"; false; }
}

# Cancel, as the lab's user, the campaign's job that runs now.
cancel_running() {
	local id
	id=$(campaign_jobs | awk '$2 == "Running" { print $1; exit }')
	[ -n "$id" ] || { echo "no running job to cancel" >&2; return 1; }
	lavacli -i lab jobs cancel "$id"
}

@test "lava campaign: a job canceled by hand on its device is tried again with the reason kept, and the campaign completes" {
	MEASURE=fault-canceled-by-hand fault_mid_job cancel_running
	status_json
	json_check 'b = d["boots"][0]
assert "try 1: job " in b["error"] and " was canceled on " in b["error"], b'
	run campaign_jobs
	[ "$(printf '%s\n' "$output" | grep -c ' Finished Canceled ')" -eq 1 ] || { echo "$output"; false; }
	[ "$(printf '%s\n' "$output" | grep -c ' Finished Complete ')" -eq 1 ] || { echo "$output"; false; }
}
