/* fuzz_size: libFuzzer harness for size_parse() and the size_format() round trip. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1);
	char buf[64];
	uint64_t v, again;

	if (!s)
		return 0;
	memcpy(s, data, len);
	s[len] = '\0';
	/* What parses must print back to a string that parses to the same value. */
	if (!size_parse(s, &v)) {
		size_format(v, buf, sizeof(buf));
		if (size_parse(buf, &again) || again != v)
			abort();
	}
	free(s);
	return 0;
}
