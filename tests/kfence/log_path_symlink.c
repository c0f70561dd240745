// RUN: kfence.sample_rate=1
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// A symbolic link planted at the log file's name (ukasan.log_path=DIR/uk
// opens DIR/uk.PID): ukasan refuses it in one line and reports to stderr;
// the link's target is untouched. The program execs itself, keeping its
// pid, so that the link is there before the runtime starts.
// EXPECT-RE: ^ukasan: cannot open log file /tmp/ukasan-link-[^ ]+/uk\.\d+ \(it is a symbolic link\); reports go to stderr$
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// COUNT: 2 ukasan:
// STDOUT: target untouched
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kfence_test.h"

int main(int argc, char **argv)
{
	char target[300], link[300];
	if (argc < 2) {
		char dir[] = "/tmp/ukasan-link-XXXXXX";
		if (!mkdtemp(dir))
			return 90;
		snprintf(target, sizeof(target), "%s/target", dir);
		snprintf(link, sizeof(link), "%s/uk.%d", dir, (int)getpid());
		int fd = open(target, O_WRONLY | O_CREAT, 0644);
		write(fd, "target\n", 7);
		close(fd);
		if (symlink(target, link))
			return 91;
		char opts[400];
		snprintf(opts, sizeof(opts), "kfence.sample_rate=1 ukasan.log_path=%s/uk", dir);
		setenv("UKASAN_OPTIONS", opts, 1);
		fflush(stdout);
		execl("/proc/self/exe", argv[0], dir, (char *)NULL);
		return 92;
	}
	report_use_after_free();
	snprintf(target, sizeof(target), "%s/target", argv[1]);
	snprintf(link, sizeof(link), "%s/uk.%d", argv[1], (int)getpid());
	char buf[4096] = {0};
	int fd = open(target, O_RDONLY);
	read(fd, buf, sizeof(buf) - 1);
	printf("%s\n", strcmp(buf, "target\n") ? "target written" : "target untouched");
	unlink(link);
	unlink(target);
	rmdir(argv[1]);
	return 0;
}
