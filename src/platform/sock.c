/* Datagrams to a local socket (syslog's /dev/log, journald's socket), by
 * raw system calls: libc's syslog() takes a lock the program may hold when
 * a report comes (a signal handler that interrupted it), and the
 * program's own sendmsg may be an interceptor of ukasan's. */
#include "os.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
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

int os_dgram_send(const char *path, const struct os_iov *iov, int niov, int pass_fd)
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
	msg.msg_name = &addr;
	msg.msg_namelen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen + 1);
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
	long n;
	do
		n = os_syscall(SYS_sendmsg, s, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	int err = n < 0 ? errno : 0;
	os_syscall(SYS_close, s);
	return -err;
}

int os_sealed_memfd(const struct os_iov *iov, int niov)
{
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
