// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The string searches and comparisons (tests/generic/_family.h): strcmp,
// strncmp, strcasecmp, strncasecmp, strchr, strrchr, strstr, strcasestr,
// memmem (haystack and needle), strchrnul, rawmemchr, index and rindex (by
// name through a pointer: compilers turn direct calls into strchr and
// strrchr), each reading a heap, a stack and a global buffer exactly, then
// one byte past it.
// NOT: TEST FAILED
#include "_family_str.h"

FAMILY_CASE(strcmp_read, "Read", family_str(b, n, 'a'); family_str(family_big, n, 'a'), kasan_int_result = strcmp(b, family_big), b, n)
FAMILY_CASE(strncmp_read, "Read", family_fill(b, n, 'a'); family_fill(family_big, n, 'a'), kasan_int_result = strncmp(b, family_big, n), b, n)
FAMILY_CASE(strcasecmp_read, "Read", family_str(b, n, 'a'); family_str(family_big, n, 'A'), kasan_int_result = strcasecmp(b, family_big), b, n)
FAMILY_CASE(strncasecmp_read, "Read", family_fill(b, n, 'A'); family_fill(family_big, n, 'a'), kasan_int_result = strncasecmp(family_big, b, n), b, n)
FAMILY_CASE(strchr_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strchr(b, 'z'), b, n)
FAMILY_CASE(strrchr_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strrchr(b, 'a'), b, n)
FAMILY_CASE(strstr_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strstr(b, "ab"), b, n)
FAMILY_CASE(strstr_needle_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strstr(family_big, b), b, n)
FAMILY_CASE(strcasestr_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strcasestr(b, "ab"), b, n)
FAMILY_CASE(strcasestr_needle_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strcasestr(family_big, b), b, n)
FAMILY_CASE(memmem_read, "Read", , kasan_ptr_result = memmem(b, n, "zz", 2), b, n)
FAMILY_CASE(memmem_needle_read, "Read", , kasan_ptr_result = memmem(family_big, sizeof(family_big), b, n), b, n)
FAMILY_CASE(strchrnul_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strchrnul(b, 'z'), b, n)
FAMILY_CASE(rawmemchr_read, "Read", family_fill(b, n - 1, 'a'); family_put(b + n - 1, "z", 1), kasan_ptr_result = rawmemchr(b, 'z'), b, n)
FAMILY_CASE(index_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = FAMILY_HIDDEN(index)(b, 'z'), b, n)
FAMILY_CASE(rindex_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = FAMILY_HIDDEN(rindex)(b, 'a'), b, n)

int main(void)
{
	FAMILY_RUN(strcmp_read);
	FAMILY_RUN(strncmp_read);
	FAMILY_RUN(strcasecmp_read);
	FAMILY_RUN(strncasecmp_read);
	FAMILY_RUN(strchr_read);
	FAMILY_RUN(strrchr_read);
	FAMILY_RUN(strstr_read);
	FAMILY_RUN(strstr_needle_read);
	FAMILY_RUN(strcasestr_read);
	FAMILY_RUN(strcasestr_needle_read);
	FAMILY_RUN(memmem_read);
	FAMILY_RUN(memmem_needle_read);
	FAMILY_RUN(strchrnul_read);
	FAMILY_RUN(rawmemchr_read);
	FAMILY_RUN(index_read);
	FAMILY_RUN(rindex_read);
	return 0;
}
