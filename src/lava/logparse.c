/* logparse: a LAVA job log as the server sends it (a YAML list of {dt, lvl, msg}) read line by line with libyaml. */
#include "lava/lava.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* The fields of the line being read; each malloc'd or NULL. */
struct lp_line {
	char *dt, *lvl, *msg;
};

static void lp_clear(struct lp_line *l)
{
	free(l->dt);
	free(l->lvl);
	free(l->msg);
	memset(l, 0, sizeof(*l));
}

/* Skip the value that starts with @ev (a mapping or sequence nested in a line, as results carry). */
static int lp_skip(yaml_parser_t *p, yaml_event_t *ev)
{
	int depth = ev->type == YAML_MAPPING_START_EVENT || ev->type == YAML_SEQUENCE_START_EVENT;

	while (depth) {
		yaml_event_t e;

		if (!yaml_parser_parse(p, &e))
			return -EINVAL;
		if (e.type == YAML_MAPPING_START_EVENT || e.type == YAML_SEQUENCE_START_EVENT)
			depth++;
		else if (e.type == YAML_MAPPING_END_EVENT || e.type == YAML_SEQUENCE_END_EVENT)
			depth--;
		else if (e.type == YAML_STREAM_END_EVENT)
			depth = 0;
		yaml_event_delete(&e);
	}
	return 0;
}

/* One line's mapping, after its MAPPING_START: its fields into @l.  0 or -EINVAL/-ENOMEM. */
static int lp_mapping(yaml_parser_t *p, struct lp_line *l)
{
	for (;;) {
		yaml_event_t k, v;
		char **field = NULL;
		int ret = 0;

		if (!yaml_parser_parse(p, &k))
			return -EINVAL;
		if (k.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&k);
			return 0;
		}
		if (k.type != YAML_SCALAR_EVENT) {
			yaml_event_delete(&k);
			return -EINVAL;
		}
		if (!strcmp((const char *)k.data.scalar.value, "dt"))
			field = &l->dt;
		else if (!strcmp((const char *)k.data.scalar.value, "lvl"))
			field = &l->lvl;
		else if (!strcmp((const char *)k.data.scalar.value, "msg"))
			field = &l->msg;
		yaml_event_delete(&k);
		if (!yaml_parser_parse(p, &v))
			return -EINVAL;
		if (v.type == YAML_SCALAR_EVENT) {
			if (field) {
				free(*field);
				if (!(*field = strndup((const char *)v.data.scalar.value, v.data.scalar.length)))
					ret = -ENOMEM;
			}
		} else if (v.type == YAML_MAPPING_START_EVENT || v.type == YAML_SEQUENCE_START_EVENT)
			ret = lp_skip(p, &v);
		else
			ret = -EINVAL;
		yaml_event_delete(&v);
		if (ret)
			return ret;
	}
}

int lava_log_parse(const char *text, size_t len, lava_line_fn fn, void *arg, size_t *n)
{
	yaml_parser_t p;
	struct lp_line l = { 0 };
	bool in_list = false, done = false;
	int ret = 0;

	*n = 0;
	if (!yaml_parser_initialize(&p))
		return -ENOMEM;
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (!ret && !done) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&p, &ev)) {
			ret = -EINVAL;
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_START_EVENT:
		case YAML_DOCUMENT_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_SEQUENCE_START_EVENT:
			if (in_list)
				ret = -EINVAL;
			in_list = true;
			break;
		case YAML_SEQUENCE_END_EVENT:
			in_list = false;
			break;
		case YAML_MAPPING_START_EVENT:
			if (!in_list) {
				ret = -EINVAL;
				break;
			}
			ret = lp_mapping(&p, &l);
			if (!ret) {
				struct lava_line line = { l.dt ? l.dt : "", l.lvl ? l.lvl : "", l.msg ? l.msg : "" };

				++*n;
				ret = fn(&line, arg);
			}
			lp_clear(&l);
			break;
		default:
			ret = -EINVAL;
		}
		yaml_event_delete(&ev);
	}
	lp_clear(&l);
	yaml_parser_delete(&p);
	return ret;
}
