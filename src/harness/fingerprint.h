/* fingerprint: describe the machine (SUT) and the software (swprofile) a session runs on. */
#ifndef CLEARPATH_HARNESS_FINGERPRINT_H
#define CLEARPATH_HARNESS_FINGERPRINT_H

#include <jansson.h>
#include <stddef.h>

/*
 * The SUT fingerprint: hostname, arch, CPU model (arm64: implementer/part),
 * cores, sockets, NUMA nodes, memory, DMI product name, virtualisation.
 * Writes the default class name (DMI product name, else the CPU model) to
 * @name.  Returns a new object (caller json_decref()s), NULL when out of memory.
 */
json_t *fp_sut(char *name, size_t len);

/*
 * The default class name alone into @name, as fp_sut() gives it: the DMI
 * product name, else the CPU model, read through util/sysfs's root (a
 * host's facts copied under a directory give that host's class).
 */
void fp_sut_class(char *name, size_t len);

/*
 * The swprofile fingerprint: kernel release and version, /proc/cmdline, THP
 * enabled/defrag, the hugetlb page sizes offered with their overcommit limits
 * (not the pools' page counts: live state, in the environment), libc version,
 * clearpath version.  Writes the default name (the kernel release) to @name.
 * Returns a new object, NULL when out of memory.
 */
json_t *fp_swprofile(char *name, size_t len);

/*
 * The environment snapshot stored with each session: {"settings": doctor's
 * snapshot (THP, governor, boost, hugepage pools, cmdline...), "doctor":
 * the checks run and their warnings (doctor_session_record(@doctor), whose
 * DOCTOR_SESSION_* bits say whether the session counts or profiles),
 * "loadavg", "mem_available"}.  Returns a new object, NULL when out of memory.
 */
json_t *fp_environment(unsigned doctor);

/* /proc/sys/kernel/random/boot_id into @buf ("" when unreadable). */
void fp_boot_id(char *buf, size_t len);

#endif
