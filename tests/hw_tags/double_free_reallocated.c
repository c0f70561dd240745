// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
// STDOUT: new owner intact
#include "hw_tags/hw_tags_test.h"

/* A second free through a stale pointer after the slot went to a new
 * object (another tag): the kernel's check_slab_allocation calls any free
 * whose pointer tag does not match the memory a double-free (the object's
 * start is right; its tag says it is not this pointer's object). The new
 * owner's object must stay allocated and intact. */
static HW_TEST void double_free_reallocated(void)
{
	char *p, *q;
	int tries = 0;
	do {
		p = malloc(4000);
		OPTIMIZER_HIDE_VAR(p);
		free(p);
	} while (!(q = hw_realloc_other_tag(p, 4000)) && ++tries < 20);
	HW_CHECK(q != NULL);
	if (!q)
		return;
	memset(q, 'q', 4000);
	HW_EXPECT_FAIL(free(p), .type = "double-free", .rw = "Free", .addr = p, .obj = p, .obj_size = 4000, .freed = 1, .alloc_line = __LINE__ - 8, .free_line = __LINE__ - 6);
	HW_CHECK(hw_mem_tag(q) == hw_ptr_tag(q) && hw_mem_tag(q + 3999) == hw_ptr_tag(q));
	int intact = 1;
	for (int i = 0; i < 4000; i++)
		intact &= q[i] == 'q';
	/* Not handed out again while q lives. */
	for (int i = 0; i < 200; i++) {
		char *r = malloc(4000);
		HW_CHECK(hw_untag(r) != hw_untag(q));
		free(r);
	}
	if (intact)
		printf("new owner intact\n");
	free(q);
}

int main(void)
{
	double_free_reallocated();
	return 0;
}
