/* lava: a LAVA lab's REST API (v0.2) over libcurl: credentials, submit, follow, read back and cancel jobs. */
#ifndef CLEARPATH_LAVA_LAVA_H
#define CLEARPATH_LAVA_LAVA_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The server is named by its base URL (http://lab:8000/, https://lava.example.org/;
 * lavacli's RPC2 form is taken too).  The API token comes from a file holding
 * it (--lava-token-file, readable by its owner only, as ssh keys are) or from
 * lavacli's identities file ($XDG_CONFIG_HOME/lavacli.yaml, else
 * ~/.config/lavacli.yaml): the identity named, or the one whose uri is this
 * server.  The token is sent in an Authorization header and is never put on
 * a command line, in a message or in the store.
 *
 * A token needs no more than its user may do: submit jobs to the device type
 * (LAVA lets any authenticated user submit to a device type that does not
 * restrict submission; a restricted one needs the submit permission on it),
 * read its own jobs, cancel them.  No staff, no superuser.
 *
 * Everything here returns 0 or an exit code after log_err() naming the server,
 * unless said otherwise: EXIT_USAGE for what the user gave (a bad URL, no
 * credentials, a job LAVA refuses), EXIT_RESOURCE when the server cannot be
 * reached or answers with an error (the caller may try again later),
 * EXIT_INTERNAL when out of memory.  Without libcurl (the static builds) every
 * call says clearpath was built without LAVA support (EXIT_USAGE).
 */

struct lava;

/* How the user said to authenticate: one of the two, or neither (look the server up in lavacli's file). */
struct lava_auth {
	const char *token_file;	/* a file whose first line is the token */
	const char *identity;	/* an identity of lavacli's identities file */
};

/*
 * Open a connection to the server at @url with @auth's credentials into *@out
 * (free with lava_close()); nothing is sent yet.
 */
int lava_open(const char *url, const struct lava_auth *auth, struct lava **out);
void lava_close(struct lava *l);
/* The server's base URL, normalised ("http://127.0.0.1:8000/"). */
const char *lava_url(const struct lava *l);

/* Whether clearpath was built with LAVA support (libcurl). */
bool lava_supported(void);

/*
 * The user's token for @url by @auth, into the malloc'd *@token (for
 * lava_open(), and for tests); 0 or an exit code after log_err().
 */
int lava_token(const char *url, const struct lava_auth *auth, char **token);

/* Ask the server who the token's user is (the token works): *@user malloc'd. */
int lava_whoami(struct lava *l, char **user);

/* Submit job @yaml: *@job its id. */
int lava_submit(struct lava *l, const char *yaml, long *job);

/* Check job @yaml with the server's own schema (strict): NULL when valid, else why, into @why. */
int lava_validate(struct lava *l, const char *yaml, char *why, size_t len, bool *valid);

/* Where a job is. */
enum lava_state {
	LAVA_SUBMITTED,		/* queued: no device yet */
	LAVA_SCHEDULED,		/* a device was picked, or it runs: Scheduling, Scheduled, Running */
	LAVA_CANCELING,
	LAVA_FINISHED,
};

enum lava_health {
	LAVA_UNKNOWN,		/* not finished */
	LAVA_COMPLETE,
	LAVA_INCOMPLETE,
	LAVA_CANCELED,
};

struct lava_job {
	long id;
	enum lava_state state;
	enum lava_health health;
	char device[256];	/* the device it runs on ("" none yet) */
	char name[512];		/* its job_name (the server's "description") */
	char failure[512];	/* the server's failure comment ("" none) */
};

/* Job @id's state. */
int lava_job_get(struct lava *l, long id, struct lava_job *j);

/*
 * The newest job of this user named exactly @name, into @j: 0, or -ENOENT
 * (not logged) when there is none, or an exit code after log_err().  A
 * controller that died between submitting a job and recording its id finds it
 * again this way instead of submitting it twice.
 */
int lava_job_find(struct lava *l, const char *name, struct lava_job *j);

/* Cancel job @id (a finished one stays as it is). */
int lava_cancel(struct lava *l, long id);

/* One line of a job's log. */
struct lava_line {
	const char *dt;		/* when, as the dispatcher stamped it */
	const char *lvl;	/* "target" for what the device printed; info, debug, results, ... */
	const char *msg;	/* the text ("" when the line carries a mapping, as results lines do) */
};

/* Called for each line of a log; non-zero stops the walk and is returned. */
typedef int (*lava_line_fn)(const struct lava_line *line, void *arg);

/*
 * The lines of job @id's log from line @start on, each to @fn, in order;
 * *@next: the index after the last line read (start there next time).
 */
int lava_log(struct lava *l, long id, size_t start, lava_line_fn fn, void *arg, size_t *next);

/*
 * Parse @text, a chunk of a job's log as the server sends it (a YAML sequence
 * of mappings dt, lvl, msg), calling @fn per line; *@n the lines seen.  0,
 * -EINVAL when it is not such a list (not logged), or what @fn returned.
 */
int lava_log_parse(const char *text, size_t len, lava_line_fn fn, void *arg, size_t *n);

/* How many devices of @device_type carrying every tag of @tags (NULL-terminated) are usable (not retired, not in maintenance or bad health), and how many exist. */
int lava_devices(struct lava *l, const char *device_type, const char *const *tags, size_t *usable, size_t *total);

#endif
