/* unit: the systemd unit that runs `campaign continue` after each boot of a local campaign. */
#ifndef CLEARPATH_CAMPAIGN_UNIT_H
#define CLEARPATH_CAMPAIGN_UNIT_H

#include <stdbool.h>
#include <stdint.h>

struct campaign;

#define CAMPAIGN_UNIT_NAME "clearpath-campaign.service"
#define CAMPAIGN_UNIT_DIR "/etc/systemd/system"
/* Where the unit goes instead of CAMPAIGN_UNIT_DIR: tests point it at a directory of their own. */
#define CAMPAIGN_UNIT_DIR_ENV "CLEARPATH_SYSTEMD_DIR"

/*
 * Install and enable the unit for campaign @c (as `systemctl enable` would,
 * without running systemctl), or for a dry run (c->dry_run) print what that
 * writes.  An installed unit is refused (EXIT_USAGE).  0 or an exit code
 * after log_err().
 */
int campaign_unit_install(const struct campaign *c);

/*
 * Disable and remove the unit when it is campaign @c's (its id and store
 * are in it), or for a dry run print what that does.  Another campaign's
 * unit stays; one an older clearpath wrote, which names no campaign, goes
 * only with @legacy_too (an abort).  0 or an exit code after log_err().
 */
int campaign_unit_remove(const struct campaign *c, bool legacy_too);

/*
 * The campaign whose unit is installed: 0 with *@id and *@store (free() it)
 * set, -ENOENT when there is none, -EINVAL when it names no campaign (an
 * older clearpath's), or -errno.  Never follows a link.
 */
int campaign_unit_owner(int64_t *id, char **store);

/*
 * Remove the installed unit when it belongs to a campaign of the store at
 * @store_url that is no longer running (it ended from elsewhere); nothing
 * when the store or that campaign cannot be read (a store not up yet).
 * 0 or an exit code.
 */
int campaign_unit_tidy(const char *store_url);

/*
 * @s as one word of a unit's ExecStart=: double-quoted, with \ and "
 * escaped, % and $ doubled (systemd's specifiers and environment
 * substitution).  malloc'd; NULL with errno EINVAL when @s has a control
 * character (a line break would start a directive of its own), ENOMEM.
 */
char *campaign_unit_quote(const char *s);

#endif
