/* A child that sandboxes itself as OpenSSH's pre-authentication child does
 * (sandbox-seccomp-filter.c): a chroot into an empty directory (as root),
 * RLIMIT_FSIZE, RLIMIT_NOFILE and RLIMIT_NPROC at 0, no new privileges,
 * and a seccomp filter that allows the same short list of system calls,
 * answers EACCES to open and stat, and kills the process on any other
 * (rt_sigreturn, gettid, fcntl, readlink, prctl, execve, vfork among
 * them). Then it misuses guarded objects: a read after free (a fault) and
 * a write past the end (found at free). The child must report both and
 * run on to exit(0); the parent tells how it ended. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kfence_test.h"

#define ALLOW(nr)                                                                                  \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define DENY(nr, e)                                                                                \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                           \
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((e)&SECCOMP_RET_DATA))

static void enter_sandbox(const char *empty_dir)
{
	static struct sock_filter insns[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    DENY(__NR_open, EACCES), DENY(__NR_openat, EACCES), DENY(__NR_fstat, EACCES),
	    DENY(__NR_newfstatat, EACCES), DENY(__NR_stat, EACCES), DENY(__NR_lstat, EACCES),
	    ALLOW(__NR_brk), ALLOW(__NR_clock_gettime), ALLOW(__NR_close), ALLOW(__NR_exit),
	    ALLOW(__NR_exit_group), ALLOW(__NR_futex), ALLOW(__NR_geteuid), ALLOW(__NR_getpgid),
	    ALLOW(__NR_getpid), ALLOW(__NR_getrandom), ALLOW(__NR_gettimeofday), ALLOW(__NR_getuid),
	    ALLOW(__NR_madvise), ALLOW(__NR_mmap), ALLOW(__NR_mprotect), ALLOW(__NR_mremap),
	    ALLOW(__NR_munmap), ALLOW(__NR_nanosleep), ALLOW(__NR_clock_nanosleep), ALLOW(__NR_poll),
	    ALLOW(__NR_ppoll), ALLOW(__NR_pselect6), ALLOW(__NR_read), ALLOW(__NR_rt_sigprocmask),
	    ALLOW(__NR_select), ALLOW(__NR_shutdown), ALLOW(__NR_time), ALLOW(__NR_write),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	static struct sock_fprog prog = {sizeof(insns) / sizeof(insns[0]), insns};
	struct rlimit zero = {0, 0};
	if (geteuid() == 0 && (chroot(empty_dir) != 0 || chdir("/") != 0))
		_exit(80);
	if (setrlimit(RLIMIT_FSIZE, &zero) || setrlimit(RLIMIT_NOFILE, &zero) ||
	    setrlimit(RLIMIT_NPROC, &zero))
		_exit(81);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		_exit(82);
}

__attribute__((noinline)) static void write_past_end(volatile char *p, size_t n) { p[n + 1] = 'x'; }

static void sandboxed_child(void)
{
	/* Taken before the sandbox, as a server's objects are. */
	char *p = test_alloc(40, ANY);
	char *q = test_alloc(21, RIGHT);
	char dir[] = "/tmp/ukasan-chroot-XXXXXX";
	if (!mkdtemp(dir))
		_exit(79);
	enter_sandbox(dir);
	free(p);
	read_after_free(p);
	write_past_end(q, 21);
	free(q);
	printf("child ran on\n");
	exit(0);
}

/* The child's pid, after it ended as it should; or 0. */
static pid_t run_sandboxed_child(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		sandboxed_child();
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return 0;
	if (WIFSIGNALED(st)) {
		printf("child killed by signal %d\n", WTERMSIG(st));
		return 0;
	}
	printf("child exited with %d\n", WEXITSTATUS(st));
	return WEXITSTATUS(st) == 0 ? pid : 0;
}
