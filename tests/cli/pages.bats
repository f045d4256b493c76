#!/usr/bin/env bats
# pages.bats: base and huge page sizes read from the machine (fixtures: a 64KB-page AmpereOne-like arm64, a 16KB-page arm64, the x86 VM).

bats_require_minimum_version 1.5.0
load helpers

setup() {
	cd "$BATS_TEST_DIRNAME/../.."
	CP=${CLEARPATH:-./clearpath}
	FIX=$PWD/tests/fixtures
	P=$BATS_TEST_TMPDIR
	unset CLEARPATH_SYSROOT
}

@test "-p 4KB on a 64KB-page kernel is refused with the reason and the sizes it offers" {
	CLEARPATH_SYSROOT=$FIX/arm64-64k run --separate-stderr "$CP" bench mem mmap -p 4KB -s 1MB
	refused 3 "this run needs 4KB pages, but this kernel's base page is 64KB" \
		"use a size this kernel offers: 64KB (base), 2MB, 512MB, 16GB"
	CLEARPATH_SYSROOT=$FIX/arm64-16k run --separate-stderr "$CP" bench mem memset -p 4KB -s 1MB
	refused 3 "this kernel's base page is 16KB" "16KB (base), 2MB, 32MB, 1GB"
}

@test "-p takes the base page the kernel states, not 4KB by assumption" {
	CLEARPATH_SYSROOT=$FIX/arm64-64k run --separate-stderr "$CP" bench mem mmap -p 64KB -s 1MB -f demand
	[ "$status" -eq 0 ]
	[[ "$output" == *"bench mem mmap"* || "$output" == *"demand"* ]]
	# clear's default extent is one base page, and its note names the base page
	CLEARPATH_SYSROOT=$FIX/arm64-64k run --separate-stderr "$CP" bench mem clear -p 64KB -s 1MB -f default
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"# 64KB pages, 64KB extents"* ]]	# the note, on stderr
	CLEARPATH_SYSROOT=$FIX/arm64-16k run --separate-stderr "$CP" bench mem memset -p 16KB -k 16KB -s 1MB -f default
	[ "$status" -eq 0 ]
	# the same size is a hugetlb size on x86's 4KB kernel, which cannot have it
	CLEARPATH_SYSROOT=$FIX/vm-x86 run --separate-stderr "$CP" bench mem mmap -p 64KB -s 1MB -f demand
	refused 3 "needs 64KB pages, which an x86-64 kernel with 4KB base pages cannot offer" "4KB (base), 2MB, 1GB"
}

@test "hugetlb sizes come from the kernel: offered ones are judged by their pool, others refused with the list" {
	# 64KB granule: 2MB, 512MB, 16GB; 1GB cannot exist there
	CLEARPATH_SYSROOT=$FIX/arm64-64k run --separate-stderr "$CP" bench mem mmap -p 1GB -s 1GB
	refused 3 "needs 1GB pages, which an arm64 kernel with 64KB base pages cannot offer" \
		"64KB (base), 2MB, 512MB, 16GB"
	CLEARPATH_SYSROOT=$FIX/arm64-64k run --separate-stderr "$CP" bench mem mmap -p 16GB -s 16GB
	refused 3 "needs 1 free 16GB hugetlb pages, but 0 of 0 are free" \
		"echo 1 > /sys/kernel/mm/hugepages/hugepages-16777216kB/nr_hugepages" "hugepagesz=16G"
	CLEARPATH_SYSROOT=$FIX/arm64-64k run --separate-stderr "$CP" bench mem memset -p 512MB -s 4GB
	refused 3 "needs 8 free 512MB hugetlb pages, but 4 of 4 are free" \
		"echo 8 > /sys/kernel/mm/hugepages/hugepages-524288kB/nr_hugepages"
	# 16KB granule: 2MB, 32MB, 1GB; 16GB is another granule's size
	CLEARPATH_SYSROOT=$FIX/arm64-16k run --separate-stderr "$CP" bench mem mmap -p 16GB -s 16GB
	refused 3 "which an arm64 kernel with 16KB base pages cannot offer" "16KB (base), 2MB, 32MB, 1GB"
	CLEARPATH_SYSROOT=$FIX/arm64-16k run --separate-stderr "$CP" bench mem mmap -p 32MB -s 64MB
	refused 3 "needs 2 free 32MB hugetlb pages, but 0 of 0 are free"
}

@test "a size that is no page size anywhere is a usage error naming this kernel's sizes" {
	CLEARPATH_SYSROOT=$FIX/arm64-64k run --separate-stderr "$CP" bench mem mmap -p 3MB -s 6MB
	refused 2 "3MB is no page size Linux offers; this kernel offers 64KB (base), 2MB, 512MB, 16GB"
	CLEARPATH_SYSROOT=$FIX/vm-x86 run --separate-stderr "$CP" bench mem mmap -p 8KB -s 1MB
	refused 2 "this kernel offers 4KB (base), 2MB, 1GB"
}

@test "doctor on a 64KB-page kernel lists its pools and says why there is no 1GB pool" {
	CLEARPATH_SYSROOT=$FIX/arm64-64k run "$CP" doctor
	[ "$status" -eq 0 ]
	output=$(unwrapped "$output")	# doctor wraps at 100 columns
	[[ "$output" == *"-p 64KB results are 64KB faults"* ]]
	[[ "$output" == *"PASS  hugetlb.512MB        total 4, free 4: -p 512MB runs can use up to 4 pages"* ]]
	[[ "$output" == *"PASS  hugetlb.16GB         total 0, free 0"* ]]
	[[ "$output" == *"WARN  hugetlb.1GB-support  not offered: this kernel has 64KB base pages, whose hugetlb sizes are 2MB, 512MB and 16GB"* ]]
	CLEARPATH_SYSROOT=$FIX/arm64-16k run "$CP" doctor --hugepages 32MB:2
	[ "$status" -eq 3 ]
	output=$(unwrapped "$output")
	[[ "$output" == *"FAIL  hugetlb.32MB         total 0, free 0: the runs need 2 free 32MB pages"* ]]
	[[ "$output" == *"echo 2 > /sys/kernel/mm/hugepages/hugepages-32768kB/nr_hugepages"* ]]
	[[ "$output" == *"PASS  hugetlb.1GB-support  supported"* ]]
}

@test "plan fit checks and --scale auto use the same page facts" {
	cat > "$P/arm.yaml" <<-'YAML'
	benchmarks:
	  - mem mmap -p 512MB -f demand -s 8GB
	  - mem mmap -p 64KB -f demand -s 1TB
	YAML
	# 4 free 512MB pages and 500GB available: 1/4 fits both (8GB is 16 pages, 2GB is 4)
	CLEARPATH_SYSROOT=$FIX/arm64-64k run "$CP" plan show --scale auto "$P/arm.yaml"
	[ "$status" -eq 0 ]
	echo "$output" | grep -F 'sizes divided by 4 to fit this machine'
	echo "$output" | grep -E '^ +1  mem mmap -p 512MB -f demand -s 2GB '
	echo "$output" | grep -E '^ +2  mem mmap -p 64KB -f demand -s 256GB '
	# the same plan on x86: 512MB and 64KB pages do not exist there, at any scale
	CLEARPATH_SYSROOT=$FIX/vm-x86 run "$CP" plan show --scale auto "$P/arm.yaml"
	[ "$status" -eq 3 ]
	echo "$output" | grep -F 'it needs page sizes this kernel does not offer'
	echo "$output" | grep -F "needs 512MB pages, which an x86-64 kernel with 4KB base pages cannot offer"
	# a 4KB plan on the 64KB kernel is refused, not scaled
	printf 'benchmarks:\n  - mem mmap -p 4KB -f demand -s 1GB\n' > "$P/x86.yaml"
	CLEARPATH_SYSROOT=$FIX/arm64-64k run "$CP" plan show "$P/x86.yaml"
	echo "$output" | grep -F "warning: benchmark 'mmap -p 4KB -f demand -s 1GB' needs 4KB pages, but this kernel's base page is 64KB"
}

@test "the swprofile records the base page the kernel uses" {
	CLEARPATH_SYSROOT=$FIX/arm64-64k run --separate-stderr "$CP" run --quiet --store "$P/s.db" --swprofile k64 \
		--warmups 0 --repeats 1 -- mem mmap -p 64KB -s 1MB -f demand
	[ "$status" -eq 0 ]
	run python3 -c "import sqlite3, json; print(json.loads(sqlite3.connect('$P/s.db').execute(\"SELECT fingerprint FROM swprofile WHERE name = 'k64'\").fetchone()[0])['base_page'])"
	[ "$output" = 65536 ]
}

@test "THP has the kernel's PMD size: --backing thp refuses another size, naming the one it has" {
	CLEARPATH_SYSROOT=$FIX/arm64-64k run --separate-stderr "$CP" bench mem clear -p 2MB --backing thp -s 4MB -f default
	refused 3 "this kernel's transparent huge pages are 512MB, not 2MB" "use -p 512MB with THP"
	CLEARPATH_SYSROOT=$FIX/arm64-16k run --separate-stderr "$CP" bench mem clear -p 2MB --backing thp -s 4MB -f default
	refused 3 "this kernel's transparent huge pages are 32MB, not 2MB"
	run --separate-stderr "$CP" bench mem clear -p 1GB --backing thp -s 1GB -f default
	refused 2 "THP cannot back pages of 1GB or more"
}

@test "a plan's requires names hugetlb sizes some machine has, not any size above 4KB" {
	printf 'requires: {hugepages: {16KB: 2}}\nbenchmarks:\n  - mem memset -s 1MB -f default\n' > "$P/req.yaml"
	run "$CP" plan validate "$P/req.yaml"
	[ "$status" -eq 2 ]
	echo "$output" | grep -F "hugepage size '16KB' is not a huge page size such as 2MB or 1GB"
	printf 'requires: {hugepages: {512MB: 2}}\nbenchmarks:\n  - mem memset -s 1MB -f default\n' > "$P/req.yaml"
	run "$CP" plan validate "$P/req.yaml"
	[ "$status" -eq 0 ]
}

@test "a kernel without MemAvailable: plan and workload apply the same rule (run, unchecked, with a warning)" {
	printf 'defaults: {warmups: 0, repeats: 1, sessions: 1}\nbenchmarks:\n  - mem memset -s 1MB -f default\n' > "$P/tiny.yaml"
	CLEARPATH_SYSROOT=$FIX/old-arm64 run --separate-stderr "$CP" plan run --quiet --store "$P/t.db" "$P/tiny.yaml"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"cannot read MemAvailable from /proc/meminfo; not checking the size"* ]]
	CLEARPATH_SYSROOT=$FIX/old-arm64 run --separate-stderr "$CP" bench mem memset -s 1MB -f default
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"not checking the size"* ]]
}
