// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// More vectored reads and writes (tests/generic/_family.h): preadv2 and
// pwritev2 (and the 64 forms), process_vm_readv and process_vm_writev, each
// on a heap, a stack and a global buffer exactly, then one byte past it;
// and preadv's vector one byte short.
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

FAMILY_CASE(preadv2_buf, "Write", IOV, kasan_int_result = preadv2(Z, &v, 1, 0, 0), b, n)
FAMILY_CASE(pwritev2_buf, "Read", IOV, kasan_int_result = pwritev2(N, &v, 1, 0, 0), b, n)
FAMILY_CASE(preadv64v2_buf, "Write", IOV, kasan_int_result = preadv64v2(Z, &v, 1, 0, 0), b, n)
FAMILY_CASE(pwritev64v2_buf, "Read", IOV, kasan_int_result = pwritev64v2(N, &v, 1, 0, 0), b, n)
FAMILY_CASE(preadv_vec, "Read", VEC, kasan_int_result = preadv(Z, V, 1, 0), b + over, sizeof(struct iovec))
FAMILY_CASE(process_vm_readv_buf, "Write", REMOTE, kasan_int_result = process_vm_readv(getpid(), &v, 1, &r, 1, 0), b, n)
FAMILY_CASE(process_vm_writev_buf, "Read", REMOTE, kasan_int_result = process_vm_writev(getpid(), &v, 1, &r, 1, 0), b, n)

int main(void)
{
	family_open();
	FAMILY_RUN(preadv2_buf);
	FAMILY_RUN(pwritev2_buf);
	FAMILY_RUN(preadv64v2_buf);
	FAMILY_RUN(pwritev64v2_buf);
	FAMILY_RUN(preadv_vec);
	FAMILY_RUN(process_vm_readv_buf);
	FAMILY_RUN(process_vm_writev_buf);
	return 0;
}
