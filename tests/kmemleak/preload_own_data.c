// The runtime's own data is never a root, however a scanned range reaches
// it: kmemleak keeps each heap's bounds there, starting at its lowest
// object, and the main thread's TLS block, scanned whole, is sometimes
// mapped right after the runtime's .bss (a lost object was then kept, in
// about one run of twenty). Here the program registers the runtime's
// writable mappings as a root region, and loses its first object (the
// lowest one the registry holds, in a C program that allocates nothing
// before main): it is reported all the same.
// RUN: kmemleak=on kfence.sample_interval=0
// CFLAGS: -O1
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 72\):(\n.*){5,16}\n    \[<[0-9a-f]+>\] lose_first\+0x
// COUNT: 1 unreferenced object 0x
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

void __lsan_register_root_region(const void *p, size_t size) __attribute__((weak));

LEAK_TEST void lose_first(void)
{
	char *p = malloc(72);
	HIDE(p);
	memset(p, 1, 72);
}

/* The runtime's writable file mapping and the anonymous one right after
 * it (its .bss), registered as roots. */
static void register_runtime_data(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	uintptr_t prev_end = 0;
	int prev_ours = 0, n = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perms[8];
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
			continue;
		int ours = strstr(line, "libukasan") != NULL;
		int anon_after = !strchr(line, '/') && prev_ours && lo == prev_end;
		if (perms[1] == 'w' && (ours || anon_after)) {
			__lsan_register_root_region((void *)lo, hi - lo);
			n++;
		}
		prev_ours = ours;
		prev_end = hi;
	}
	if (f)
		fclose(f);
	if (!n) {
		fprintf(stderr, "no writable mapping of libukasan found\n");
		exit(3);
	}
}

int main(void)
{
	run_deep(lose_first);
	register_runtime_data();
	clear_stack();
	return 0;
}
