// MODE: generic
// RUN: kasan_multi_shot
// A base strtol refuses (1, or over 36): glibc reads nothing, sets EINVAL
// and leaves *endptr alone. The interceptor took the end pointer it had
// not set for how far the call read: an oops or a false out-of-bounds of
// a garbage size, and *endptr got the garbage. A clean program: no report,
// and the caller's endptr keeps its value.
// STDOUT: 0 22 kept
// NOT: BUG:
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *buf = malloc(8);
	strcpy(buf, "1234");
	char *end = buf + 7;
	errno = 0;
	long v = strtol(buf, &end, 1);
	long long w = strtoll(buf, NULL, 37);
	printf("%ld %d %s\n", v + (long)w, errno, end == buf + 7 ? "kept" : "changed");
	free(buf);
	return 0;
}
