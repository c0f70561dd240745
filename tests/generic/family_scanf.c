// MODE: generic
// VARIANTS: gcc clang gcc-fortify clang-fortify
// CROSS-VARIANTS: gcc clang gcc-fortify clang-fortify -- va_list is per architecture, and the __v*_chk interceptors pass it on
// The scanf family (tests/generic/_family.h): what each conversion stores,
// ending exactly at the end of a heap, a stack and a global buffer, then
// one byte past it: %s and %[ (the text and its terminator), %d, %hhd,
// %lf, %p, %n, %ms (the pointer), %c with a width, %ls and %lc in wchar_t,
// positional arguments, suppressed and unassigned conversions; through sscanf, vsscanf, fscanf, vfscanf, scanf,
// vscanf, swscanf, vswscanf, fwscanf, vfwscanf, wscanf and vwscanf, as the
// headers call them (glibc's __isoc99_ names) and by their plain names
// (glibc's non-C99 forms). The
// report is made after the call, which has stored past the buffer. And
// sscanf's input string, read whole before the call.
// NOT: TEST FAILED
#include "_family_format.h"

static int number;

/* What the headers call in C99 mode are the __isoc99_ names; these are
 * the others, which old programs and -std=gnu89 builds call. */
extern int gnu_sscanf(const char *, const char *, ...) __asm__("sscanf");
extern int gnu_vsscanf(const char *, const char *, va_list) __asm__("vsscanf");
extern int gnu_fscanf(FILE *, const char *, ...) __asm__("fscanf");
extern int gnu_vfscanf(FILE *, const char *, va_list) __asm__("vfscanf");
extern int gnu_scanf(const char *, ...) __asm__("scanf");
extern int gnu_vscanf(const char *, va_list) __asm__("vscanf");
extern int gnu_swscanf(const wchar_t *, const wchar_t *, ...) __asm__("swscanf");
extern int gnu_vswscanf(const wchar_t *, const wchar_t *, va_list) __asm__("vswscanf");
extern int gnu_fwscanf(FILE *, const wchar_t *, ...) __asm__("fwscanf");
extern int gnu_vfwscanf(FILE *, const wchar_t *, va_list) __asm__("vfwscanf");
extern int gnu_wscanf(const wchar_t *, ...) __asm__("wscanf");
extern int gnu_vwscanf(const wchar_t *, va_list) __asm__("vwscanf");

/* A stream of len 'x's: a pipe's, as glibc's fmemopen streams cannot be
 * read as wide characters. */
static FILE *input(size_t len)
{
	int p[2];
	if (pipe(p) || write(p[1], family_text(len), len) != (ssize_t)len)
		return NULL;
	close(p[1]);
	return fdopen(p[0], "r");
}

#define TEXT const char *in = family_text(n - 1)
#define WTEXT const wchar_t *in = family_wtext(FAMILY_WN(n) - 1)
#define WSIZE (FAMILY_WN(n) * sizeof(wchar_t))

FAMILY_CASE(sscanf_s, "Write", TEXT, kasan_int_result = sscanf(in, "%s", b), b, n)
FAMILY_CASE(sscanf_set, "Write", TEXT, kasan_int_result = sscanf(in, "%[x]", b), b, n)
FAMILY_CASE(sscanf_d, "Write", , kasan_int_result = sscanf("7", "%d", (int *)(b + n - 4)), b + n - 4, 4)
FAMILY_CASE(sscanf_hhd, "Write", , kasan_int_result = sscanf("7", "%hhd", (signed char *)(b + n - 1)), b + n - 1, 1)
FAMILY_CASE(sscanf_lf, "Write", , kasan_int_result = sscanf("1.5", "%lf", (double *)(b + n - 8)), b + n - 8, 8)
FAMILY_CASE(sscanf_p, "Write", , kasan_int_result = sscanf("0x10", "%p", (void **)(b + n - 8)), b + n - 8, 8)
FAMILY_CASE(sscanf_c, "Write", TEXT, kasan_int_result = sscanf(in, "%16c", b + over), b + over, FAMILY_SIZE)
FAMILY_CASE(sscanf_n, "Write", , kasan_int_result = sscanf("12", "%d%n", &number, (int *)(b + n - 4)), b + n - 4, 4)
FAMILY_CASE(sscanf_ms, "Write", char **p = (char **)(b + n - 8), (kasan_int_result = sscanf("abc", "%ms", p), free(*p)), b + n - 8, 8)
FAMILY_CASE(sscanf_positional, "Write", , kasan_int_result = sscanf("7 8", "%2$d %1$d", &number, (int *)(b + n - 4)), b + n - 4, 4)
FAMILY_CASE(sscanf_suppressed, "Write", , kasan_int_result = sscanf("7 8", "%*d %hhd", (signed char *)(b + n - 1)), b + n - 1, 1)
/* The second conversion fails: its object, past the buffer, is not stored to. */
FAMILY_CASE(sscanf_unassigned, "Write", , kasan_int_result = sscanf("7 x", "%d %d", (int *)(b + n - 4), (int *)(b + FAMILY_SIZE)), b + n - 4, 4)
FAMILY_CASE(vsscanf_s, "Write", TEXT; FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vsscanf(in, "%s", ap), b, n)
FAMILY_CASE(fscanf_s, "Write", FILE *f = input(n - 1), kasan_int_result = fscanf(f, "%s", b), b, n)
FAMILY_CASE(vfscanf_s, "Write", FILE *f = input(n - 1); FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vfscanf(f, "%s", ap), b, n)
FAMILY_CASE(scanf_s, "Write", stdin = input(n - 1), kasan_int_result = scanf("%s", b), b, n)
FAMILY_CASE(vscanf_s, "Write", stdin = input(n - 1); FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vscanf("%s", ap), b, n)
FAMILY_CASE(gnu_sscanf_s, "Write", TEXT, kasan_int_result = gnu_sscanf(in, "%s", b), b, n)
FAMILY_CASE(gnu_vsscanf_d, "Write", FAMILY_VA_LIST(ap, (uintptr_t)(b + n - 4)), kasan_int_result = gnu_vsscanf("7", "%d", ap), b + n - 4, 4)
FAMILY_CASE(gnu_fscanf_s, "Write", FILE *f = input(n - 1), kasan_int_result = gnu_fscanf(f, "%s", b), b, n)
FAMILY_CASE(gnu_vfscanf_s, "Write", FILE *f = input(n - 1); FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = gnu_vfscanf(f, "%s", ap), b, n)
FAMILY_CASE(gnu_scanf_s, "Write", stdin = input(n - 1), kasan_int_result = gnu_scanf("%s", b), b, n)
FAMILY_CASE(gnu_vscanf_s, "Write", stdin = input(n - 1); FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = gnu_vscanf("%s", ap), b, n)
FAMILY_CASE(gnu_swscanf_d, "Write", , kasan_int_result = gnu_swscanf(L"7", L"%d", (int *)(b + n - 4)), b + n - 4, 4)
FAMILY_CASE(gnu_vswscanf_d, "Write", FAMILY_VA_LIST(ap, (uintptr_t)(b + n - 4)), kasan_int_result = gnu_vswscanf(L"7", L"%d", ap), b + n - 4, 4)
FAMILY_CASE(gnu_fwscanf_s, "Write", FILE *f = input(n - 1), kasan_int_result = gnu_fwscanf(f, L"%s", b), b, n)
FAMILY_CASE(gnu_vfwscanf_s, "Write", FILE *f = input(n - 1); FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = gnu_vfwscanf(f, L"%s", ap), b, n)
FAMILY_CASE(gnu_wscanf_s, "Write", stdin = input(n - 1), kasan_int_result = gnu_wscanf(L"%s", b), b, n)
FAMILY_CASE(gnu_vwscanf_s, "Write", stdin = input(n - 1); FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = gnu_vwscanf(L"%s", ap), b, n)
FAMILY_CASE(fwscanf_ls, "Write", FILE *f = input(FAMILY_WN(n) - 1), kasan_int_result = fwscanf(f, L"%ls", (wchar_t *)b), b, WSIZE)
FAMILY_CASE(vfwscanf_s, "Write", FILE *f = input(n - 1); FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vfwscanf(f, L"%s", ap), b, n)
FAMILY_CASE(wscanf_s, "Write", stdin = input(n - 1), kasan_int_result = wscanf(L"%s", b), b, n)
FAMILY_CASE(vwscanf_s, "Write", stdin = input(n - 1); FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vwscanf(L"%s", ap), b, n)
FAMILY_CASE(swscanf_ls, "Write", WTEXT, kasan_int_result = swscanf(in, L"%ls", (wchar_t *)b), b, WSIZE)
FAMILY_CASE(swscanf_s, "Write", const wchar_t *in = family_wtext(n - 1), kasan_int_result = swscanf(in, L"%s", b), b, n)
FAMILY_CASE(swscanf_lc, "Write", , kasan_int_result = swscanf(L"x", L"%lc", (wchar_t *)(b + n - 4)), b + n - 4, 4)
FAMILY_CASE(vswscanf_d, "Write", FAMILY_VA_LIST(ap, (uintptr_t)(b + n - 4)), kasan_int_result = vswscanf(L"7", L"%d", ap), b + n - 4, 4)
FAMILY_CASE(sscanf_input, "Read", family_string(b, n), kasan_int_result = sscanf(b, "%d", &number), b, n)
FAMILY_CASE(swscanf_input, "Read", family_wstring(b, FAMILY_WN(n)), kasan_int_result = swscanf((wchar_t *)b, L"%d", &number), b, WSIZE)

int main(void)
{
	FAMILY_RUN(sscanf_s);
	FAMILY_RUN(sscanf_set);
	FAMILY_RUN(sscanf_d);
	FAMILY_RUN(sscanf_hhd);
	FAMILY_RUN(sscanf_lf);
	FAMILY_RUN(sscanf_p);
	FAMILY_RUN(sscanf_c);
	FAMILY_RUN(sscanf_n);
	FAMILY_RUN(sscanf_ms);
	FAMILY_RUN(sscanf_positional);
	FAMILY_RUN(sscanf_suppressed);
	FAMILY_RUN(sscanf_unassigned);
	FAMILY_RUN(vsscanf_s);
	FAMILY_RUN(fscanf_s);
	FAMILY_RUN(vfscanf_s);
	FAMILY_RUN(scanf_s);
	FAMILY_RUN(vscanf_s);
	FAMILY_RUN(gnu_sscanf_s);
	FAMILY_RUN(gnu_vsscanf_d);
	FAMILY_RUN(gnu_fscanf_s);
	FAMILY_RUN(gnu_vfscanf_s);
	FAMILY_RUN(gnu_scanf_s);
	FAMILY_RUN(gnu_vscanf_s);
	FAMILY_RUN(gnu_swscanf_d);
	FAMILY_RUN(gnu_vswscanf_d);
	FAMILY_RUN(gnu_fwscanf_s);
	FAMILY_RUN(gnu_vfwscanf_s);
	FAMILY_RUN(gnu_wscanf_s);
	FAMILY_RUN(gnu_vwscanf_s);
	FAMILY_RUN(fwscanf_ls);
	FAMILY_RUN(vfwscanf_s);
	FAMILY_RUN(wscanf_s);
	FAMILY_RUN(vwscanf_s);
	FAMILY_RUN(swscanf_ls);
	FAMILY_RUN(swscanf_s);
	FAMILY_RUN(swscanf_lc);
	FAMILY_RUN(vswscanf_d);
	FAMILY_RUN(sscanf_input);
	FAMILY_RUN(swscanf_input);
	return 0;
}
