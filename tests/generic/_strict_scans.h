#define _GNU_SOURCE
/* strict_string_checks_scans*.c: the span, search, case-blind and
 * tokenizing calls, each on an unterminated "12ab" in a 4-byte heap object
 * that the call reads only as far as "1" or "12". */
#include <strings.h>

#include "kasan_test.h"

/* Not literals: clang turns strpbrk(s, "2") into strchr and the like. */
static const char *volatile set1 = "1", *volatile set2 = "2", *volatile setx = "x";

static char *scan_unterminated(void)
{
	char *b = malloc(4);
	memcpy(b, "12ab", 4);
	OPTIMIZER_HIDE_VAR(b);
	return b;
}

KASAN_TEST size_t strict_strspn(const char *b)
{
	size_t r = strspn(b, set1); /* stops at '2' */
	OPTIMIZER_HIDE_VAR(r); /* not a tail call: the title names this function */
	return r;
}

KASAN_TEST size_t strict_strcspn(const char *b)
{
	size_t r = strcspn(b, set2);
	OPTIMIZER_HIDE_VAR(r); /* not a tail call: the title names this function */
	return r;
}

KASAN_TEST const char *strict_strpbrk(const char *b)
{
	const char *r = strpbrk(b, set2);
	OPTIMIZER_HIDE_VAR(r); /* not a tail call: the title names this function */
	return r;
}

KASAN_TEST const char *strict_strcasestr(const char *b)
{
	const char *r = strcasestr(b, set1);
	OPTIMIZER_HIDE_VAR(r); /* not a tail call: the title names this function */
	return r;
}

KASAN_TEST int strict_strncasecmp(const char *b)
{
	int r = strncasecmp(b, setx, 10); /* differs at the first byte */
	OPTIMIZER_HIDE_VAR(r); /* not a tail call: the title names this function */
	return r;
}

KASAN_TEST const char *strict_strtok(char *b)
{
	return strtok(b, set1); /* its token: ",," */
}

static int strict_scans_run(void)
{
	char *b = scan_unterminated();
	size_t n = strict_strspn(b) + strict_strcspn(b);
	const char *p = strict_strpbrk(b), *q = strict_strcasestr(b);
	int c = strict_strncasecmp(b);
	printf("%zu %s %s %s\n", n, p == b + 1 ? "found" : "not found",
	       q == b ? "found" : "not found", c < 0 ? "less" : "not less");
	fflush(stdout);
	free(b);
	char *t = malloc(4);
	memcpy(t, "1,,x", 4);
	OPTIMIZER_HIDE_VAR(t);
	t[3] = 0;
	const char *tok = strict_strtok(t);
	printf("token %s\n", tok ? tok : "(none)");
	free(t);
	return 0;
}
