#!/usr/bin/env bats
# campaign_lava: `clearpath campaign start --lava` without a lab: the dry run (golden: every job's YAML), the
# options, the plan and credential checks.  tests/lava/ runs campaigns through a real LAVA instance.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	setup_store
	GOLDEN="$BATS_TEST_DIRNAME/../golden/campaign"
	cat >"$D/lab.yaml" <<'EOF'
name: lab
swprofiles:
  base:  {cmdline: 'console=ttyS0,115200', boot: {method: lava, kernel: 'https://files.example.org/vmlinuz-6.1.0-57-amd64', initrd: 'https://files.example.org/initrd.img-6.1.0-57-amd64', context: [arch=amd64, memory=1024], prompts: ['clearpath-lava# ']}}
  patch: {cmdline: 'console=ttyS0,115200 init_on_free=0', boot: {method: lava, kernel: 'https://files.example.org/vmlinuz-6.1.0-57-cloud-amd64', initrd: 'https://files.example.org/initrd.img-6.1.0-57-cloud-amd64', context: [arch=amd64, memory=1024], prompts: ['clearpath-lava# ']}}
defaults: {warmups: 0, repeats: 2}
benchmarks:
  - mem memset -s 1MB -f default
EOF
	cat >"$D/board.yaml" <<'EOF'
name: board
swprofiles:
  base: {boot: {method: lava, deploy: tftp, boot: u-boot, commands: nfs, kernel: 'https://files.example.org/Image-6.1.0-57-arm64', dtb: 'https://files.example.org/juno-r2.dtb', modules: 'https://files.example.org/modules.tar.xz', nfsrootfs: 'https://files.example.org/rootfs.tar.xz', clearpath: 'https://files.example.org/clearpath-aarch64'}}
defaults: {warmups: 0, repeats: 2}
benchmarks:
  - mem memset -s 1MB -f default
EOF
}

@test "campaign start --lava --dry-run prints every job it would submit, two lanes of qemu (golden), changing nothing" {
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 2 --seed 5 --dry-run \
		--lava http://lava.example.invalid/ --device-type qemu --lava-devices 2
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | sed -e "s|$D|\$D|g" -e "s|$(cp_exe)|\$CLEARPATH|g" >"$D/dry.out"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$D/dry.out" "$GOLDEN/dry-run-lava.txt"
	fi
	diff -u "$GOLDEN/dry-run-lava.txt" "$D/dry.out"
	# one job per boot: 2 lanes x 2 swprofiles x 2 boots, each lane in the same interleaved order
	[ "$(grep -c '^job_name: ' "$D/dry.out")" -eq 8 ]
	[ "$(grep -c '^job_name: clearpath dryrun lava:qemu/2 boot [1-4] try 1 ' "$D/dry.out")" -eq 4 ]
	# the command line goes with the kernel; the patch's words too
	grep -q -- '-append "console=ttyS0,115200 init_on_free=0"' "$D/dry.out"
	[ ! -e "$STORE" ]
}

@test "campaign start --lava --dry-run writes a board's tftp job: kernel type, dtb, modules, NFS root, tags, a clearpath to fetch" {
	run --separate-stderr "$CP" campaign start "$D/board.yaml" --boots 1 --seed 1 --dry-run \
		--lava https://lava.example.invalid/ --device-type juno-r2 --tags big-ram,lab-a
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | sed -e "s|$D|\$D|g" -e "s|$(cp_exe)|\$CLEARPATH|g" >"$D/dry.out"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$D/dry.out" "$GOLDEN/dry-run-lava-board.txt"
	fi
	diff -u "$GOLDEN/dry-run-lava-board.txt" "$D/dry.out"
}

@test "campaign start --lava: the options belong together and say what is missing" {
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 1 --lava http://lava.example.invalid/
	refused 2 "--device-type TYPE"
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 1 --device-type qemu
	refused 2 "--lava URL"
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 1 --lava http://x/ --device-type qemu --host box
	refused 2 "--lava and --host"
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 1 --lava http://x/ --device-type 'a/b'
	refused 2 "--device-type takes a LAVA device type name"
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 1 --lava http://x/ --device-type qemu \
		--lava-token-file "$D/t" --lava-identity lab
	refused 2 "two sources of one token"
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 1 --lava http://x/ --device-type qemu --lava-devices 99
	refused 2 "invalid value '99' for --lava-devices: expected a whole number from 1 to 32"
	[ ! -e "$STORE" ]
}

@test "campaign start --lava: a plan whose swprofiles do not boot with method lava is refused" {
	sed 's/method: lava, kernel/method: kexec, kernel/' "$D/lab.yaml" | sed 's/, context: \[[^]]*\], prompts: \[[^]]*\]//' >"$D/kexec.yaml"
	run --separate-stderr "$CP" campaign start "$D/kexec.yaml" --boots 1 --dry-run --lava http://x/ --device-type qemu
	refused 2 "boots with method kexec; on a LAVA lab each swprofile boots with method lava"
	# and a lava swprofile anywhere else
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 1 --dry-run
	[[ "$stderr" == *"swprofile 'base' boots on a LAVA lab (method lava): run the campaign with --lava URL"* ]]
}

@test "campaign start --lava: URLs LAVA cannot fetch, a deployment clearpath does not write, context that is no KEY=VALUE" {
	sed "s|'https://files.example.org/vmlinuz-6.1.0-57-amd64'|/boot/vmlinuz-6.1.0-57-amd64|" "$D/lab.yaml" >"$D/bad.yaml"
	run --separate-stderr "$CP" campaign start "$D/bad.yaml" --boots 1 --dry-run --lava http://x/ --device-type qemu
	refused 2 "kernel '/boot/vmlinuz-6.1.0-57-amd64' is not a URL LAVA fetches"
	sed "s|deploy: tftp|deploy: fastboot|" "$D/board.yaml" >"$D/bad.yaml"
	run --separate-stderr "$CP" campaign start "$D/bad.yaml" --boots 1 --dry-run --lava http://x/ --device-type juno
	refused 2 "deploy 'fastboot'"
	sed "s|arch=amd64, memory=1024|arch amd64|" "$D/lab.yaml" >"$D/bad.yaml"
	run --separate-stderr "$CP" campaign start "$D/bad.yaml" --boots 1 --dry-run --lava http://x/ --device-type qemu
	refused 2 "context 'arch amd64' is not KEY=VALUE"
}

@test "campaign start --lava: no credentials, or a token file others can read, is refused before anything is recorded" {
	export XDG_CONFIG_HOME="$D/config"
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 1 --lava http://127.0.0.1:9/ --device-type qemu
	# the arm64 and static builds leave libcurl out: they refuse --lava whole, before any credential
	[[ $stderr != *"built without LAVA support"* ]] || skip "this clearpath is built without LAVA support (WITH_LIBCURL=0)"
	refused 2 "lavacli's identities file $D/config/lavacli.yaml"
	printf 'a-token\n' >"$D/token"
	chmod 644 "$D/token"
	run --separate-stderr "$CP" campaign start "$D/lab.yaml" --boots 1 --lava http://127.0.0.1:9/ --device-type qemu \
		--lava-token-file "$D/token"
	refused 2 "can be read by others" "chmod 600 $D/token"
	[ ! -e "$STORE" ]
	# the token is never printed
	[[ "$stderr" != *a-token* ]]
}
