// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Reads and writes through a descriptor (tests/generic/_family.h): read,
// write, pread and pwrite (and the 64 forms), each on a heap, a stack and a
// global buffer exactly, then one byte past it. The fortified builds make
// the _chk calls.
// NOT: TEST FAILED
#include "_family_io.h"

#include <unistd.h>

#define Z family_zero_fd
#define N family_null_fd

FAMILY_CASE(read_buf, "Write", , kasan_int_result = read(Z, b, n), b, n)
FAMILY_CASE(write_buf, "Read", , kasan_int_result = write(N, b, n), b, n)
FAMILY_CASE(pread_buf, "Write", , kasan_int_result = pread(Z, b, n, 0), b, n)
FAMILY_CASE(pwrite_buf, "Read", , kasan_int_result = pwrite(N, b, n, 0), b, n)
FAMILY_CASE(pread64_buf, "Write", , kasan_int_result = pread64(Z, b, n, 0), b, n)
FAMILY_CASE(pwrite64_buf, "Read", , kasan_int_result = pwrite64(N, b, n, 0), b, n)

int main(void)
{
	family_open();
	FAMILY_RUN(read_buf);
	FAMILY_RUN(write_buf);
	FAMILY_RUN(pread_buf);
	FAMILY_RUN(pwrite_buf);
	FAMILY_RUN(pread64_buf);
	FAMILY_RUN(pwrite64_buf);
	return 0;
}
