// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// RUN: kasan_multi_shot ukasan.log_path=/tmp/ukasan-fsize-log
// RUN-ALSO: kasan_multi_shot
// A program that limits the size of the files it writes (RLIMIT_FSIZE, a
// sandbox's measure) is not killed by SIGXFSZ for ukasan's reports: the
// log (ukasan.log_path's file; in the second run stderr itself, a regular
// file as with 2>file) takes what fits under the limit, and what does not
// is dropped and counted in the run's last line; the run ends with
// ukasan's report status, not the signal. The limit is read at each
// write: the child raises it again before it exits, and its last line
// is written. With the log file full, the second report goes to stderr
// (the test's pipe in the first run; the same full file in the second,
// where it is cut too).
// STDOUT: child exited with status 1
// STDOUT: file starts with the first report, cut at the limit
// STDOUT: last line counts the reports cut short
#define _GNU_SOURCE
#include "kasan_test.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIMIT 700

KASAN_TEST void log_path_fsize_limit(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	((volatile char *)a)[16] = 1;
	free(a);
}

static char file[64];

static void child(int to_log)
{
	signal(SIGXFSZ, SIG_DFL);
	if (!to_log) {
		int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) != 2)
			_exit(90);
		close(fd);
	}
	struct rlimit rl = {LIMIT, RLIM_INFINITY};
	setrlimit(RLIMIT_FSIZE, &rl);
	log_path_fsize_limit();
	log_path_fsize_limit();
	rl.rlim_cur = RLIM_INFINITY;
	setrlimit(RLIMIT_FSIZE, &rl);
	exit(0);
}

int main(void)
{
	const char *opts = getenv("UKASAN_OPTIONS");
	int to_log = opts && strstr(opts, "log_path");
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		if (to_log)
			snprintf(file, sizeof(file), "/tmp/ukasan-fsize-log.%d", (int)getpid());
		else
			snprintf(file, sizeof(file), "/tmp/ukasan-fsize-err.%d", (int)getpid());
		child(to_log);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("child killed by signal %d\n", WTERMSIG(status));
	else
		printf("child exited with status %d\n", WEXITSTATUS(status));

	static char buf[65536];
	snprintf(file, sizeof(file), "/tmp/ukasan-fsize-%s.%d", to_log ? "log" : "err", (int)pid);
	int fd = open(file, O_RDONLY);
	long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	buf[n > 0 ? n : 0] = 0;
	unlink(file);
	char *last = strstr(buf, "ukasan: 2 reports in this run");
	long before = last ? last - buf : n;
	printf("file %s the first report, %s\n",
	       strstr(buf, "BUG: KASAN: slab-out-of-bounds in log_path_fsize_limit") ? "starts with"
	                                                                             : "lacks",
	       before == LIMIT ? "cut at the limit" : "not cut at the limit");
	char want[64];
	snprintf(want, sizeof(want), "; %d cut short, ", to_log ? 1 : 2);
	printf("last line %s\n",
	       last && strstr(last, want) &&
	               strstr(last, "bytes left out: the program's file size limit (RLIMIT_FSIZE); "
	                            "exit status 1 instead of 0")
	           ? "counts the reports cut short"
	           : "missing or without the count");
	fflush(stdout);
	return 0;
}
