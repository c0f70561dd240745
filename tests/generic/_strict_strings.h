/* The calls of strict_string_checks*.c: each on an unterminated "12ab" in a
 * 4-byte heap object, read by the call only as far as "12a" (or less). */
#include "kasan_test.h"

/* The terminator the check will find: past the object, where instrumented
 * code may not look. */
static __attribute__((no_sanitize("kernel-address", "address"), noinline)) size_t
raw_len(const char *s)
{
	size_t n = 0;
	while (((const volatile char *)s)[n])
		n++;
	return n;
}

static int strict;

static void expect_read(const char *fn, const char *b)
{
	if (!strict)
		return;
	printf("EXPECT: BUG: KASAN: slab-out-of-bounds in %s+0x\n", fn);
	printf("EXPECT: Read of size %zu at addr %016lx by task ", raw_len(b) + 1,
	       (unsigned long)b);
	printf("\n");
	fflush(stdout);
}

static char *unterminated(void)
{
	char *b = malloc(4);
	memcpy(b, "12ab", 4);
	OPTIMIZER_HIDE_VAR(b);
	return b;
}

KASAN_TEST long strict_strtol(const char *b)
{
	expect_read("strict_strtol", b);
	long v = strtol(b, NULL, 10);
	KASAN_BARRIER();
	return v;
}

KASAN_TEST int strict_atoi(const char *b)
{
	expect_read("strict_atoi", b);
	int v = atoi(b);
	KASAN_BARRIER();
	return v;
}

KASAN_TEST const char *strict_strchr(const char *b)
{
	expect_read("strict_strchr", b);
	const char *r = strchr(b, '2');
	KASAN_BARRIER();
	return r;
}

KASAN_TEST int strict_strcmp(const char *b)
{
	expect_read("strict_strcmp", b);
	int r = strcmp(b, "x");
	KASAN_BARRIER();
	return r;
}

static int strict_strings_run(int on)
{
	strict = on;
	char *b = unterminated();
	long v = strict_strtol(b);
	int a = strict_atoi(b);
	const char *r = strict_strchr(b);
	kasan_int_result = strict_strcmp(b);
	printf("%ld %d %s\n", v, a, r == b + 1 ? "found" : "not found");
	free(b);
	return 0;
}
