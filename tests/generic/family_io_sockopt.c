// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Socket options, addresses going in and descriptor pairs
// (tests/generic/_family.h): getsockopt's value and length, setsockopt's
// value, bind and connect's address, getpeername's address, socketpair,
// pipe and pipe2's pair, each on a heap, a stack and a global buffer
// exactly, then one byte past it (the structures one byte short).
// NOT: TEST FAILED
#include "_family_io.h"

#include <sys/socket.h>
#include <unistd.h>

static int sv[2];

#define SA ((struct sockaddr *)b)
#define LEN socklen_t len = n
#define LENP ((socklen_t *)(b + over))
#define PUTLEN socklen_t l = sizeof(int); family_put(b + over, &l, sizeof(l))
/* A socket of the case's own, with the address family left unspecified. */
#define SOCK int s = socket(AF_UNIX, SOCK_DGRAM, 0); memset(b, 0, FAMILY_SIZE)
#define PAIR ((int *)(b + over))
/* An option no socket has: the call fails after the check. */
#define NOOPT 0x7fff

FAMILY_CASE(getsockopt_val, "Write", LEN, kasan_int_result = getsockopt(sv[0], SOL_SOCKET, SO_TYPE, b, &len), b, n)
FAMILY_CASE_SIZED(getsockopt_len, sizeof(socklen_t), "Write", PUTLEN, kasan_int_result = getsockopt(sv[0], SOL_SOCKET, SO_TYPE, family_big, LENP), b + over, sizeof(socklen_t))
FAMILY_CASE(setsockopt_val, "Read", , kasan_int_result = setsockopt(sv[0], SOL_SOCKET, NOOPT, b, n), b, n)
FAMILY_CASE(bind_addr, "Read", SOCK, kasan_int_result = bind(s, SA, n), b, n)
FAMILY_CASE(connect_addr, "Read", SOCK, kasan_int_result = connect(s, SA, n), b, n)
FAMILY_CASE(getpeername_addr, "Write", LEN, kasan_int_result = getpeername(sv[0], SA, &len), b, n)
FAMILY_CASE_SIZED(socketpair_fds, 2 * sizeof(int), "Write", , kasan_int_result = socketpair(AF_UNIX, SOCK_STREAM, 0, PAIR), b + over, 2 * sizeof(int))
FAMILY_CASE_SIZED(pipe_fds, 2 * sizeof(int), "Write", , kasan_int_result = pipe(PAIR), b + over, 2 * sizeof(int))
FAMILY_CASE_SIZED(pipe2_fds, 2 * sizeof(int), "Write", , kasan_int_result = pipe2(PAIR, 0), b + over, 2 * sizeof(int))

int main(void)
{
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		kasan_test_fail("cannot make a socket pair");
	FAMILY_RUN(getsockopt_val);
	FAMILY_RUN(getsockopt_len);
	FAMILY_RUN(setsockopt_val);
	FAMILY_RUN(bind_addr);
	FAMILY_RUN(connect_addr);
	FAMILY_RUN(getpeername_addr);
	FAMILY_RUN(socketpair_fds);
	FAMILY_RUN(pipe_fds);
	FAMILY_RUN(pipe2_fds);
	return 0;
}
