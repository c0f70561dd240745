/* A server for check_leaks_pid.py: one request a line on standard input,
 * one answer a line on standard output. A request "leak" loses an object
 * allocated in lose_request_buffer, "big" one of 100000 bytes in
 * lose_big_buffer; "keep" keeps its object in a global
 * (no leak); "free" frees it. With the argument "seccomp" it first enters
 * a seccomp filter that lets only the system calls it needs through
 * (open and ptrace among those refused, with EPERM) and answers
 * "sandboxed" when an open is refused. With "clean", it never leaks. With
 * "thread", a thread first allocates an object in worker_buffer that only
 * its stack points to, and blocks in a read (not a leak). */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Not static: kept alive by the optimizer too. */
char *kept[64];
int nkept;

__attribute__((noinline)) void lose_request_buffer(const char *line)
{
	char *buf = malloc(48);
	strcpy(buf, line);
	__asm__ volatile("" : : "r"(buf) : "memory");
}

/* A large object (past a page: the generic heap's large regions). */
__attribute__((noinline)) void lose_big_buffer(const char *line)
{
	char *buf = malloc(100000);
	strcpy(buf, line);
	__asm__ volatile("" : : "r"(buf) : "memory");
}

__attribute__((noinline)) void keep_request_buffer(const char *line)
{
	char *buf = malloc(48);
	strcpy(buf, line);
	kept[nkept++ % 64] = buf;
}

static int worker_pipe[2];

__attribute__((noinline)) static char *worker_buffer(void)
{
	char *buf = malloc(40);
	strcpy(buf, "held by the worker's stack");
	return buf;
}

static void *worker(void *arg)
{
	char *volatile held = worker_buffer();
	char c;
	(void)arg;
	/* Its address taken: in an instrumented frame, so with
	 * kasan.stack_use_after_return=on (ukasan-cc) on a fake stack, which
	 * only the runtime knows of. */
	__asm__ volatile("" : : "r"(&held) : "memory");
	while (read(worker_pipe[0], &c, 1) > 0) /* blocks: no request comes */
		;
	return held;
}

#define ALLOW(nr)                                                                                  \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                           \
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static void sandbox(void)
{
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    ALLOW(SYS_read),
	    ALLOW(SYS_write),
	    ALLOW(SYS_fstat),
	    ALLOW(SYS_newfstatat),
	    ALLOW(SYS_brk),
	    ALLOW(SYS_mmap),
	    ALLOW(SYS_munmap),
	    ALLOW(SYS_mremap),
	    ALLOW(SYS_madvise),
	    ALLOW(SYS_mprotect),
	    ALLOW(SYS_futex),
	    ALLOW(SYS_exit),
	    ALLOW(SYS_exit_group),
	    ALLOW(SYS_rt_sigreturn),
	    ALLOW(SYS_restart_syscall),
	    ALLOW(SYS_clock_gettime),
	    ALLOW(SYS_gettid),
	    ALLOW(SYS_getpid),
	    ALLOW(SYS_lseek),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		exit(3);
	}
	int fd = open("/etc/hostname", O_RDONLY);
	printf(fd < 0 && errno == EPERM ? "sandboxed\n" : "not sandboxed\n");
	fflush(stdout);
}

/* The dead stack a request's calls leave below main's frame: the next
 * read's frames (stdio's) reuse it without writing every slot, and a stale
 * pointer to the lost object there would be a reference (a conservative
 * scan's known miss, not the behaviour these checks are about). Cleared
 * after each request, as the exit-check tests' clear_stack does; not
 * instrumented, so that the buffer is on the real stack (no fake frame)
 * and covers its frame (no redzones left unwritten around it). */
__attribute__((noinline, no_sanitize("address"))) static void clear_dead_stack(void)
{
	volatile char buf[16384];
	memset((char *)buf, 0, sizeof(buf));
	__asm__ volatile("" : : "r"(buf) : "memory");
}

int main(int argc, char **argv)
{
	int clean = argc > 1 && !strcmp(argv[1], "clean");
	if (argc > 1 && !strcmp(argv[1], "seccomp"))
		sandbox();
	pthread_t t;
	if (argc > 1 && !strcmp(argv[1], "thread") &&
	    (pipe(worker_pipe) || pthread_create(&t, NULL, worker, NULL)))
		return 3;
	char line[128];
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "leak", 4) && !clean)
			lose_request_buffer(line);
		else if (!strncmp(line, "big", 3) && !clean)
			lose_big_buffer(line);
		else
			keep_request_buffer(line);
		clear_dead_stack(); /* before the answer, after which a check may come */
		printf("done %s", line);
		fflush(stdout);
	}
	return 0;
}
