// MODE: generic
// VARIANTS: gcc clang gcc-fortify clang-fortify
// CROSS-VARIANTS: gcc clang gcc-fortify clang-fortify -- va_list is per architecture, and the __v*_chk interceptors pass it on
// The printf family's arguments (tests/generic/_family.h): a %s string
// whose terminator is the last byte of a heap, a stack and a global buffer,
// then one byte past it (read whole: strlen + 1), the same under a
// precision and a positional argument, after double and long double
// arguments (found by their types), %ls strings in wchar_t, and %n
// targets that end at the buffer's end, then one byte past it. Each call of
// the family: printf, fprintf, dprintf, vprintf, vfprintf, vdprintf,
// sprintf, snprintf, vsprintf, vsnprintf, asprintf, vasprintf (and their
// __*_chk forms in the fortified builds), obstack_printf, obstack_vprintf,
// swprintf, fwprintf, vfwprintf, wprintf, vwprintf. The report is
// made before the call, which then goes on for a string (printf_recover.c)
// and fails for a %n target.
// NOT: TEST FAILED
#include "_family_format.h"

#include <obstack.h>

#define obstack_chunk_alloc malloc
#define obstack_chunk_free free

/* Where the text goes: /dev/null, opened before the cases run. */
static FILE *out;
static int out_fd;
static wchar_t wide_out[4 * FAMILY_SIZE];
static int number;

/* The symbols themselves: at -O1 glibc's header inlines vprintf into a
 * call of vfprintf (a pointer is to the symbol), and only it calls
 * __vprintf_chk. */
static int (*volatile vprintf_symbol)(const char *, va_list) = vprintf;
extern int __vprintf_chk(int, const char *, va_list);

#define STRING family_string(b, n)
#define WSTRING family_wstring(b, FAMILY_WN(n))
#define WSIZE (FAMILY_WN(n) * sizeof(wchar_t))

FAMILY_CASE(printf_s, "Read", STRING, kasan_int_result = printf("[%s]\n", b), b, n)
FAMILY_CASE(fprintf_s, "Read", STRING, kasan_int_result = fprintf(out, "[%s]", b), b, n)
FAMILY_CASE(dprintf_s, "Read", STRING, kasan_int_result = dprintf(out_fd, "[%s]", b), b, n)
FAMILY_CASE(vprintf_s, "Read", STRING; FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vprintf_symbol("[%s]\n", ap), b, n)
FAMILY_CASE(vprintf_chk_s, "Read", STRING; FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = __vprintf_chk(1, "[%s]\n", ap), b, n)
FAMILY_CASE(vfprintf_s, "Read", STRING; FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vfprintf(out, "[%s]", ap), b, n)
FAMILY_CASE(vdprintf_s, "Read", STRING; FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vdprintf(out_fd, "[%s]", ap), b, n)
FAMILY_CASE(sprintf_s, "Read", STRING, kasan_int_result = sprintf(family_big, "[%s]", b), b, n)
FAMILY_CASE(snprintf_s, "Read", STRING, kasan_int_result = snprintf(family_big, sizeof(family_big), "[%s]", b), b, n)
FAMILY_CASE(vsprintf_s, "Read", STRING; FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vsprintf(family_big, "[%s]", ap), b, n)
FAMILY_CASE(vsnprintf_s, "Read", STRING; FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vsnprintf(family_big, sizeof(family_big), "[%s]", ap), b, n)
FAMILY_CASE(asprintf_s, "Read", STRING; char *text = NULL, (kasan_int_result = asprintf(&text, "[%s]", b), free(text)), b, n)
FAMILY_CASE(vasprintf_s, "Read", STRING; char *text = NULL; FAMILY_VA_LIST(ap, (uintptr_t)b), (kasan_int_result = vasprintf(&text, "[%s]", ap), free(text)), b, n)
/* Unterminated: the precision bounds the read. */
FAMILY_CASE(printf_precision, "Read", memset(b, 'a', FAMILY_SIZE), kasan_int_result = printf("[%.*s]\n", (int)n, b), b, n)
FAMILY_CASE(printf_positional, "Read", memset(b, 'a', FAMILY_SIZE), kasan_int_result = printf("[%2$.*1$s]\n", (int)n, b), b, n)
/* The string after floating-point arguments, which the ABI may pass apart
 * from the others (arm64: in vector registers; x86-64: a long double on the
 * stack): the check must fetch each by its type to find the string. */
FAMILY_CASE(printf_after_floats, "Read", STRING, kasan_int_result = printf("[%f %Lf %s]\n", 1.5, (long double)2.5, b), b, n)
FAMILY_CASE(printf_positional_floats, "Read", STRING, kasan_int_result = printf("[%3$s %1$f %2$Lf]\n", 1.5, (long double)2.5, b), b, n)
FAMILY_CASE(printf_ls, "Read", WSTRING, kasan_int_result = printf("[%ls]\n", (wchar_t *)b), b, WSIZE)
FAMILY_CASE(swprintf_ls, "Read", WSTRING, kasan_int_result = swprintf(wide_out, 4 * FAMILY_SIZE, L"[%ls]", (wchar_t *)b), b, WSIZE)
FAMILY_CASE(swprintf_s, "Read", STRING, kasan_int_result = swprintf(wide_out, 4 * FAMILY_SIZE, L"[%s]", b), b, n)
FAMILY_CASE(fwprintf_ls, "Read", WSTRING, kasan_int_result = fwprintf(out, L"[%ls]", (wchar_t *)b), b, WSIZE)
FAMILY_CASE(vfwprintf_ls, "Read", WSTRING; FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vfwprintf(out, L"[%ls]", ap), b, WSIZE)
/* stdout is byte-oriented: these fail, but after their check. */
FAMILY_CASE(wprintf_ls, "Read", WSTRING, kasan_int_result = wprintf(L"[%ls]", (wchar_t *)b), b, WSIZE)
FAMILY_CASE(vwprintf_ls, "Read", WSTRING; FAMILY_VA_LIST(ap, (uintptr_t)b), kasan_int_result = vwprintf(L"[%ls]", ap), b, WSIZE)
FAMILY_CASE(obstack_printf_s, "Read", STRING; struct obstack o; obstack_init(&o), (kasan_int_result = obstack_printf(&o, "[%s]", b), obstack_free(&o, NULL)), b, n)
FAMILY_CASE(obstack_vprintf_s, "Read", STRING; struct obstack o; obstack_init(&o); FAMILY_VA_LIST(ap, (uintptr_t)b), (kasan_int_result = obstack_vprintf(&o, "[%s]", ap), obstack_free(&o, NULL)), b, n)
FAMILY_CASE(printf_n, "Write", , kasan_int_result = printf("ab%n\n", (int *)(b + n - 4)), b + n - 4, 4)
FAMILY_CASE(sprintf_hhn, "Write", , kasan_int_result = sprintf(family_big, "ab%hhn", (signed char *)(b + n - 1)), b + n - 1, 1)
FAMILY_CASE(snprintf_ln, "Write", , kasan_int_result = snprintf(family_big, 8, "ab%ln", (long *)(b + n - 8)), b + n - 8, 8)
FAMILY_CASE(fprintf_n_positional, "Write", , kasan_int_result = fprintf(out, "%2$d%1$n", (int *)(b + n - 4), 7), b + n - 4, 4)
FAMILY_CASE(vsnprintf_n, "Write", FAMILY_VA_LIST(ap, 3, 7, (uintptr_t)&number, (uintptr_t)(b + n - 2)), kasan_int_result = vsnprintf(family_big, 8, "%*d%n%hn", ap), b + n - 2, 2)
FAMILY_CASE(asprintf_result, "Write", , kasan_int_result = asprintf((char **)(b + n - 8), "[%d]", 7), b + n - 8, 8)

int main(void)
{
	out = fopen("/dev/null", "w");
	out_fd = fileno(out);
	FAMILY_RUN(printf_s);
	FAMILY_RUN(fprintf_s);
	FAMILY_RUN(dprintf_s);
	FAMILY_RUN(vprintf_s);
	FAMILY_RUN(vprintf_chk_s);
	FAMILY_RUN(vfprintf_s);
	FAMILY_RUN(vdprintf_s);
	FAMILY_RUN(sprintf_s);
	FAMILY_RUN(snprintf_s);
	FAMILY_RUN(vsprintf_s);
	FAMILY_RUN(vsnprintf_s);
	FAMILY_RUN(asprintf_s);
	FAMILY_RUN(vasprintf_s);
	FAMILY_RUN(printf_precision);
	FAMILY_RUN(printf_positional);
	FAMILY_RUN(printf_after_floats);
	FAMILY_RUN(printf_positional_floats);
	FAMILY_RUN(printf_ls);
	FAMILY_RUN(swprintf_ls);
	FAMILY_RUN(swprintf_s);
	FAMILY_RUN(fwprintf_ls);
	FAMILY_RUN(vfwprintf_ls);
	FAMILY_RUN(wprintf_ls);
	FAMILY_RUN(vwprintf_ls);
	FAMILY_RUN(obstack_printf_s);
	FAMILY_RUN(obstack_vprintf_s);
	FAMILY_RUN(printf_n);
	FAMILY_RUN(sprintf_hhn);
	FAMILY_RUN(snprintf_ln);
	FAMILY_RUN(fprintf_n_positional);
	FAMILY_RUN(vsnprintf_n);
	FAMILY_RUN(asprintf_result);
	return 0;
}
