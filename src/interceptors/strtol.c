/* String-to-number conversions: the string as far as the conversion read
 * it (the first byte it did not take included), or with ASan's
 * strict_string_checks (kasan.strict_string_checks) to its terminator,
 * which a buffer that happens to stop early on a non-digit need not have. */
#include <stdlib.h>

#include "io.h"

LIBC(strtol)
LIBC(strtoll)
LIBC(strtoul)
LIBC(strtoull)

/* What the conversion read: up to end, and when it converted nothing (end
 * is the string's start) the blanks and sign it skipped all the same. */
static size_t read_len(const char *s, const char *end)
{
	if (end == s) {
		while (*end == ' ' || (*end >= '\t' && *end <= '\r'))
			end++;
		if (*end == '+' || *end == '-')
			end++;
	}
	return (size_t)(end - s) + 1;
}

/* end NULL: the conversion set none, as glibc's does not for a base it
 * refuses (it reads nothing then). */
static void check_number(const char *s, const char *end, uintptr_t ip)
{
	size_t n = end ? read_len(s, end) : 0;
	if (__ukasan_strict_string_checks) {
		size_t k = n ? n - 1 : 0;
		while (s[k])
			k++;
		n = k + 1;
	}
	if (n)
		check_range((uintptr_t)s, n, 0, ip);
}

#define STRTO(type, name)                                                                          \
	INTERPOSER type name(const char *s, char **endp, int base)                                 \
	{                                                                                          \
		char *end = NULL;                                                                  \
		type v = get_##name()(s, &end, base);                                              \
		check_number(s, end, RET_IP);                                                      \
		if (endp && end)                                                                   \
			*endp = end;                                                               \
		return v;                                                                          \
	}

STRTO(long, strtol)
STRTO(long long, strtoll)
STRTO(unsigned long, strtoul)
STRTO(unsigned long long, strtoull)

#define ATO(type, name, conv)                                                                      \
	INTERPOSER type name(const char *s)                                                        \
	{                                                                                          \
		char *end;                                                                         \
		type v = (type)get_##conv()(s, &end, 10);                                          \
		check_number(s, end, RET_IP);                                                      \
		return v;                                                                          \
	}

ATO(int, atoi, strtol)
ATO(long, atol, strtol)
ATO(long long, atoll, strtoll)
