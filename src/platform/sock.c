/* Datagrams to a local socket (syslog's /dev/log, journald's socket), by
 * raw system calls: libc's syslog() takes a lock the program may hold when
 * a report comes (a signal handler that interrupted it), and the
 * program's own sendmsg may be an interceptor of ukasan's. */
#include "os.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <time.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "../base/compiler.h"

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC       1u
#define MFD_ALLOW_SEALING 2u
#endif
#ifndef F_ADD_SEALS
#define F_ADD_SEALS   1033
#define F_SEAL_SEAL   1
#define F_SEAL_SHRINK 2
#define F_SEAL_GROW   4
#define F_SEAL_WRITE  8
#endif

/* Whether the socket takes another datagram within wait_ms: a connected
 * datagram socket polls writable only while its peer's queue has room. */
static int room_within(long s, int wait_ms)
{
	if (wait_ms <= 0)
		return 0;
	uint64_t end = os_now_ns() + (uint64_t)wait_ms * 1000000u;
	for (;;) {
		uint64_t now = os_now_ns();
		if (now >= end)
			return 0;
		struct timespec left = {(time_t)((end - now) / 1000000000u),
		                        (long)((end - now) % 1000000000u)};
		struct pollfd p = {.fd = (int)s, .events = POLLOUT};
		long r = os_syscall(SYS_ppoll, &p, 1ul, &left, NULL, 0ul);
		if (r < 0 && errno == EINTR)
			continue;
		return r > 0 && (p.revents & POLLOUT);
	}
}

int os_dgram_send(const char *path, const struct os_iov *iov, int niov, int pass_fd, int wait_ms)
{
	struct sockaddr_un addr;
	size_t plen = strlen(path);
	if (plen >= sizeof(addr.sun_path) || niov > 8)
		return -EINVAL;
	rt_memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	rt_memcpy(addr.sun_path, path, plen);
	long s = os_syscall(SYS_socket, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	/* Connected, so that poll can tell when the receiver has room. */
	socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen + 1);
	if (os_syscall(SYS_connect, s, &addr, alen) != 0) {
		int err = errno;
		os_syscall(SYS_close, s);
		return -err;
	}
	struct iovec v[8];
	for (int i = 0; i < niov; i++) {
		v[i].iov_base = (void *)iov[i].base;
		v[i].iov_len = iov[i].len;
	}
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	struct msghdr msg;
	rt_memset(&msg, 0, sizeof(msg));
	msg.msg_iov = v;
	msg.msg_iovlen = (size_t)niov;
	if (pass_fd >= 0) {
		rt_memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		rt_memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
	}
	/* Never blocking: a receiver that stopped reading would hold the
	 * program here for good. One that is only slow gets wait_ms. */
	int err = 0, waited = 0;
	for (;;) {
		if (os_syscall(SYS_sendmsg, s, &msg, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0) {
			err = 0;
			break;
		}
		err = errno == EWOULDBLOCK ? EAGAIN : errno;
		if (err == EINTR)
			continue;
		if (err != EAGAIN || waited || !room_within(s, wait_ms))
			break;
		waited = 1;
	}
	os_syscall(SYS_close, s);
	return -err;
}

int os_sealed_memfd(const struct os_iov *iov, int niov)
{
	/* A memfd is a file, under RLIMIT_FSIZE as any: a message past the
	 * program's limit is not written (SIGXFSZ), and goes to the file or
	 * stderr instead (a finite limit is taken as no room once the process
	 * may be sandboxed, as for files: it is not read again then). */
	uint64_t limit = os_fsize_limit(), total = 0;
	for (int i = 0; i < niov; i++)
		total += iov[i].len;
	if (limit != OS_UNLIMITED && (os_sandboxed() || total > limit))
		return -EFBIG;
	long fd = os_syscall(SYS_memfd_create, "ukasan-report", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	for (int i = 0; i < niov; i++) {
		const char *p = iov[i].base;
		size_t left = iov[i].len;
		while (left) {
			long n = os_syscall(SYS_write, fd, p, left);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				os_syscall(SYS_close, fd);
				return -EIO;
			}
			p += n;
			left -= (size_t)n;
		}
	}
	/* journald takes only a memfd no one can change any more. */
	if (os_syscall(SYS_fcntl, fd, F_ADD_SEALS,
	               F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0) {
		os_syscall(SYS_close, fd);
		return -EIO;
	}
	return (int)fd;
}
