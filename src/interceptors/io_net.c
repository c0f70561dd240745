/* Sockets, pipes and waiting on descriptors: the data buffers, the socket
 * addresses and options going in (read: addrlen bytes) and coming out
 * (written: up to the *addrlen the caller states), the descriptor pairs
 * written, and the poll, select and epoll arrays. Checked before the call,
 * as the kernel checks them (io.h); a bad one fails the call with EFAULT. */
#define _GNU_SOURCE
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include "io.h"

int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen);
int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask,
                size_t fdslen);

#define CHECK(p, n, write, ip) __ukasan_check_range((uintptr_t)(p), (n), (write), (ip))

/* An address going in: the kernel copies len bytes, unless len is out of
 * its range (then EINVAL, nothing read). */
static int addr_in(const void *a, socklen_t len, uintptr_t ip)
{
	return len == 0 || len > sizeof(struct sockaddr_storage) || CHECK(a, len, 0, ip);
}

/* An address coming out: *len is read and written, a up to *len bytes.
 * (The kernel fails a missing len with EFAULT.) */
static int addr_out(void *a, socklen_t *len, uintptr_t ip)
{
	return !a || !len ||
	       (CHECK(len, sizeof(*len), 1, ip) && ((int)*len <= 0 || CHECK(a, *len, 1, ip)));
}

/* The header is read (and, for recvmsg, written back); the name, the
 * data and the control buffers are what the kernel fills or drains. */
static int check_msg(const struct msghdr *m, int write, uintptr_t ip)
{
	return !m || (CHECK(m, sizeof(*m), write, ip) &&
	              (!m->msg_name || CHECK(m->msg_name, m->msg_namelen, write, ip)) &&
	              io_check_iov(m->msg_iov, m->msg_iovlen, write, ip) &&
	              (!m->msg_control || CHECK(m->msg_control, m->msg_controllen, write, ip)));
}

static int check_mmsg(struct mmsghdr *v, unsigned int n, int write, uintptr_t ip)
{
	if (n > IOV_MAX)
		n = IOV_MAX;
	if (!v)
		return 1;
	if (!CHECK(v, n * sizeof(*v), 1, ip))
		return 0;
	for (unsigned int i = 0; i < n; i++)
		if (!check_msg(&v[i].msg_hdr, write, ip))
			return 0;
	return 1;
}

/* The bytes of a select set for nfds descriptors: the kernel copies whole
 * longs, in and out. */
static int check_fds(fd_set *s, int nfds, uintptr_t ip)
{
	return !s || nfds <= 0 || CHECK(s, ((size_t)nfds + 63) / 64 * 8, 1, ip);
}

#define CHECK_SELECT(n, r, w, e)                                                                   \
	(check_fds(r, n, RET_IP) && check_fds(w, n, RET_IP) && check_fds(e, n, RET_IP))

/* The kernel reads each whole pollfd, and writes revents back. */
#define CHECK_POLL(fds, n) CHECK_READ(fds, (n) * sizeof(struct pollfd))
#define CHECK_MASK(m)      CHECK_READ_OPT(m, sizeof(sigset_t))
#define CHECK_EVENTS(e, n) ((n) <= 0 || CHECK_WRITE(e, (size_t)(n) * sizeof(struct epoll_event)))

// clang-format off
CHECKED(ssize_t, recv, (int fd, void *buf, size_t n, int flags), (fd, buf, n, flags),
	CHECK_WRITE(buf, n), -1)
CHECKED(ssize_t, send, (int fd, const void *buf, size_t n, int flags), (fd, buf, n, flags),
	CHECK_READ(buf, n), -1)
CHECKED(ssize_t, recvfrom,
	(int fd, void *buf, size_t n, int flags, struct sockaddr *from, socklen_t *len),
	(fd, buf, n, flags, from, len), CHECK_WRITE(buf, n) && addr_out(from, len, RET_IP), -1)
CHECKED(ssize_t, sendto,
	(int fd, const void *buf, size_t n, int flags, const struct sockaddr *to, socklen_t len),
	(fd, buf, n, flags, to, len), CHECK_READ(buf, n) && (!to || addr_in(to, len, RET_IP)), -1)
CHECKED(ssize_t, recvmsg, (int fd, struct msghdr *m, int flags), (fd, m, flags),
	check_msg(m, 1, RET_IP), -1)
CHECKED(ssize_t, sendmsg, (int fd, const struct msghdr *m, int flags), (fd, m, flags),
	check_msg(m, 0, RET_IP), -1)
CHECKED(int, recvmmsg,
	(int fd, struct mmsghdr *v, unsigned int n, int flags, struct timespec *timeout),
	(fd, v, n, flags, timeout),
	check_mmsg(v, n, 1, RET_IP) && CHECK_WRITE_OPT(timeout, sizeof(*timeout)), -1)
CHECKED(int, sendmmsg, (int fd, struct mmsghdr *v, unsigned int n, int flags), (fd, v, n, flags),
	check_mmsg(v, n, 0, RET_IP), -1)

CHECKED(int, accept, (int fd, struct sockaddr *a, socklen_t *len), (fd, a, len),
	addr_out(a, len, RET_IP), -1)
CHECKED(int, accept4, (int fd, struct sockaddr *a, socklen_t *len, int flags), (fd, a, len, flags),
	addr_out(a, len, RET_IP), -1)
CHECKED(int, getsockname, (int fd, struct sockaddr *a, socklen_t *len), (fd, a, len),
	addr_out(a, len, RET_IP), -1)
CHECKED(int, getpeername, (int fd, struct sockaddr *a, socklen_t *len), (fd, a, len),
	addr_out(a, len, RET_IP), -1)
CHECKED(int, bind, (int fd, const struct sockaddr *a, socklen_t len), (fd, a, len),
	addr_in(a, len, RET_IP), -1)
CHECKED(int, connect, (int fd, const struct sockaddr *a, socklen_t len), (fd, a, len),
	addr_in(a, len, RET_IP), -1)
/* The option's value is written up to the *len stated, as an address. */
CHECKED(int, getsockopt, (int fd, int level, int name, void *val, socklen_t *len),
	(fd, level, name, val, len),
	!len || (CHECK_WRITE(len, sizeof(*len)) && ((int)*len <= 0 || CHECK_WRITE(val, *len))), -1)
CHECKED(int, setsockopt, (int fd, int level, int name, const void *val, socklen_t len),
	(fd, level, name, val, len), (int)len <= 0 || CHECK_READ(val, len), -1)
CHECKED(int, socketpair, (int domain, int type, int proto, int sv[2]), (domain, type, proto, sv),
	CHECK_WRITE(sv, 2 * sizeof(int)), -1)
CHECKED(int, pipe, (int fds[2]), (fds), CHECK_WRITE(fds, 2 * sizeof(int)), -1)
/* libukasan.so makes a pipe to its symbolizer. */
CHECKED(int, pipe2, (int fds[2], int flags), (fds, flags),
	FROM_RUNTIME || CHECK_WRITE(fds, 2 * sizeof(int)), -1)

/* ... and waits for it. */
CHECKED(int, poll, (struct pollfd *fds, nfds_t n, int timeout), (fds, n, timeout),
	FROM_RUNTIME || CHECK_POLL(fds, n), -1)
CHECKED(int, ppoll,
	(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask),
	(fds, n, timeout, mask),
	CHECK_POLL(fds, n) && CHECK_READ_OPT(timeout, sizeof(*timeout)) && CHECK_MASK(mask), -1)
CHECKED_CHK(int, __poll_chk, (struct pollfd *fds, nfds_t n, int timeout, size_t fdslen),
	(fds, n, timeout, fdslen), CHECK_POLL(fds, n), fdslen / sizeof(*fds) < n, -1)
CHECKED_CHK(int, __ppoll_chk,
	(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask,
	 size_t fdslen),
	(fds, n, timeout, mask, fdslen),
	CHECK_POLL(fds, n) && CHECK_READ_OPT(timeout, sizeof(*timeout)) && CHECK_MASK(mask),
	fdslen / sizeof(*fds) < n, -1)
/* Linux writes what is left of the timeout back. */
CHECKED(int, select, (int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *timeout),
	(n, r, w, e, timeout),
	CHECK_SELECT(n, r, w, e) && CHECK_WRITE_OPT(timeout, sizeof(*timeout)), -1)
CHECKED(int, pselect,
	(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *timeout,
	 const sigset_t *mask),
	(n, r, w, e, timeout, mask),
	CHECK_SELECT(n, r, w, e) && CHECK_READ_OPT(timeout, sizeof(*timeout)) && CHECK_MASK(mask),
	-1)
CHECKED(int, epoll_wait, (int ep, struct epoll_event *e, int n, int timeout), (ep, e, n, timeout),
	CHECK_EVENTS(e, n), -1)
CHECKED(int, epoll_pwait,
	(int ep, struct epoll_event *e, int n, int timeout, const sigset_t *mask),
	(ep, e, n, timeout, mask), CHECK_EVENTS(e, n) && CHECK_MASK(mask), -1)
CHECKED(int, epoll_pwait2,
	(int ep, struct epoll_event *e, int n, const struct timespec *timeout,
	 const sigset_t *mask),
	(ep, e, n, timeout, mask),
	CHECK_EVENTS(e, n) && CHECK_READ_OPT(timeout, sizeof(*timeout)) && CHECK_MASK(mask), -1)
/* EPOLL_CTL_DEL takes no event. */
CHECKED(int, epoll_ctl, (int ep, int op, int fd, struct epoll_event *e), (ep, op, fd, e),
	op == EPOLL_CTL_DEL || CHECK_READ(e, sizeof(*e)), -1)
// clang-format on
