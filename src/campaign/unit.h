/* unit: the systemd unit that runs `campaign continue` after each boot of a local campaign. */
#ifndef CLEARPATH_CAMPAIGN_UNIT_H
#define CLEARPATH_CAMPAIGN_UNIT_H

#include <stdbool.h>

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

/* Disable and remove the unit (missing is fine), or for a dry run print what that does.  0 or an exit code. */
int campaign_unit_remove(const struct campaign *c);

/* Whether the unit is installed. */
bool campaign_unit_installed(void);

#endif
