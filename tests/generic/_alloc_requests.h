/* Requests no allocator can meet, each printed with what it returned:
 * shared by alloc_requests.c (reported) and alloc_requests_null.c
 * (allocator_may_return_null: refused quietly). */
#include "kasan_test.h"

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* clang takes malloc for a function that writes no memory the program
 * sees, errno included: the barrier makes it read errno again. */
static void said(const char *what, void *p)
{
	KASAN_BARRIER();
	printf("%s: %s, %s\n", what, p ? "not NULL" : "NULL",
	       errno == ENOMEM ? "ENOMEM" : errno == EINVAL ? "EINVAL" : "other errno");
	fflush(stdout);
	errno = 0;
}

KASAN_TEST void requests(void)
{
	volatile size_t huge = (1ul << 40) + 1, minus1 = SIZE_MAX, half = SIZE_MAX / 2;
	volatile size_t three = 3, four = 4;
	void *volatile p;
	errno = 0;
	p = calloc(minus1, 1000);
	said("calloc(-1, 1000)", p);
	p = malloc(huge);
	said("malloc(2^40+1)", p);
	p = reallocarray(NULL, half, 3);
	said("reallocarray overflow", p);
	p = pvalloc(minus1 - 100);
	said("pvalloc overflow", p);
	void *out = NULL;
	int rc = posix_memalign(&out, three, 10);
	printf("posix_memalign(3): %s, errno kept: %s\n", rc == EINVAL ? "EINVAL" : "other",
	       errno == 0 ? "yes" : "no");
	rc = posix_memalign(&out, four, 16);
	printf("posix_memalign(4): %s\n", rc == EINVAL ? "EINVAL" : "other");
	p = aligned_alloc(three, 12);
	said("aligned_alloc(3)", p);
	p = memalign(three, 10);
	said("memalign(3)", p);
	/* The program runs on: a good request still works. */
	p = malloc(100);
	printf("malloc(100): %s\n", p ? "ok" : "NULL");
	free(p);
}

int main(void)
{
	requests();
	return 0;
}
