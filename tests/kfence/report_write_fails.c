// RUN: kfence.sample_rate=1
// A report's write that fails must not end the program: stderr a pipe
// whose reader is gone (SIGPIPE at its default), then a regular file past
// RLIMIT_FSIZE (SIGXFSZ at its default), the limit set through libc and
// then by a raw system call.
// STDOUT: alive after a broken pipe
// STDOUT: alive past the file size limit (libc)
// STDOUT: alive past the file size limit (raw)
// STDOUT: file empty
// NOT: BUG: KFENCE
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kfence_test.h"

int main(void)
{
	int fds[2];
	signal(SIGPIPE, SIG_DFL);
	if (pipe(fds))
		return 90;
	int saved = dup(2);
	close(fds[0]);
	dup2(fds[1], 2);
	report_use_after_free();
	printf("alive after a broken pipe\n");
	fflush(stdout);

	char path[] = "/tmp/ukasan-fsize-XXXXXX";
	int fd = mkstemp(path);
	dup2(fd, 2);
	struct rlimit zero = {0, RLIM_INFINITY};
	setrlimit(RLIMIT_FSIZE, &zero);
	report_use_after_free();
	printf("alive past the file size limit (libc)\n");
	fflush(stdout);

	struct rlimit one = {1, RLIM_INFINITY};
	setrlimit(RLIMIT_FSIZE, &one);
	syscall(SYS_prlimit64, 0, RLIMIT_FSIZE, &zero, NULL);
	report_use_after_free();
	printf("alive past the file size limit (raw)\n");

	struct stat st;
	fstat(fd, &st);
	printf("file %s\n", st.st_size ? "written" : "empty");
	unlink(path);
	dup2(saved, 2);
	return 0;
}
