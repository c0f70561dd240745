/* C code for check_dwarf_lines: loops, a switch, a header's inline
 * function, code in a sub-directory's header. */
#include <stdlib.h>
#include <string.h>

#include "_dwarf_subject.h"

static int table[64];

static __attribute__((noinline)) int pick(int n)
{
	switch (n & 7) {
	case 0:
		return table[n & 63];
	case 1:
		return mix(n, 3);
	case 2:
	case 3:
		return TWICE(n);
	default:
		return n - 1;
	}
}

int subject(int n)
{
	int s = 0;
	char *p = malloc((size_t)n + 16);
	if (!p)
		return 0;
	memset(p, n, (size_t)n + 16);
	for (int i = 0; i < n * 4; i++) {
		s += pick(i) + mix(s, p[i % n]);
		if (s > 100000)
			s /= 3;
	}
	free(p);
	return s;
}
