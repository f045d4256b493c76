/* local: local mode's pieces beside its executor: the session command line and the systemd unit. */
#ifndef CLEARPATH_CAMPAIGN_LOCAL_H
#define CLEARPATH_CAMPAIGN_LOCAL_H

#include <stdbool.h>
#include <stddef.h>

struct campaign;

#define CAMPAIGN_UNIT_NAME "clearpath-campaign.service"
#define CAMPAIGN_UNIT_DIR "/etc/systemd/system"
/* Where the unit goes instead of CAMPAIGN_UNIT_DIR: tests point it at a directory of their own. */
#define CAMPAIGN_UNIT_DIR_ENV "CLEARPATH_SYSTEMD_DIR"

#define CAMPAIGN_SESSION_ARGC 12	/* campaign_session_argv()'s words, with the NULL */

/*
 * The command line of one session of @c's plan as @swprofile: "clearpath
 * plan run --sessions 1 --swprofile NAME [--store URL] PLAN" into @argv,
 * NULL-terminated (its strings are @c's and @swprofile).  Returns the number
 * of words.  Remote mode runs the same on a host, with a store of its own.
 */
int campaign_session_argv(const struct campaign *c, const char *swprofile,
			  const char *argv[CAMPAIGN_SESSION_ARGC]);

/* The path of the running binary into @buf.  0 or EXIT_INTERNAL after log_err(). */
int campaign_self_path(char *buf, size_t len);

/* The unit file's text for a campaign in the store at @store_url (absolute).  0 or an exit code. */
int campaign_unit_text(const char *store_url, char *buf, size_t len);

/*
 * Install and enable the unit (as `systemctl enable` would, without running
 * systemctl), or with @dry_run print what that writes.  An installed unit
 * is refused (EXIT_USAGE).  0 or an exit code after log_err().
 */
int campaign_unit_install(const char *store_url, bool dry_run);

/* Disable and remove the unit (missing is fine), or print what that does.  0 or an exit code. */
int campaign_unit_remove(bool dry_run);

/* Whether the unit is installed. */
bool campaign_unit_installed(void);

#endif
