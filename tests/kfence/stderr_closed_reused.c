// RUN: kfence.sample_rate=1
// The program closes fd 2 and its next file takes the number. Reports go
// to the copy of stderr taken at start, never into that file; the
// symbolizer started for the first report (whose child sets up its own
// fd 2 while sharing the program's memory) must not make ukasan take fd 2
// for stderr again.
// COUNT: 2 BUG: KFENCE: use-after-free read in read_after_free+0x
// STDOUT: fd 2 is the program's file, which holds only its own text
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kfence_test.h"

int main(void)
{
	char path[] = "/tmp/ukasan-fd2-XXXXXX";
	close(2);
	report_use_after_free();
	int fd = mkstemp(path);
	if (fd != 2)
		return 90;
	write(fd, "mine\n", 5);
	report_use_after_free();
	char buf[65536] = {0};
	pread(fd, buf, sizeof(buf) - 1, 0);
	unlink(path);
	printf("fd 2 is the program's file, which %s\n",
	       strcmp(buf, "mine\n") ? "got a report" : "holds only its own text");
	return 0;
}
