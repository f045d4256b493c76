/* target: is a campaign's target ready for its plan: memory and hugepages for the sessions, each boot method's prerequisites. */
#include "campaign/campaign.h"
#include "campaign/method.h"

#include "util/log.h"

int campaign_target_check(const struct plan *p, const struct campaign_target_env *env)
{
	int ret = plan_check(p, NULL), err;

	/* which machine comes first: the shortfalls after it are that machine's */
	if (ret == EXIT_RESOURCE) {
		env->say("the plan does not fit %s:", env->name);
		ret = plan_check(p, env->say);
	}
	if (ret && ret != EXIT_RESOURCE)
		return ret;
	err = campaign_methods_check(p, env);
	ret = ret ? ret : err;
	return env->dry_run ? 0 : ret;
}
