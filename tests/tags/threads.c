// MODE: sw_tags
// VARIANTS: gcc clang
// HWASAN: caught -- a use after free in another thread
// The kernel's use after free across tasks: one thread allocates, a second
// frees, a third reads. The report names the reading thread, and the
// allocation and free stacks their own threads.
// EXPECT: BUG: KASAN: slab-use-after-free in reader+0x
// EXPECT: Freed by task
// EXPECT: freed 100-byte region
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

#include <pthread.h>

static char *p;
static int alloc_line, free_line, alloc_tid, free_tid;

static void *allocator(void *arg)
{
	(void)arg;
	alloc_tid = (int)gettid();
	p = malloc(100); alloc_line = __LINE__;
	return NULL;
}

static void *freer(void *arg)
{
	(void)arg;
	free_tid = (int)gettid();
	free(p); free_line = __LINE__;
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)p)[99], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = p + 99, .obj = p, .obj_size = 100, .freed = 1, .alloc_line = alloc_line, .free_line = free_line, .alloc_tid = alloc_tid, .free_tid = free_tid);
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*steps[])(void *) = {allocator, freer, reader};
	tags_select(argc, argv);
	for (int i = 0; i < 3; i++) {
		pthread_t t;
		pthread_create(&t, NULL, steps[i], NULL);
		pthread_join(t, NULL);
	}
	return 0;
}
