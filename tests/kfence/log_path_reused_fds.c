// RUN: kfence.sample_rate=1 ukasan.log_path=/tmp/ukasan-log-reuse
// A daemon closes every descriptor from 3 up (sshd's closefrom), and
// numbers ukasan held come back as the program's own files. ukasan's log
// must never be written there: the program's data file holds only its own
// text, every report is in the log, the log is created only by a process
// that writes to it, with mode 0600.
// NOT: BUG: KFENCE
// STDOUT: data file untouched
// STDOUT: log holds 3 reports
// STDOUT: log mode 600
// STDOUT: silent child left no log file
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kfence_test.h"

int main(void)
{
	char log[64], data[] = "/tmp/ukasan-data-XXXXXX";
	snprintf(log, sizeof(log), "/tmp/ukasan-log-reuse.%d", (int)getpid());
	pid_t silent = fork();
	if (silent == 0)
		_exit(0);
	waitpid(silent, NULL, 0);

	report_use_after_free(); /* the log is open now */
	closefrom(3);
	int fd = mkstemp(data);
	if (fd < 0)
		return 90;
	write(fd, "mine\n", 5);
	for (int i = fd + 1; i < 200; i++)
		dup2(fd, i);
	report_use_after_free();

	/* The same again behind the interposers' back: close_range by a raw
	 * system call, as Go's runtime or a static binary would. */
	syscall(SYS_close_range, 3u, ~0u, 0);
	fd = open(data, O_RDWR | O_APPEND);
	for (int i = fd + 1; i < 200; i++)
		dup2(fd, i);
	report_use_after_free();

	char buf[65536] = {0};
	pread(fd, buf, sizeof(buf) - 1, 0);
	printf("%s\n", strcmp(buf, "mine\n") ? "data file got ukasan's text" : "data file untouched");
	unlink(data);

	int lfd = open(log, O_RDONLY);
	long n = lfd >= 0 ? read(lfd, buf, sizeof(buf) - 1) : -1;
	buf[n > 0 ? n : 0] = 0;
	int reports = 0;
	for (char *s = buf; (s = strstr(s, "BUG: KFENCE: use-after-free read")); s++)
		reports++;
	printf("log holds %d reports\n", reports);
	struct stat st;
	if (stat(log, &st) == 0)
		printf("log mode %o\n", st.st_mode & 0777);
	unlink(log);
	char other[64];
	snprintf(other, sizeof(other), "/tmp/ukasan-log-reuse.%d", (int)silent);
	if (access(other, F_OK) == 0) {
		unlink(other);
		printf("silent child left a log file\n");
	} else {
		printf("silent child left no log file\n");
	}
	return 0;
}
