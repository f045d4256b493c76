/* ssh: what the ssh executor's files share (private to campaign/): a host's facts, read to check a plan against it. */
#ifndef CLEARPATH_CAMPAIGN_SSH_H
#define CLEARPATH_CAMPAIGN_SSH_H

#include <stdbool.h>

#include <stddef.h>

struct campaign;
struct plan;
struct remote_host;
struct store_campaign_boot;

/*
 * Copy what a plan's fit and a grub boot depend on from @h under the local
 * directory @dir, at the same paths, to read with util/sysfs's root there:
 * /proc/meminfo, the first CPU of /proc/cpuinfo, the base page (a line of
 * /proc/self/smaps), the hugetlb pools, THP, /etc/default/grub and
 * grub.d/NAME.cfg, the DMI product name (the host's SUT class).  Only read there (cat, sed, grep), under the host's
 * $CLEARPATH_SYSROOT when it sets one.  0, or an exit code after log_err().
 */
int campaign_ssh_facts_copy(const struct remote_host *h, const char *dir);

/*
 * campaign_target_check() of @p against @h's facts (campaign_ssh_facts_copy()
 * into a temporary directory, removed after): the plan fits the host's
 * memory and hugepages, its boot methods' prerequisites hold there.  0 or
 * an exit code after log_err(); *@reached (unless NULL): whether the facts
 * were read (false: the host could not be asked, and nothing was checked).
 * @sut (unless NULL): the SUT class the host's sessions are stored under,
 * from the same facts (fp_sut_class() there), into @sut_len bytes.
 */
int campaign_ssh_check(const struct remote_host *h, const struct plan *p, bool dry_run, bool *reached, char *sut,
		       size_t sut_len);

/*
 * Check the whole-form file @file a host handed back for boot @b of @c: it
 * must hold exactly one complete session, measured under the boot id just
 * checked (b->boot_id), filed under the boot's swprofile and under the
 * host's SUT class: that of its earlier sessions in @c, else @sut (read
 * from its facts before any session ran: the first one is checked too).
 * Anything else (a session added, relabelled, forged) refuses the file.  What is accepted, that one
 * session alone, is written to @out (a file in the private local directory
 * @dir, where a scratch store is made too).  0, or an exit code after log_err().
 */
int campaign_ssh_accept(const struct campaign *c, const struct store_campaign_boot *b, const char *sut,
			const char *file, const char *dir, char *out, size_t len);

#endif
