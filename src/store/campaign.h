/* store/campaign: a campaign's state in the store (its plan, order and each boot's progress), so any controller can pick it up. */
#ifndef CLEARPATH_STORE_CAMPAIGN_H
#define CLEARPATH_STORE_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* Campaign states: running until every boot is done, or one failed, or it was aborted. */
#define STORE_CAMPAIGN_RUNNING "running"
#define STORE_CAMPAIGN_DONE "done"
#define STORE_CAMPAIGN_FAILED "failed"
#define STORE_CAMPAIGN_ABORTED "aborted"

/*
 * Boot states: pending (not started), booting (the boot method was
 * triggered; boot_before holds the boot id it left), measuring (the boot
 * was checked; its session runs), done (the session completed), error
 * (message says why; nothing was measured after the check failed).  A
 * boot that did not come up (the target came back under another kernel)
 * is pending again with failed_boots counted and message saying why.
 */
#define STORE_BOOT_PENDING "pending"
#define STORE_BOOT_BOOTING "booting"
#define STORE_BOOT_MEASURING "measuring"
#define STORE_BOOT_DONE "done"
#define STORE_BOOT_ERROR "error"

struct store_campaign {
	int64_t id;
	char status[16];
	char *plan;		/* the plan file, an absolute path */
	char *spec;		/* JSON object text: what the campaign was started with (core's business) */
	char *message;		/* why it failed or stopped, or NULL */
	char *owner;		/* the controller that holds it (campaign/'s token), or NULL */
	char *controller;	/* the host that started it, or NULL (a campaign from before) */
	char owner_since[STORE_TIME_LEN + 1];	/* when it last said so ("" none) */
	char created[STORE_TIME_LEN + 1];
	char updated[STORE_TIME_LEN + 1];
};

/* One boot of one target ("local", or a remote host), in the campaign's order. */
struct store_campaign_boot {
	char target[256];
	int pos;		/* 0-based place in the target's order */
	char swprofile[256];
	char status[16];
	char boot_before[64];	/* boot id before the boot method ran ("" unknown) */
	char boot_id[64];	/* boot id the check saw */
	char release[256];	/* kernel release the check saw */
	char session[STORE_UUID_LEN + 1];	/* the session measured under this boot, "" none */
	char message[1024];
	char started[STORE_TIME_LEN + 1];	/* when its boot method ran ("" not yet) */
	char finished[STORE_TIME_LEN + 1];	/* when it was done ("" not yet) */
	char held[512];		/* a session the target keeps until it is stored: its path there ("" none) */
	char release_before[256];	/* kernel release the boot method left ("" unknown) */
	int failed_boots;	/* its boots that did not come up (the target came back under another kernel) */
};

/*
 * One target of a campaign and the machine it is: a lab's campaigns share a
 * store, and a machine is in one running campaign at a time (another
 * machine's campaign runs beside it).  The executor kind names machines
 * ("local:HOST/SUT" for this machine, "ssh:HOST:PORT"...).
 */
struct store_campaign_target {
	int64_t campaign;	/* filled in by reads */
	char target[256];	/* as the boots name it ("local", "root@box1") */
	char machine[512];
	bool running;		/* filled in by reads */
	char controller[256];	/* filled in by reads: the host that started the campaign ("" not recorded) */
};

/*
 * Add a running campaign of @plan (absolute path) and @spec (JSON object
 * text) with its @n boots, all pending, and its @ntargets targets, started
 * from @controller (this host's name), in one transaction.  *@id is its id.
 * Returns 0, -EEXIST (not logged) when a machine of @targets is in a
 * running campaign already (*@busy its id, *@machine which machine, one
 * started at the same time too), or a store error.
 */
int store_campaign_create(struct store *st, const char *plan, const char *spec,
			  const struct store_campaign_boot *boots, size_t n,
			  const struct store_campaign_target *targets, size_t ntargets, const char *controller,
			  int64_t *id, struct store_campaign_target *busy);

/*
 * Every target of every campaign, newest campaign first (only those of
 * running campaigns with @running_only), into the new array *@out of *@n
 * (free() it).  A store older than campaigns has none.  0 or a store error.
 */
int store_campaign_targets(struct store *st, bool running_only, struct store_campaign_target **out, size_t *n);

/*
 * Read campaign @id (0: the most recent one) into @c and its boots, ordered
 * by target then position, into the new array *@boots of *@n (free() it).
 * Returns 0, -ENOENT (not logged) when there is no such campaign, -EBADMSG
 * (logged) when a row does not fit what a campaign can be (a text longer
 * than its field, a position out of range: written by hand), or a store
 * error.  Free @c's strings with store_campaign_free().
 */
int store_campaign_get(struct store *st, int64_t id, struct store_campaign *c,
		       struct store_campaign_boot **boots, size_t *n);


/*
 * Set campaign @id's status and message (NULL: none) when it is still
 * running; its machines are free for another campaign then.  Returns 0,
 * -ESTALE (not logged) when it no longer was running, or a store error.
 */
int store_campaign_finish(struct store *st, int64_t id, const char *status, const char *message);

/*
 * Campaign @id is held by @owner from now on, if it runs and is held by
 * @expected (NULL: by nobody) or already by @owner; @owner NULL lets it go.
 * At each step the holder says so again (owner_since), which also tells it
 * whether it still holds a running campaign.  0, -ESTALE (not logged) when
 * the campaign no longer runs, -EBUSY (not logged) when someone else holds
 * it, or a store error.
 */
int store_campaign_hold(struct store *st, int64_t id, const char *expected, const char *owner);

/*
 * @owner still holds campaign @id: say so (owner_since) and read its status
 * into @status.  0, -EBUSY (not logged) when @owner no longer holds it,
 * -ENOENT when there is no such campaign, or a store error.
 */
int store_campaign_holding(struct store *st, int64_t id, const char *owner, char *status, size_t len);

/* Write boot @b (found by target and pos) of campaign @id.  0, -ENOENT, or a store error. */
int store_campaign_boot_set(struct store *st, int64_t id, const struct store_campaign_boot *b);

/*
 * The newest complete session measured under boot id @boot_id for swprofile
 * @swprofile, into @uuid; *@interrupted says whether an incomplete one is
 * there too.  0, -ENOENT (not logged) when no complete one is, or a store
 * error.
 */
int store_campaign_session_of_boot(struct store *st, const char *boot_id, const char *swprofile,
				   char uuid[STORE_UUID_LEN + 1], bool *interrupted);

/*
 * How many sessions campaign @id's sessions left interrupted (not complete:
 * their boot was taken again), into *@n.  0 or a store error.
 */
int store_campaign_incomplete(struct store *st, int64_t id, int64_t *n);

/* The id of the newest campaign older than @before (0: the newest of all) into *@id.  0, -ENOENT, or a store error. */
int store_campaign_before(struct store *st, int64_t before, int64_t *id);

/* Free what store_campaign_get() put in @c. */
void store_campaign_free(struct store_campaign *c);

#endif
