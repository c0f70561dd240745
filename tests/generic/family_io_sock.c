// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Socket data (tests/generic/_family.h): recv, send, recvfrom and sendto
// (their data and their addresses), recvmsg and sendmsg (their data), each
// on a heap, a stack and a global buffer exactly, then one byte past it.
// The fortified builds make the _chk calls.
// NOT: TEST FAILED
#include "_family_io.h"

#include <sys/socket.h>

static int sv[2];

#define D MSG_DONTWAIT
#define SA ((struct sockaddr *)b)
#define MSG struct iovec v = {b, n}; struct msghdr m = {.msg_iov = &v, .msg_iovlen = 1}

FAMILY_CASE(recv_buf, "Write", , kasan_int_result = recv(sv[0], b, n, D), b, n)
FAMILY_CASE(send_buf, "Read", , kasan_int_result = send(sv[1], b, n, D), b, n)
FAMILY_CASE(recvfrom_buf, "Write", , kasan_int_result = recvfrom(sv[0], b, n, D, NULL, NULL), b, n)
FAMILY_CASE(recvfrom_addr, "Write", socklen_t len = n, kasan_int_result = recvfrom(sv[0], family_big, 8, D, SA, &len), b, n)
FAMILY_CASE(sendto_buf, "Read", , kasan_int_result = sendto(sv[1], b, n, D, NULL, 0), b, n)
FAMILY_CASE(sendto_addr, "Read", memset(b, 0, FAMILY_SIZE), kasan_int_result = sendto(sv[1], family_big, 1, D, SA, n), b, n)
FAMILY_CASE(recvmsg_data, "Write", MSG, kasan_int_result = recvmsg(sv[0], &m, D), b, n)
FAMILY_CASE(sendmsg_data, "Read", MSG, kasan_int_result = sendmsg(sv[1], &m, D), b, n)

int main(void)
{
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		kasan_test_fail("cannot make a socket pair");
	FAMILY_RUN(recv_buf);
	FAMILY_RUN(send_buf);
	FAMILY_RUN(recvfrom_buf);
	FAMILY_RUN(recvfrom_addr);
	FAMILY_RUN(sendto_buf);
	FAMILY_RUN(sendto_addr);
	FAMILY_RUN(recvmsg_data);
	FAMILY_RUN(sendmsg_data);
	return 0;
}
