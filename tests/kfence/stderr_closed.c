// RUN: kfence.sample_rate=1
// Many programs close stderr on their way out (coreutils' close_stdout); a
// report after that, here an out-of-bounds read hitting the guard page,
// still reaches the stderr the program started with (ukasan keeps a copy
// of it, numbered 100 or more). If the program has since put a file of its
// own at that number, the report is not written into that file.
// EXPECT: BUG: KFENCE: out-of-bounds read in read_byte+0x
// COUNT: 1 BUG: KFENCE:
// STDOUT: the program's file holds only its own text
#include "kfence_test.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) char read_byte(volatile char *p) { return *p; }

int main(void)
{
	char *p = test_alloc(32, RIGHT), *q = test_alloc(32, RIGHT);
	char path[] = "/tmp/ukasan-stderr-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	write(fd, "mine\n", 5);
	fflush(stdout);
	close(2);
	read_byte(p + 32); /* reported to the saved copy of stderr */

	/* Every descriptor from 100 to 110 now names our file: whatever number
	 * the copy had, it is the program's file now. */
	for (int i = 100; i <= 110; i++)
		dup2(fd, i);
	read_byte(q + 32); /* must not land in the file */
	char buf[256] = {0};
	pread(fd, buf, sizeof(buf) - 1, 0);
	unlink(path);
	printf("%s\n", strcmp(buf, "mine\n") ? "the program's file got the report"
	                                      : "the program's file holds only its own text");
	return 0;
}
