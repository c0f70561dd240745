/* ioctl and ptrace: the kernel reads and writes program memory through the
 * pointer they pass, by a size the request implies. Checked before the call
 * (io.h), the structure the kernel fills as a write and the one it reads as
 * a read; a bad one fails the call with EFAULT. A request not known here is
 * decoded from its number where it carries a direction and a size (_IOR,
 * _IOW, _IOWR), as AddressSanitizer decodes it; others pass unchecked. */
#define _GNU_SOURCE
#include <linux/fs.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <termios.h>

#include "io.h"

enum dir { IN = 1, OUT = 2 }; /* the kernel reads, writes the argument */

struct ioctl_desc {
	unsigned long req;
	unsigned char dir;
	unsigned short size;
};

/* The requests older than the _IOC encoding (their numbers carry no size),
 * and those common enough to name. */
static const struct ioctl_desc known[] = {
    {FIONREAD, OUT, sizeof(int)},
    {TIOCOUTQ, OUT, sizeof(int)},
    {FIONBIO, IN, sizeof(int)},
    {FIOASYNC, IN, sizeof(int)},
    {TIOCGWINSZ, OUT, sizeof(struct winsize)},
    {TIOCSWINSZ, IN, sizeof(struct winsize)},
    {TIOCGPGRP, OUT, sizeof(pid_t)},
    {TIOCSPGRP, IN, sizeof(pid_t)},
    {TIOCMGET, OUT, sizeof(int)},
    {TIOCMSET, IN, sizeof(int)},
    {TIOCGPTN, OUT, sizeof(unsigned)},
    {SIOCATMARK, OUT, sizeof(int)},
    {SIOCGIFNAME, IN | OUT, sizeof(struct ifreq)},
    {SIOCGIFINDEX, IN | OUT, sizeof(struct ifreq)},
    {SIOCGIFFLAGS, IN | OUT, sizeof(struct ifreq)},
    {SIOCGIFADDR, IN | OUT, sizeof(struct ifreq)},
    {SIOCGIFNETMASK, IN | OUT, sizeof(struct ifreq)},
    {SIOCGIFBRDADDR, IN | OUT, sizeof(struct ifreq)},
    {SIOCGIFHWADDR, IN | OUT, sizeof(struct ifreq)},
    {SIOCGIFMTU, IN | OUT, sizeof(struct ifreq)},
    {BLKGETSIZE, OUT, sizeof(long)},
    {BLKSSZGET, OUT, sizeof(int)},
};

static int lookup(unsigned long req, struct ioctl_desc *d)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].req == req) {
			*d = known[i];
			return 1;
		}
	unsigned dir = _IOC_DIR(req), size = _IOC_SIZE(req);
	if (dir == _IOC_NONE || !size)
		return 0;
	d->req = req;
	d->size = (unsigned short)size;
	d->dir = (unsigned char)(((dir & _IOC_WRITE) ? IN : 0) | ((dir & _IOC_READ) ? OUT : 0));
	return 1;
}

static int check_arg(const void *p, const struct ioctl_desc *d, uintptr_t ip)
{
	if ((d->dir & IN) && !check_range((uintptr_t)p, d->size, 0, ip))
		return 0;
	return !(d->dir & OUT) || check_range((uintptr_t)p, d->size, 1, ip);
}

/* SIOCGIFCONF: the struct both ways, and the buffer it names written over
 * the length it states (NULL asks only for the length). */
static int check_ifconf(struct ifconf *c, uintptr_t ip)
{
	if (!check_range((uintptr_t)c, sizeof(*c), 0, ip) ||
	    !check_range((uintptr_t)c, sizeof(*c), 1, ip))
		return 0;
	return !c->ifc_buf || c->ifc_len <= 0 ||
	       check_range((uintptr_t)c->ifc_buf, (size_t)c->ifc_len, 1, ip);
}

LIBC(ioctl)

/* glibc declares it variadic; the argument, when there is one, is a word. */
INTERPOSER int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	struct ioctl_desc d;
	int ok = 1;
	if (req == SIOCGIFCONF)
		ok = check_ifconf(arg, RET_IP);
	else if (lookup(req, &d))
		ok = check_arg(arg, &d, RET_IP);
	if (!ok) {
		errno = EFAULT;
		return -1;
	}
	return get_ioctl()(fd, req, arg);
}

/* What a request's data points at, and which way. PTRACE_PEEK* are left
 * out: glibc's wrapper gives the kernel a word of its own for them and
 * returns the value, never writing the program's data. */
static int ptrace_desc(int req, struct ioctl_desc *d)
{
	switch (req) {
#ifdef __x86_64__
	case PTRACE_GETREGS:
		*d = (struct ioctl_desc){0, OUT, sizeof(struct user_regs_struct)};
		return 1;
	case PTRACE_SETREGS:
		*d = (struct ioctl_desc){0, IN, sizeof(struct user_regs_struct)};
		return 1;
	case PTRACE_GETFPREGS:
		*d = (struct ioctl_desc){0, OUT, sizeof(struct user_fpregs_struct)};
		return 1;
	case PTRACE_SETFPREGS:
		*d = (struct ioctl_desc){0, IN, sizeof(struct user_fpregs_struct)};
		return 1;
#endif
	case PTRACE_GETSIGINFO:
		*d = (struct ioctl_desc){0, OUT, sizeof(siginfo_t)};
		return 1;
	case PTRACE_SETSIGINFO:
		*d = (struct ioctl_desc){0, IN, sizeof(siginfo_t)};
		return 1;
	case PTRACE_GETEVENTMSG:
		*d = (struct ioctl_desc){0, OUT, sizeof(unsigned long)};
		return 1;
	}
	return 0;
}

LIBC(ptrace)

/* PTRACE_GETREGSET/SETREGSET: the iovec is read, and written back with the
 * length the kernel filled; its buffer over iov_len. */
INTERPOSER long ptrace(enum __ptrace_request req, ...)
{
	va_list ap;
	va_start(ap, req);
	pid_t pid = va_arg(ap, pid_t);
	void *addr = va_arg(ap, void *);
	void *data = va_arg(ap, void *);
	va_end(ap);
	struct ioctl_desc d;
	int ok = 1;
	if (req == PTRACE_GETREGSET || req == PTRACE_SETREGSET) {
		struct iovec *v = data;
		ok =
		    check_range((uintptr_t)v, sizeof(*v), 0, RET_IP) &&
		    (req == PTRACE_SETREGSET || check_range((uintptr_t)v, sizeof(*v), 1, RET_IP)) &&
		    check_range((uintptr_t)v->iov_base, v->iov_len, req == PTRACE_GETREGSET,
		                RET_IP);
	} else if (ptrace_desc(req, &d)) {
		ok = check_arg(data, &d, RET_IP);
	}
	if (!ok) {
		errno = EFAULT;
		return -1;
	}
	return get_ptrace()(req, pid, addr, data);
}
