// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* As the kernel's kmalloc_uaf2: the freed slot is reused at once (no
 * quarantine) under a new tag, and the stale pointer, with the old tag,
 * is still caught. The ring's newest entry for the old tag is the free.
 * The heap holds freed blocks back for a while (256 KiB a size class):
 * a large class brings the slot back soon. */
static HW_TEST void uaf_reallocated(void)
{
	char *p, *q;
	int tries = 0;
	do {
		p = malloc(4000);
		free(p);
	} while (!(q = hw_realloc_other_tag(p, 4000)) && ++tries < 20);
	HW_CHECK(q != NULL);
	if (!q)
		return;
	HW_CHECK(hw_mem_tag(q) == hw_ptr_tag(q));
	HW_EXPECT_FAIL(hw_int_result = p[3990], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = p + 3990, .obj = p, .obj_size = 4000, .freed = 1, .alloc_line = __LINE__ - 7, .free_line = __LINE__ - 6);
	q[3990] = 'q'; /* the new owner's pointer works */
	free(q);
}

int main(void)
{
	uaf_reallocated();
	return 0;
}
