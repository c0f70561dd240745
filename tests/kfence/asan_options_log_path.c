// RUN: kfence.sample_rate=1
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// ASAN_OPTIONS=log_path=PATH sends reports to PATH.PID, as ASan's does and
// as ukasan.log_path does. ASan's syntax: keys separated by ':' (or ',' or
// white space), a value with a ':' in it quoted. ASan's keys with no
// meaning here (handle_abort), even with values ASan would refuse, and
// names ASan does not know are ignored without a word.
// NOT: BUG: KFENCE
// COUNT: 0 ukasan:
// STDOUT: the report is in the log file
#define _GNU_SOURCE
#include <fcntl.h>

#include "kfence_test.h"
#include "_asan_options.h"

int main(int argc, char **argv)
{
	char dir[] = "/tmp/ukasan-asan:XXXXXX", opts[300], path[300], buf[8192] = {0};
	(void)argc;
	if (!argv[1] || strcmp(argv[1], ASAN_OPTIONS_AGAIN)) {
		if (!mkdtemp(dir))
			return 90;
		snprintf(opts, sizeof(opts),
		         "handle_abort=0:log_path='%s/asan',no_such_key=1 handle_abort=banana", dir);
		setenv("UKASAN_TEST_LOG_DIR", dir, 1);
	}
	with_asan_options(argv, opts);
	const char *d = getenv("UKASAN_TEST_LOG_DIR");
	report_use_after_free();
	snprintf(path, sizeof(path), "%s/asan.%d", d, (int)getpid());
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("no log file %s\n", path);
		return 1;
	}
	read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (strstr(buf, "BUG: KFENCE: use-after-free read in read_after_free"))
		printf("the report is in the log file\n");
	unlink(path);
	rmdir(d);
	return 0;
}
