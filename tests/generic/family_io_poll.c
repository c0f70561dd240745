// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Waiting on descriptors (tests/generic/_family.h): poll, ppoll,
// __poll_chk and __ppoll_chk's array, ppoll's mask, select and pselect's
// sets and select's timeout, epoll_wait, epoll_pwait and epoll_pwait2's
// events and epoll_ctl's event, each on a heap, a stack and a global buffer
// exactly, then one byte past it (the structures one byte short).
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>

/* glibc's fortified poll calls these only for an array whose size the
 * compiler knows: called here directly, the object's size given as n. */
int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen);
int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *timeout,
                const sigset_t *mask, size_t fdslen);

static int ep;

/* Two entries, which no descriptor takes part in; counted at run time,
 * so that the fortified builds check it. */
#define FDS struct pollfd p[2] = {{-1, 0, 0}, {-1, 0, 0}}; family_put(b + over, p, sizeof(p))
#define P ((struct pollfd *)(b + over))
#define NP (nfds_t)(n / sizeof(struct pollfd))
#define T0 struct timespec ts = {0, 0}; struct timeval tv = {0, 0}
#define ZERO(size) T0; family_zero(b + over, size)
/* The 128 descriptors of 16 bytes of set. */
#define SET ((fd_set *)(b + over))
#define EV ((struct epoll_event *)(b + over))

FAMILY_CASE(poll_fds, "Read", FDS, kasan_int_result = poll(P, NP, 0), b + over, FAMILY_SIZE)
FAMILY_CASE(ppoll_fds, "Read", FDS; T0, kasan_int_result = ppoll(P, NP, &ts, NULL), b + over, FAMILY_SIZE)
FAMILY_CASE(poll_chk_fds, "Read", FDS, kasan_int_result = __poll_chk(P, NP, 0, n), b + over, FAMILY_SIZE)
FAMILY_CASE(ppoll_chk_fds, "Read", FDS; T0, kasan_int_result = __ppoll_chk(P, NP, &ts, NULL, n), b + over, FAMILY_SIZE)
FAMILY_CASE_SIZED(ppoll_mask, sizeof(sigset_t), "Read", ZERO(sizeof(sigset_t)), kasan_int_result = ppoll(NULL, 0, &ts, (sigset_t *)(b + over)), b + over, sizeof(sigset_t))
FAMILY_CASE(select_set, "Write", ZERO(FAMILY_SIZE), kasan_int_result = select(128, SET, NULL, NULL, &tv), b + over, FAMILY_SIZE)
FAMILY_CASE(pselect_set, "Write", ZERO(FAMILY_SIZE), kasan_int_result = pselect(128, NULL, SET, NULL, &ts, NULL), b + over, FAMILY_SIZE)
FAMILY_CASE(select_timeout, "Write", ZERO(FAMILY_SIZE), kasan_int_result = select(0, NULL, NULL, NULL, (struct timeval *)(b + over)), b + over, FAMILY_SIZE)
FAMILY_CASE_SIZED(epoll_wait_ev, sizeof(struct epoll_event), "Write", , kasan_int_result = epoll_wait(ep, EV, 1, 0), b + over, sizeof(struct epoll_event))
FAMILY_CASE_SIZED(epoll_pwait_ev, sizeof(struct epoll_event), "Write", , kasan_int_result = epoll_pwait(ep, EV, 1, 0, NULL), b + over, sizeof(struct epoll_event))
FAMILY_CASE_SIZED(epoll_pwait2_ev, sizeof(struct epoll_event), "Write", T0, kasan_int_result = epoll_pwait2(ep, EV, 1, &ts, NULL), b + over, sizeof(struct epoll_event))
FAMILY_CASE_SIZED(epoll_ctl_ev, sizeof(struct epoll_event), "Read", ZERO(sizeof(struct epoll_event)), kasan_int_result = epoll_ctl(ep, EPOLL_CTL_MOD, ep, EV), b + over, sizeof(struct epoll_event))

int main(void)
{
	ep = epoll_create1(0);
	if (ep < 0)
		kasan_test_fail("cannot make an epoll instance");
	FAMILY_RUN(poll_fds);
	FAMILY_RUN(ppoll_fds);
	FAMILY_RUN(poll_chk_fds);
	FAMILY_RUN(ppoll_chk_fds);
	FAMILY_RUN(ppoll_mask);
	FAMILY_RUN(select_set);
	FAMILY_RUN(pselect_set);
	FAMILY_RUN(select_timeout);
	FAMILY_RUN(epoll_wait_ev);
	FAMILY_RUN(epoll_pwait_ev);
	FAMILY_RUN(epoll_pwait2_ev);
	FAMILY_RUN(epoll_ctl_ev);
	return 0;
}
