/* Helpers for KFENCE tests, as the kernel's kfence_test.c: allocate until an
 * object is guarded and placed on the wanted side of its page. */
#ifndef KFENCE_TEST_H
#define KFENCE_TEST_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ukasan.h"

enum placement { ANY, LEFT, RIGHT };

/* Expectations only known at run time (addresses) go to stdout, where the
 * runner reads them. */
static inline void expect(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("EXPECT: ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
}

static inline int placed(void *p, size_t size, enum placement where)
{
	uintptr_t a = (uintptr_t)p;
	if (!ukasan_is_kfence_address || !ukasan_is_kfence_address(p))
		return 0;
	if (where == LEFT)
		return (a & 4095) == 0;
	if (where == RIGHT)
		return ((a + size + 15) & ~(uintptr_t)15) % 4096 == 0 && (a & 4095) != 0;
	return 1;
}

static inline void *test_alloc(size_t size, enum placement where)
{
	for (int i = 0; i < 10000; i++) {
		void *p = malloc(size);
		if (placed(p, size, where))
			return p;
		free(p);
	}
	fprintf(stderr, "test_alloc: no guarded allocation of %zu bytes\n", size);
	exit(99);
}

/* A read after free of a fresh guarded object: one KFENCE report, in
 * read_after_free. */
__attribute__((noinline, unused)) static char read_after_free(volatile char *p)
{
	return p[3];
}

__attribute__((unused)) static void report_use_after_free(void)
{
	char *p = (char *)test_alloc(16, ANY);
	free(p);
	read_after_free(p);
}

/* The process's resident memory, for the tests of what the pool keeps. */
/* Resident memory in KiB: all of it, or (anon) less the pages of files,
 * which the code a test runs for the first time brings in too. */
static inline long resident_kb_of(int anon)
{
	long size = 0, resident = 0, file = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f || fscanf(f, "%ld %ld %ld", &size, &resident, &file) != 3)
		exit(70);
	fclose(f);
	return (resident - (anon ? file : 0)) * (sysconf(_SC_PAGESIZE) / 1024);
}

static inline long resident_kb(void)
{
	return resident_kb_of(0);
}

#endif
