// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The tokenizers and spans (tests/generic/_family.h): strtok, strtok_r (and
// its saved pointer), strsep (and its string pointer), strspn, strcspn and
// strpbrk (string and set), and strxfrm, each reading and (where it writes)
// writing a heap, a stack and a global buffer exactly, then one byte past
// it. A token's terminator is written over a byte already read: a token
// that runs past the buffer is reported as the read.
// NOT: TEST FAILED
#include "_family_str.h"

FAMILY_CASE(strtok_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strtok(b, ";"), b, n)
FAMILY_CASE(strtok_delim_read, "Read", family_str(b, n, ';'); family_str(family_big, 4, 'a'), kasan_ptr_result = strtok(family_big, b), b, n)
FAMILY_CASE(strtok_r_read, "Read", family_str(b, n, 'a'); family_put(b + n - 1, ";", 1), kasan_ptr_result = strtok_r(b, ";", (char **)family_big2), b, n)
FAMILY_CASE(strtok_r_save_write, "Write", family_str(family_big, 4, 'a'), kasan_ptr_result = strtok_r(family_big, ";", (char **)(b + n - 8)), b + n - 8, 8)
FAMILY_CASE(strtok_r_save_read, "Read", char *s = family_big; family_put(b + n - 8, &s, 8), kasan_ptr_result = strtok_r(NULL, ";", (char **)(b + n - 8)), b + n - 8, 8)
FAMILY_CASE(strsep_read, "Read", family_str(b, n, 'a'); *(char **)family_big2 = b, kasan_ptr_result = strsep((char **)family_big2, ";"), b, n)
FAMILY_CASE(strsep_pointer_read, "Read", char *s = family_big; family_put(b + n - 8, &s, 8), kasan_ptr_result = strsep((char **)(b + n - 8), ";"), b + n - 8, 8)
FAMILY_CASE(strspn_read, "Read", family_str(b, n, 'a'), kasan_int_result = strspn(b, "a"), b, n)
FAMILY_CASE(strspn_set_read, "Read", family_str(b, n, 'a'), kasan_int_result = strspn(family_big, b), b, n)
FAMILY_CASE(strcspn_read, "Read", family_str(b, n, 'a'), kasan_int_result = strcspn(b, ";,"), b, n)
FAMILY_CASE(strcspn_set_read, "Read", family_str(b, n, 'a'), kasan_int_result = strcspn(family_big, b), b, n)
FAMILY_CASE(strpbrk_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strpbrk(b, ";,"), b, n)
FAMILY_CASE(strpbrk_set_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strpbrk(family_big, b), b, n)
FAMILY_CASE(strxfrm_write, "Write", family_str(family_big, n, 'a'), kasan_int_result = strxfrm(b, family_big, n), b, n)
FAMILY_CASE(strxfrm_read, "Read", family_str(b, n, 'a'), kasan_int_result = strxfrm(family_big, b, sizeof(family_big)), b, n)

int main(void)
{
	FAMILY_RUN(strtok_read);
	FAMILY_RUN(strtok_delim_read);
	FAMILY_RUN(strtok_r_read);
	FAMILY_RUN(strtok_r_save_write);
	FAMILY_RUN(strtok_r_save_read);
	FAMILY_RUN(strsep_read);
	FAMILY_RUN(strsep_pointer_read);
	FAMILY_RUN(strspn_read);
	FAMILY_RUN(strspn_set_read);
	FAMILY_RUN(strcspn_read);
	FAMILY_RUN(strcspn_set_read);
	FAMILY_RUN(strpbrk_read);
	FAMILY_RUN(strpbrk_set_read);
	FAMILY_RUN(strxfrm_write);
	FAMILY_RUN(strxfrm_read);
	return 0;
}
