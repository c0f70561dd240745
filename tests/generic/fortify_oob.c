// MODE: generic
// RUN: kasan_multi_shot
// CFLAGS: -O2 -D_FORTIFY_SOURCE=2
// Fortified builds call __memcpy_chk, __strcpy_chk, __read_chk, __snprintf_chk
// and the like instead of the plain names (tests/tools/check_fortify.sh
// checks that this program does). glibc's own check there is only against
// the object size the compiler knows for the destination, so these calls
// get past it: copies from a source one byte too short (the destination is
// large and known), and writes into a freed object (its size is known and
// not exceeded). Each is reported as by its plain interceptor.
// EXPECT: BUG: KASAN: slab-out-of-bounds in fortify_oob+0x
// EXPECT-RE: ^Read of size 9 at addr [0-9a-f]{16} by task \S+/\d+$
// GCC checks the range of __memcpy_chk, __memmove_chk and __memset_chk
// itself, as it does for its other builtins, so with kasan_multi_shot those
// three are reported twice: once by its check, once by the interceptor
// (which clang's calls, and those from uninstrumented code, need).
// COUNT-GCC: 15 BUG: KASAN: slab-out-of-bounds in fortify_oob+0x
// COUNT-GCC: 13 BUG: KASAN: slab-use-after-free in fortify_oob+0x
// COUNT-GCC: 28 BUG: KASAN:
// COUNT-CLANG: 13 BUG: KASAN: slab-out-of-bounds in fortify_oob+0x
// COUNT-CLANG: 12 BUG: KASAN: slab-use-after-free in fortify_oob+0x
// COUNT-CLANG: 25 BUG: KASAN:
// STDOUT: all I/O failed with EFAULT
#include "kasan_test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <wchar.h>

__attribute__((no_sanitize("kernel-address"))) static void poke(char *p, char c)
{
	*(volatile char *)p = c;
}

KASAN_TEST void fortify_oob(int unused, ...)
{
	size_t n = 8, big = 64, w = sizeof(wchar_t);
	char *dst = malloc(big);
	wchar_t *wdst = malloc(big * w);
	char *src = malloc(n); int sline = __LINE__;
	wchar_t *wsrc = malloc(n * w); int wline = __LINE__;
	char *gone = malloc(16); int gline = __LINE__;
	wchar_t *wgone = malloc(16); int wgline = __LINE__;
	char *gone2 = gone;
	wchar_t *wgone2 = wgone;
	int zero = open("/dev/zero", O_RDONLY), sv[2];
	FILE *fz = fopen("/dev/zero", "r");
	int efault = 0, calls = 0;
	va_list ap, aq;

	if (zero < 0 || !fz || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		kasan_test_fail("cannot open /dev/zero or a socket pair");
	OPTIMIZER_HIDE_VAR(src);
	OPTIMIZER_HIDE_VAR(wsrc);
	OPTIMIZER_HIDE_VAR(n);
	OPTIMIZER_HIDE_VAR(gone2);
	OPTIMIZER_HIDE_VAR(wgone2);
	memset(src, 'a', n);
	wmemset(wsrc, L'a', n);
	dst[0] = 0;
	wdst[0] = 0;
#define SRC(expression, size_) KASAN_EXPECT_FAIL(expression, .type = "slab-out-of-bounds", .rw = "Read", .size = size_, .addr = src, .bad = src + 8, .obj = src, .obj_size = 8, .alloc_line = sline, .inlined = 1)
#define WSRC(expression, size_) KASAN_EXPECT_FAIL(expression, .type = "slab-out-of-bounds", .rw = "Read", .size = size_, .addr = wsrc, .bad = (char *)wsrc + 32, .obj = wsrc, .obj_size = 32, .alloc_line = wline, .inlined = 1)
	SRC(kasan_ptr_result = memcpy(dst, src, n + 1), 9);
	SRC(kasan_ptr_result = memmove(dst, src, n + 1), 9);
	poke(src + 8, 'b');
	poke(src + 9, 0);
	SRC(kasan_ptr_result = strcpy(dst, src), 10);
	SRC(kasan_ptr_result = stpcpy(dst, src), 10);
	SRC(kasan_ptr_result = strncpy(dst, src, n + 1), 9);
	dst[0] = 0;
	SRC(kasan_ptr_result = strcat(dst, src), 10);
	SRC(kasan_ptr_result = strncat(dst, src, n + 1), 9);
	poke(src + 8, 0);
	poke(src + 9, 0);
	WSRC(kasan_ptr_result = wmemcpy(wdst, wsrc, n + 1), 36);
	WSRC(kasan_ptr_result = wmemmove(wdst, wsrc, n + 1), 36);
	poke((char *)wsrc + 32, 'b'); /* one more wchar_t, then a terminator */
	for (int i = 33; i < 40; i++)
		poke((char *)wsrc + i, 0);
	WSRC(kasan_ptr_result = wcscpy(wdst, wsrc), 40);
	wdst[0] = 0;
	WSRC(kasan_ptr_result = wcscat(wdst, wsrc), 40);
	WSRC(kasan_ptr_result = wcsncpy(wdst, wsrc, n + 1), 36);
	wdst[0] = 0;
	WSRC(kasan_ptr_result = wcsncat(wdst, wsrc, n + 1), 36);
	for (int i = 32; i < 40; i++)
		poke((char *)wsrc + i, 0);

	free(gone2);
	free(wgone2);
	size_t g = 16;
	OPTIMIZER_HIDE_VAR(g);
#define GONE(expression, size_) KASAN_EXPECT_FAIL(expression, .type = "slab-use-after-free", .rw = "Write", .size = size_, .addr = gone, .obj = gone, .obj_size = 16, .freed = 1, .alloc_line = gline, .inlined = 1)
#define COUNT_EFAULT(e) (calls++, errno = 0, (void)(e), efault += errno == EFAULT)
	GONE(kasan_ptr_result = memset(gone, 0, g), 16);
	KASAN_EXPECT_FAIL(kasan_ptr_result = wmemset(wgone, 0, g / w), .type = "slab-use-after-free", .rw = "Write", .size = 16, .addr = wgone, .obj = wgone, .obj_size = 16, .freed = 1, .alloc_line = wgline, .inlined = 1);
	GONE(COUNT_EFAULT(kasan_int_result = read(zero, gone, g)), 16);
	GONE(COUNT_EFAULT(kasan_int_result = pread(zero, gone, g, 0)), 16);
	send(sv[1], "x", 1, 0);
	send(sv[1], "x", 1, 0);
	GONE(COUNT_EFAULT(kasan_int_result = recv(sv[0], gone, g, 0)), 16);
	GONE(COUNT_EFAULT(kasan_int_result = recvfrom(sv[0], gone, g, 0, NULL, NULL)), 16);
	GONE(COUNT_EFAULT(kasan_int_result = fread(gone, 1, g, fz)), 16);
	GONE(COUNT_EFAULT(kasan_ptr_result = fgets(gone, (int)g, fz)), 16);
	GONE(kasan_int_result = snprintf(gone, g, "%d", (int)g), 3);
	GONE(kasan_int_result = sprintf(gone, "%d-%d", (int)g, (int)n), 5);
	va_start(ap, unused);
	va_copy(aq, ap);
	GONE(kasan_int_result = vsnprintf(gone, g, "%s", ap), 4);
	GONE(kasan_int_result = vsprintf(gone, "%s", aq), 4);
	va_end(aq);
	va_end(ap);
	printf("%s I/O failed with EFAULT\n", efault == calls ? "all" : "NOT all");
	fclose(fz);
	close(zero);
	close(sv[0]);
	close(sv[1]);
	free(dst);
	free(wdst);
	free(src);
	free(wsrc);
}

int main(void)
{
	fortify_oob(0, "abc");
	return 0;
}
