// RUN: kfence.sample_rate=1
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// ASAN_OPTIONS=log_path=PATH:log_exe_name=1 names the log file as ASan
// does, PATH.EXE.PID, whichever of the two keys comes first.
// NOT: BUG: KFENCE
// COUNT: 0 ukasan:
// STDOUT: the report is in PATH.EXE.PID
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>

#include "kfence_test.h"
#include "_asan_options.h"

int main(int argc, char **argv)
{
	char dir[] = "/tmp/ukasan-asan-XXXXXX", opts[300], path[600], exe[256], buf[8192] = {0};
	(void)argc;
	if (!argv[1] || strcmp(argv[1], ASAN_OPTIONS_AGAIN)) {
		if (!mkdtemp(dir))
			return 90;
		snprintf(opts, sizeof(opts), "log_exe_name=1:log_path=%s/asan", dir);
		setenv("UKASAN_TEST_LOG_DIR", dir, 1);
	}
	with_asan_options(argv, opts);
	const char *d = getenv("UKASAN_TEST_LOG_DIR");
	report_use_after_free();
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 91;
	exe[n] = 0;
	snprintf(path, sizeof(path), "%s/asan.%s.%d", d, basename(exe), (int)getpid());
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("no log file %s\n", path);
		return 1;
	}
	read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (strstr(buf, "BUG: KFENCE: use-after-free read in read_after_free"))
		printf("the report is in PATH.EXE.PID\n");
	unlink(path);
	rmdir(d);
	return 0;
}
