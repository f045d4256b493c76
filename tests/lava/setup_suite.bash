# setup_suite.bash: one throwaway LAVA lab (two qemu devices) and the two Debian kernels with their initramfs, for every suite of tests/lava/.

load helpers

setup_suite() {
	cd "$LAVA_TOP"
	timed kernels+initramfs lava_kernels
	timed lab-start lab_start 2
	export RELEASE_1 RELEASE_2 KERNEL_1 KERNEL_2 INITRD_1 INITRD_2
}

teardown_suite() {
	lab_stop
}
