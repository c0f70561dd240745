// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Socket headers and addresses (tests/generic/_family.h): recvmsg's name
// and header, sendmsg's control data and header, recvmmsg and sendmmsg's
// vector, accept, accept4, getsockname and getpeername's address and
// length, each on a heap, a stack and a global buffer exactly, then one
// byte past it (the structures one byte short).
// NOT: TEST FAILED
#include "_family_io.h"

#include <sys/socket.h>

static int sv[2];

#define D MSG_DONTWAIT
#define SA ((struct sockaddr *)b)
#define BIG ((struct sockaddr *)family_big)
#define MSG struct iovec v = {family_big, 1}; struct msghdr m = {.msg_iov = &v, .msg_iovlen = 1}
#define HDR(T) family_zero(b + over, sizeof(T))
#define LEN socklen_t len = n
/* The length the kernel reads and writes, itself one byte short. */
#define LENP ((socklen_t *)(b + over))
/* The control data: one header, well formed (no descriptors), filling the
 * buffer. Zeroed bytes would do for Linux (EINVAL after it reads them), but
 * qemu-user 7.2 dies ("cpu_exec: assertion failed") on a header whose
 * cmsg_len is below the header's own size, an uninstrumented program as
 * much as this one, before the call returns. */
#define CONTROL                                                                                    \
	struct cmsghdr c = {.cmsg_len = CMSG_LEN(0), .cmsg_level = SOL_SOCKET, .cmsg_type = SCM_RIGHTS}; \
	_Static_assert(sizeof(c) == FAMILY_SIZE, "the header fills the buffer");                   \
	memcpy(b, &c, sizeof(c))
#define PUTLEN socklen_t l = sizeof(family_big); family_put(b + over, &l, sizeof(l))

FAMILY_CASE(recvmsg_name, "Write", MSG; m.msg_name = b; m.msg_namelen = n, kasan_int_result = recvmsg(sv[0], &m, D), b, n)
FAMILY_CASE_SIZED(recvmsg_hdr, sizeof(struct msghdr), "Write", HDR(struct msghdr), kasan_int_result = recvmsg(sv[0], (struct msghdr *)(b + over), D), b + over, sizeof(struct msghdr))
FAMILY_CASE(sendmsg_control, "Read", MSG; CONTROL; m.msg_control = b; m.msg_controllen = n, kasan_int_result = sendmsg(sv[1], &m, D), b, n)
FAMILY_CASE_SIZED(sendmsg_hdr, sizeof(struct msghdr), "Read", HDR(struct msghdr), kasan_int_result = sendmsg(sv[1], (struct msghdr *)(b + over), D), b + over, sizeof(struct msghdr))
FAMILY_CASE_SIZED(recvmmsg_vec, sizeof(struct mmsghdr), "Write", HDR(struct mmsghdr), kasan_int_result = recvmmsg(sv[0], (struct mmsghdr *)(b + over), 1, D, NULL), b + over, sizeof(struct mmsghdr))
FAMILY_CASE_SIZED(sendmmsg_vec, sizeof(struct mmsghdr), "Write", HDR(struct mmsghdr), kasan_int_result = sendmmsg(sv[1], (struct mmsghdr *)(b + over), 1, D), b + over, sizeof(struct mmsghdr))
FAMILY_CASE(accept_addr, "Write", LEN, kasan_int_result = accept(sv[0], SA, &len), b, n)
FAMILY_CASE(accept4_addr, "Write", LEN, kasan_int_result = accept4(sv[0], SA, &len, 0), b, n)
FAMILY_CASE(getsockname_addr, "Write", LEN, kasan_int_result = getsockname(sv[0], SA, &len), b, n)
FAMILY_CASE_SIZED(getpeername_len, sizeof(socklen_t), "Write", PUTLEN, kasan_int_result = getpeername(sv[0], BIG, LENP), b + over, sizeof(socklen_t))

int main(void)
{
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		kasan_test_fail("cannot make a socket pair");
	FAMILY_RUN(recvmsg_name);
	FAMILY_RUN(recvmsg_hdr);
	FAMILY_RUN(sendmsg_control);
	FAMILY_RUN(sendmsg_hdr);
	FAMILY_RUN(recvmmsg_vec);
	FAMILY_RUN(sendmmsg_vec);
	FAMILY_RUN(accept_addr);
	FAMILY_RUN(accept4_addr);
	FAMILY_RUN(getsockname_addr);
	FAMILY_RUN(getpeername_len);
	return 0;
}
