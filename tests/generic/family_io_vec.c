// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Vectored reads and writes (tests/generic/_family.h): readv, writev,
// preadv and pwritev (and the 64 forms), each on a heap, a stack and a
// global buffer exactly, then one byte past it; and the vector itself one
// byte short.
// NOT: TEST FAILED
#include "_family_io.h"

#include <sys/uio.h>
#include <unistd.h>

#define Z family_zero_fd
#define N family_null_fd
#define IOV struct iovec v = {b, n}
/* A vector of one entry, itself the buffer under test. */
#define VEC struct iovec w = {family_big, 8}; family_put(b + over, &w, sizeof(w))
#define V ((struct iovec *)(b + over))
/* This process's memory, read or written as another process's would be. */
#define REMOTE IOV; struct iovec r = {family_big, n}

FAMILY_CASE(readv_buf, "Write", IOV, kasan_int_result = readv(Z, &v, 1), b, n)
FAMILY_CASE(writev_buf, "Read", IOV, kasan_int_result = writev(N, &v, 1), b, n)
FAMILY_CASE(readv_vec, "Read", VEC, kasan_int_result = readv(Z, V, 1), b + over, sizeof(struct iovec))
FAMILY_CASE(writev_vec, "Read", VEC, kasan_int_result = writev(N, V, 1), b + over, sizeof(struct iovec))
FAMILY_CASE(preadv_buf, "Write", IOV, kasan_int_result = preadv(Z, &v, 1, 0), b, n)
FAMILY_CASE(pwritev_buf, "Read", IOV, kasan_int_result = pwritev(N, &v, 1, 0), b, n)
FAMILY_CASE(preadv64_buf, "Write", IOV, kasan_int_result = preadv64(Z, &v, 1, 0), b, n)
FAMILY_CASE(pwritev64_buf, "Read", IOV, kasan_int_result = pwritev64(N, &v, 1, 0), b, n)

int main(void)
{
	family_open();
	FAMILY_RUN(readv_buf);
	FAMILY_RUN(writev_buf);
	FAMILY_RUN(readv_vec);
	FAMILY_RUN(writev_vec);
	FAMILY_RUN(preadv_buf);
	FAMILY_RUN(pwritev_buf);
	FAMILY_RUN(preadv64_buf);
	FAMILY_RUN(pwritev64_buf);
	return 0;
}
