// RUN: kfence.sample_rate=1
// EXPECT: libgcc_s mapped: no
// EXPECT: BUG: KFENCE: out-of-bounds read in read_byte+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] read_byte\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/no_unwinder_library.c:\d+$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/no_unwinder_library.c:\d+$
// COUNT: 1 BUG: KFENCE:
/* The runtime unwinds every stack itself, fault traces included (from the
 * signal's registers): a C program that does not use libgcc's unwinder
 * does not get it loaded, its pages and its start-up cost, by ukasan. */
#include <string.h>

#include "kfence_test.h"

__attribute__((noinline)) char read_byte(volatile char *p)
{
	return *p;
}

static int libgcc_mapped(void)
{
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "/libgcc_s.so"))
			found = 1;
	if (f)
		fclose(f);
	return found;
}

int main(void)
{
	fprintf(stderr, "libgcc_s mapped: %s\n", libgcc_mapped() ? "yes" : "no");
	char *p = test_alloc(32, RIGHT);
	read_byte(p + 32);
	free(p);
	return 0;
}
