/* What a report says about the process, and whether it may be sandboxed.
 *
 * A program may enter a seccomp filter, a chroot or a zero RLIMIT_FSIZE at
 * any time after start (OpenSSH's pre-authentication child does all three),
 * and a filter kills on the first system call it does not allow. So the
 * facts a report needs that cost a system call beyond a write (the
 * executable's path, the task name, the file size limit) are read while the
 * process is known to be free, and once it may be sandboxed they are only
 * read from here.
 *
 * And the process's environment, read without libc's getenv, before libc
 * has set environ too. */
#define _GNU_SOURCE
#include "os.h"
#include "sys.h"

#include <fcntl.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../base/compiler.h"

static char exe_path[512];
static char comm[16] = "?";
/* 0: free; FROM_START: a filter was in force at exec, and since the
 * dynamic linker loaded ukasan under it, it allows opening, reading and
 * mapping files (a seccomp filter cannot tell one path from another);
 * ANNOUNCED: the program sandboxed itself, and anything beyond the report
 * path's short list may be refused. */
enum { FREE, FROM_START, ANNOUNCED };
static int sandboxed;
static uint64_t fsize_limit = OS_UNLIMITED;

/* "Seccomp:" of /proc/self/status: a filter set before exec (systemd's
 * SystemCallFilter=, a container runtime's) is in force from the start. */
static int seccomp_in_force(void)
{
	/* At start and on a sandbox notice, one thread. One page, not two. */
	static char buf[4096] __attribute__((aligned(4096)));
	if (os_read_small("/proc/self/status", buf, sizeof(buf)) < 0)
		return 0;
	const char *s = buf;
	while (*s && strncmp(s, "\nSeccomp:", 9))
		s++;
	if (!*s)
		return 0;
	for (s += 9; *s == ' ' || *s == '\t'; s++)
		;
	return *s && *s != '0';
}

static void read_fsize_limit(void)
{
	struct rlimit rl;
	if (os_syscall(SYS_prlimit64, 0, RLIMIT_FSIZE, NULL, &rl) == 0)
		fsize_limit = rl.rlim_cur == RLIM_INFINITY ? OS_UNLIMITED : (uint64_t)rl.rlim_cur;
}

/* The task name from /proc: the dynamic linker needed open and read to
 * load ukasan, so any filter in force at start allows them. */
static void read_comm_file(void)
{
	char buf[32];
	int fd = os_open_read("/proc/thread-self/comm");
	if (fd < 0)
		return;
	long n = os_read(fd, buf, sizeof(buf) - 1);
	os_close(fd);
	if (n <= 0)
		return;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n < 15 ? n : 15] = 0;
	rt_memcpy(comm, buf, 16);
}

/* At start a filter set before exec may already be in force, and it may
 * refuse readlink and prctl: those are used only when none is. */
void os_process_capture(void)
{
	if (__atomic_load_n(&sandboxed, __ATOMIC_RELAXED))
		return;
	if (seccomp_in_force()) {
		if (!exe_path[0] && getauxval(AT_EXECFN))
			strncpy(exe_path, (const char *)getauxval(AT_EXECFN), sizeof(exe_path) - 1);
		read_comm_file();
		__atomic_store_n(&sandboxed, FROM_START, __ATOMIC_RELEASE);
		return;
	}
	if (!exe_path[0]) {
		long n = os_syscall(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", exe_path,
		                    sizeof(exe_path) - 1);
		if (n > 0)
			exe_path[n] = 0;
		else if (getauxval(AT_EXECFN))
			strncpy(exe_path, (const char *)getauxval(AT_EXECFN), sizeof(exe_path) - 1);
	}
	os_syscall(SYS_prctl, PR_GET_NAME, comm, 0, 0, 0);
	read_fsize_limit();
}

void os_sandbox_enter(void)
{
	__atomic_store_n(&sandboxed, ANNOUNCED, __ATOMIC_RELEASE);
}

int os_seccomp_now(void)
{
	return seccomp_in_force();
}

int os_sandboxed(void)
{
	return __atomic_load_n(&sandboxed, __ATOMIC_ACQUIRE) != FREE;
}

int os_may_open_files(void)
{
	return __atomic_load_n(&sandboxed, __ATOMIC_ACQUIRE) != ANNOUNCED;
}

int os_self_exe(char *buf, size_t len)
{
	if (!exe_path[0] || len == 0)
		return -1;
	size_t n = strlen(exe_path);
	if (n >= len)
		n = len - 1;
	rt_memcpy(buf, exe_path, n);
	buf[n] = 0;
	return 0;
}

/* The calling thread's name while the process is free to ask (from /proc
 * under a filter set before exec); the name read last before a sandbox
 * afterwards. */
void os_task_name(char name[16])
{
	char now[16] = {0};
	if (!os_sandboxed() && os_syscall(SYS_prctl, PR_GET_NAME, now, 0, 0, 0) == 0)
		rt_memcpy(comm, now, sizeof(comm));
	else if (os_sandboxed() && os_may_open_files())
		read_comm_file();
	rt_memcpy(name, comm, 16);
	name[15] = 0;
}

void os_note_task_name(const char *name)
{
	strncpy(comm, name, sizeof(comm) - 1);
}

uint64_t os_fsize_limit(void)
{
	if (!os_sandboxed())
		read_fsize_limit();
	return __atomic_load_n(&fsize_limit, __ATOMIC_RELAXED);
}

void os_note_fsize_limit(uint64_t limit)
{
	__atomic_store_n(&fsize_limit, limit, __ATOMIC_RELAXED);
}

int os_pages_from_file(uintptr_t lo, uintptr_t hi)
{
	if (!os_may_open_files() || hi <= lo)
		return 0;
	int fd = os_open_raw("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return 0;
	size_t page = os_page_size();
	uint64_t e[128];
	int ok = 1;
	for (uintptr_t a = lo; ok && a < hi; a += sizeof(e) / sizeof(e[0]) * page) {
		size_t want = (hi - a + page - 1) / page;
		want = want < sizeof(e) / sizeof(e[0]) ? want : sizeof(e) / sizeof(e[0]);
		long got =
		    os_syscall(SYS_pread64, fd, e, want * sizeof(e[0]), a / page * sizeof(e[0]));
		if (got != (long)(want * sizeof(e[0])))
			ok = 0;
		/* bit 63: in memory, 62: swapped (an anonymous page), 61: a
		 * file's page */
		for (size_t i = 0; ok && i < want; i++)
			if ((e[i] >> 62 & 1) || ((e[i] >> 63 & 1) && !(e[i] >> 61 & 1)))
				ok = 0;
	}
	os_close(fd);
	return ok;
}

/* ---- the environment ---- */

/* The value in one "NAME=value" entry when its name is name (k bytes). */
static const char *env_value(const char *entry, const char *name, size_t k)
{
	return !strncmp(entry, name, k) && entry[k] == '=' ? entry + k + 1 : NULL;
}

/* The environment the process started with, for a lookup before libc has
 * set environ: the runtime starts at the first allocation, and a program
 * linked with clang's UBSan runtime (any -fsanitize-coverage build: a
 * fuzzer's) makes one from its .preinit_array, where getenv finds nothing
 * and every option would be dropped unseen. Once, from the one thread. */
static const char *initial_env(const char *name)
{
	static char buf[65536];
	static long len = -1;
	if (len < 0) {
		int fd = os_open_read("/proc/self/environ");
		long n = 1;
		len = 0;
		while (fd >= 0 && n > 0 && len < (long)sizeof(buf) - 1) {
			n = os_read(fd, buf + len, sizeof(buf) - 1 - (size_t)len);
			len += n > 0 ? n : 0;
		}
		if (fd >= 0)
			os_close(fd);
		buf[len] = 0;
	}
	size_t k = strlen(name);
	const char *v = NULL;
	for (const char *e = buf; !v && e < buf + len; e += strlen(e) + 1)
		v = env_value(e, name, k);
	return v;
}

const char *os_getenv(const char *name)
{
	if (!environ)
		return initial_env(name);
	size_t k = strlen(name);
	const char *v = NULL;
	for (char **e = environ; !v && *e; e++)
		v = env_value(*e, name, k);
	return v;
}
