/* text: names from plans, stores and commands made safe to print: no control character reaches a terminal. */
#ifndef CLEARPATH_UTIL_TEXT_H
#define CLEARPATH_UTIL_TEXT_H

/*
 * Turn every control character of @s (C0 and DEL: escape sequences, \r,
 * \n, bells; C1 controls such as U+009B, CSI; the bidi overrides and
 * isolates, which reorder what a terminal shows) and every byte that starts
 * no valid UTF-8 character into one space, in place, so a name prints as one
 * plain line and cannot move the cursor, recolour or retitle the terminal.
 * The string may get shorter.  Returns @s.
 */
char *text_one_line(char *s);

/* text_one_line() that keeps newlines and tabs: a quoted stderr tail keeps its lines. */
char *text_quoted_lines(char *s);

/* A text_one_line() copy of @s (NULL: ""), or NULL when out of memory. */
char *text_one_line_dup(const char *s);

#endif
