/* Fuzz target for c-ares's ares_create_query(): the input is the name to
 * encode as a DNS query. CVE-2016-5180: a name ending in an escaped dot
 * ("a\.") got a buffer one byte short. */
#include <ares.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = malloc(size + 1);
	if (!name)
		return 0;
	memcpy(name, data, size);
	name[size] = 0;
	unsigned char *buf = NULL;
	int buflen = 0;
	/* class IN (1), type A (1), query id 0x1234, recursion desired */
	if (ares_create_query(name, 1, 1, 0x1234, 1, &buf, &buflen, 0) == ARES_SUCCESS)
		ares_free_string(buf);
	free(name);
	return 0;
}
