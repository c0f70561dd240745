// MODE: sw_tags
// VARIANTS: gcc clang
// HWASAN: caught -- the child's use after free
// fork: the child inherits the heap, its tags and the tag checks; its use
// after free is reported with its own pid, and the parent, which waits for
// it, goes on without a report of its own. The child ends with
// ukasan.exitcode's 1 (its wait status 256), the parent with its own 0.
// EXPECT: BUG: KASAN: slab-use-after-free in child+0x
// EXPECT: freed 24-byte region
// STDOUT: parent ok (child status 256)
// STATUS: 0
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

#include <sys/wait.h>

TAGS_TEST static void child(char *q, int aline, int atid, int fline)
{
	free(q); fline = __LINE__;
	TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)q)[3], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = q + 3, .obj = q, .obj_size = 24, .freed = 1, .alloc_line = aline, .free_line = fline, .alloc_tid = atid);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	char *q = malloc(24); int aline = __LINE__;
	memset(q, 1, 24);
	int parent = (int)gettid();
	pid_t pid = fork();
	if (pid == 0) {
		child(q, aline, parent, 0);
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	q[23] = 2; /* the parent's object is still live */
	free(q);
	printf("parent ok (child status %d)\n", st);
	return 0;
}
