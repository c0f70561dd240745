// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// stdio's reads and writes (tests/generic/_family.h): fread, fwrite, fgets,
// their _unlocked forms, fputs, puts, gets and __gets_chk, each on a heap, a
// stack and a global buffer exactly, then one byte past it (the strings
// written out one byte longer than their buffer). The fortified builds make
// the _chk calls.
// NOT: TEST FAILED
#include "_family_io.h"

#include <unistd.h>

/* Not declared for C11 programs: the test calls them all the same. */
char *gets(char *s);
char *__gets_chk(char *s, size_t size);

static FILE *zf, *nf;

/* A line of len 'a's on standard input. */
static void family_stdin(size_t len)
{
	int p[2];
	char line[64];
	if (len >= sizeof(line) || pipe(p))
		kasan_test_fail("cannot make a pipe");
	memset(line, 'a', len);
	line[len] = '\n';
	if (write(p[1], line, len + 1) != (ssize_t)len + 1 || dup2(p[0], 0) < 0)
		kasan_test_fail("cannot write the line");
	close(p[1]);
}

FAMILY_CASE(fread_buf, "Write", , kasan_int_result = fread(b, 1, n, zf), b, n)
FAMILY_CASE(fwrite_buf, "Read", , kasan_int_result = fwrite(b, 1, n, nf), b, n)
FAMILY_CASE(fgets_buf, "Write", , kasan_ptr_result = fgets(b, (int)n, zf), b, n)
FAMILY_CASE(fread_unlocked_buf, "Write", , kasan_int_result = fread_unlocked(b, 1, n, zf), b, n)
FAMILY_CASE(fwrite_unlocked_buf, "Read", , kasan_int_result = fwrite_unlocked(b, 1, n, nf), b, n)
FAMILY_CASE(fgets_unlocked_buf, "Write", , kasan_ptr_result = fgets_unlocked(b, (int)n, zf), b, n)
FAMILY_CASE(fputs_str, "Read", family_string(b, n), kasan_int_result = fputs(b, nf), b, n)
FAMILY_CASE(fputs_unlocked_str, "Read", family_string(b, n), kasan_int_result = fputs_unlocked(b, nf), b, n)
FAMILY_CASE(puts_str, "Read", family_string(b, n), kasan_int_result = puts(b), b, n)
FAMILY_CASE(gets_buf, "Write", family_stdin(n - 1), kasan_ptr_result = gets(b), b, n)
FAMILY_CASE(gets_chk_buf, "Write", family_stdin(n - 1), kasan_ptr_result = __gets_chk(b, n), b, n)

int main(void)
{
	zf = fopen("/dev/zero", "r");
	nf = fopen("/dev/null", "w");
	if (!zf || !nf)
		kasan_test_fail("cannot open /dev/zero or /dev/null");
	FAMILY_RUN(fread_buf);
	FAMILY_RUN(fwrite_buf);
	FAMILY_RUN(fgets_buf);
	FAMILY_RUN(fread_unlocked_buf);
	FAMILY_RUN(fwrite_unlocked_buf);
	FAMILY_RUN(fgets_unlocked_buf);
	FAMILY_RUN(fputs_str);
	FAMILY_RUN(fputs_unlocked_str);
	FAMILY_RUN(puts_str);
	FAMILY_RUN(gets_buf);
	FAMILY_RUN(gets_chk_buf);
	return 0;
}
