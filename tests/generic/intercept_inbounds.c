// MODE: generic
// RUN: kasan_multi_shot
// The wide-character, printf-family and I/O calls exactly in bounds: each
// touches the last byte of its object and no more, and nothing is reported.
// fortify_inbounds.c runs the same calls fortified.
// NOT: BUG: KASAN
// STDOUT: in bounds: ok
#include "kasan_test.h"

#include <fcntl.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <wchar.h>

static int vfmt(char *d, size_t n, const char *fmt, ...)
{
	va_list ap, aq;
	va_start(ap, fmt);
	va_copy(aq, ap);
	int r = vsnprintf(d, n, fmt, ap) + vsprintf(d, fmt, aq);
	va_end(aq);
	va_end(ap);
	return r;
}

KASAN_TEST void intercept_inbounds(void)
{
	size_t n = 8, w = sizeof(wchar_t);
	char *d = malloc(n), *s = malloc(n);
	wchar_t *wd = malloc(n * w), *ws = malloc(n * w);
	int zero = open("/dev/zero", O_RDONLY), sv[2], ok = 1;
	FILE *fz = fopen("/dev/zero", "r");

	if (zero < 0 || !fz || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		kasan_test_fail("cannot open /dev/zero or a socket pair");
#ifndef _FORTIFY_SOURCE /* fortified, the sizes must be known to be passed on */
	OPTIMIZER_HIDE_VAR(d);
	OPTIMIZER_HIDE_VAR(s);
	OPTIMIZER_HIDE_VAR(wd);
	OPTIMIZER_HIDE_VAR(ws);
#endif
	OPTIMIZER_HIDE_VAR(n);
	memcpy(s, "abcdefg", n); /* 7 and the terminator */
	memmove(d, s, n);
	memset(d, 0, n);
	strcpy(d, s);
	stpcpy(d, s);
	strncpy(d, s, n);
	d[0] = 0;
	strcat(d, s);
	d[4] = 0;
	strncat(d, s + 4, n);
	ok &= !strcmp(d, "abcdefg");
	wmemcpy(ws, L"abcdefg", n);
	wmemmove(wd, ws, n);
	wmemset(wd, L'x', n);
	wcscpy(wd, ws);
	wcsncpy(wd, ws, n);
	wd[0] = 0;
	wcscat(wd, ws);
	wd[4] = 0;
	wcsncat(wd, ws + 4, n);
	ok &= wcslen(wd) == 7 && wcsnlen(wd, n) == 7 && !wcscmp(wd, ws) && !wcsncmp(wd, ws, n);
	ok &= wcschr(wd, L'g') == wd + 6 && !wcschr(wd, L'z') && wcsrchr(wd, L'a') == wd;
	ok &= wmemchr(wd, 0, n) == wd + 7 && !wmemcmp(wd, ws, n);
	wchar_t *wdup = wcsdup(ws);
	ok &= wdup && !wcscmp(wdup, ws);
	free(wdup);
	ok &= snprintf(d, n, "%s", "0123456789") == 10 && !strcmp(d, "0123456");
	ok &= sprintf(d, "%d", 1234567) == 7 && !strcmp(d, "1234567");
	ok &= vfmt(d, n, "%s", "abcdefg") == 14 && !strcmp(d, "abcdefg");
	ok &= read(zero, d, n) == (ssize_t)n && pread(zero, d, n, 0) == (ssize_t)n;
	send(sv[1], s, n, 0);
	send(sv[1], s, n, 0);
	ok &= recv(sv[0], d, n, 0) == (ssize_t)n;
	ok &= recvfrom(sv[0], d, n, 0, NULL, NULL) == (ssize_t)n;
	ok &= fread(d, 1, n, fz) == n && fgets(d, (int)n, fz) == d;
	printf("in bounds: %s\n", ok ? "ok" : "WRONG RESULTS");
	fclose(fz);
	close(zero);
	close(sv[0]);
	close(sv[1]);
	free(d);
	free(s);
	free(wd);
	free(ws);
}

int main(void)
{
	intercept_inbounds();
	return 0;
}
