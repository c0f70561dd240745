// MODE: generic
// VARIANTS: gcc clang
// RUN: kasan.stats=1
// Keeping freed large objects warm (issue 25) must not keep their shadow
// for ever: after ukasan_purge(), kasan.stats shows resident shadow of at
// most an eighth of the memory it tracks plus 4 MiB (shadow comes in whole
// pages and covers stacks and globals too), and no freed large object
// kept warm ("freed and not yet purged"). 96 MiB of large objects of
// different sizes, every page written, are live at once, then freed; a
// few stay live. The statistics are printed into a file and read back.
// STDOUT: shadow after purge: ok
// NOT: BUG: KASAN
#include "kasan_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ukasan.h>

void __asan_print_accumulated_stats(void);

enum { N = 192, KEEP = 8 };

static long field(const char *text, const char *name)
{
	const char *p = strstr(text, name);
	return p ? atol(p + strlen(name)) : -1;
}

int main(void)
{
	static char *objs[N];
	for (int i = 0; i < N; i++) {
		size_t size = (size_t)(i % 16 + 1) * 64 * 1024 - (size_t)i * 8;
		objs[i] = malloc(size);
		for (size_t k = 0; k < size; k += 4096)
			objs[i][k] = (char)k;
	}
	for (int i = KEEP; i < N; i++)
		free(objs[i]);
	ukasan_purge();

	FILE *tmp = tmpfile();
	int saved = dup(2);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	__asan_print_accumulated_stats();
	dup2(saved, 2);
	static char text[8192];
	rewind(tmp);
	text[fread(text, 1, sizeof(text) - 1, tmp)] = 0;
	fputs(text, stderr);
	long tracked = field(text, "tracked memory:");
	long shadow = field(text, "KasanShadow (resident):");
	long warm = field(text, "kB free (");
	printf("tracked %ld kB, resident shadow %ld kB, warm %ld kB\n", tracked, shadow, warm);
	if (tracked < 0 || shadow < 0 || warm < 0)
		kasan_test_fail("no kasan.stats figures");
	else if (warm != 0)
		kasan_test_fail("ukasan_purge() left freed large objects warm");
	else if (shadow > tracked / 8 + 4096)
		kasan_test_fail("resident shadow over 1/8 of tracked memory + 4 MiB after ukasan_purge()");
	else
		printf("shadow after purge: ok\n");
	return 0;
}
