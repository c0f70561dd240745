// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
// STATUS: 0
// STDOUT: parent done
#include "hw_tags/hw_tags_test.h"

#include <sys/wait.h>

/* fork copies the memory's tags: an object from before the fork is still
 * checked in the child, whose report names the child; the parent is not
 * disturbed and checks on. */
static int alloc_line;

static HW_TEST void child_bug(char *p)
{
	HW_EXPECT_FAIL(hw_int_result = p[32], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 30, .alloc_line = alloc_line, .alloc_tid = (int)getppid());
}

int main(void)
{
	alloc_line = __LINE__ + 1;
	char *p = malloc(30);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		HW_CHECK(hw_mem_tag(p) == hw_ptr_tag(p));
		/* The child allocates and frees without trouble. */
		for (int i = 0; i < 100; i++)
			free(malloc((size_t)i * 10 + 1));
		child_bug(p);
		fflush(stdout);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	/* The child's report is its own: it ends with ukasan.exitcode's 1,
	 * and the parent, with none, keeps its 0. */
	HW_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	/* The parent still checks, and its heap works on. */
	HW_CHECK((prctl(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0) & 6) == 2);
	for (int i = 0; i < 100; i++)
		free(malloc((size_t)i * 10 + 1));
	free(p);
	printf("parent done\n");
	return 0;
}
