// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

#include <pthread.h>

/* As the kernel's tests across tasks: an object allocated and freed by one
 * thread, used after free by another. Every thread checks (they inherit
 * the tag check mode), and the report names each task in its place. */
static char *obj;
static int alloc_tid, free_tid, alloc_line, free_line;

static void *owner(void *arg)
{
	(void)arg;
	alloc_tid = free_tid = (int)gettid();
	alloc_line = __LINE__ + 1;
	obj = malloc(48);
	obj[0] = 1;
	free_line = __LINE__ + 1;
	free(obj);
	return NULL;
}

static HW_TEST void *user(void *arg)
{
	(void)arg;
	HW_CHECK((prctl(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0) & 6) == 2); /* PR_MTE_TCF_SYNC */
	HW_EXPECT_FAIL(hw_int_result = obj[40], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = obj + 40, .mem = "0e", .obj = obj, .obj_size = 48, .freed = 1, .alloc_line = alloc_line, .free_line = free_line, .alloc_tid = alloc_tid, .free_tid = free_tid);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, owner, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, user, NULL);
	pthread_join(t, NULL);
	return 0;
}
