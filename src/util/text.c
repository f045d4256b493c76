/* text: the one sanitiser for names printed to a terminal (tables, plan show, plan run, messages). */
#include "util/text.h"

#include <stdlib.h>
#include <string.h>

static int text_is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

char *text_one_line(char *s)
{
	for (char *p = s; *p; p++)
		if (text_is_control((unsigned char)*p))
			*p = ' ';
	return s;
}

char *text_one_line_dup(const char *s)
{
	char *d = strdup(s ? s : "");

	return d ? text_one_line(d) : NULL;
}
