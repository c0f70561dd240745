// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* As the kernel's kfree_via_page / kmalloc_invalid_free: a pointer into
 * the middle of an object is not one malloc returned. The object stays
 * live and usable. */
static HW_TEST void invalid_free(void)
{
	char *p = malloc(64);
	char *mid = p + 16;
	OPTIMIZER_HIDE_VAR(mid);
	HW_EXPECT_FAIL(free(mid), .type = "invalid-free", .rw = "Free", .addr = mid);
	p[63] = 1;
	HW_CHECK(hw_mem_tag(p) == hw_ptr_tag(p));
	free(p);
}

int main(void)
{
	invalid_free();
	printf("survived\n");
	return 0;
}
// STDOUT: survived
