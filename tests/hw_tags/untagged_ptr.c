// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
// NOT: Allocated by task
#include "hw_tags/hw_tags_test.h"

/* A pointer that lost its tag (tag 0, as from an integer round trip that
 * masks the top byte) does not match a live object's memory: user space has
 * no match-all tag. No ring entry has tag 0, so the report cannot name the
 * object: invalid-access, as the kernel's get_common_bug_type says. */
static HW_TEST void untagged_ptr(void)
{
	char *p = malloc(32);
	char *u = (char *)hw_untag(p);
	HW_CHECK(hw_ptr_tag(u) == 0 && hw_mem_tag(u) == hw_ptr_tag(p));
	HW_EXPECT_FAIL(hw_int_result = u[8], .type = "invalid-access", .rw = "Read", .size = 1, .addr = u + 8);
	free(p);
}

int main(void)
{
	untagged_ptr();
	return 0;
}
