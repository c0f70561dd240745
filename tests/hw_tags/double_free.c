// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* As the kernel's kmalloc_double_kzfree: the second free is reported, not
 * passed on to glibc (which would abort). */
static HW_TEST void double_free(void)
{
	char *p = malloc(64);
	OPTIMIZER_HIDE_VAR(p);
	free(p);
	HW_EXPECT_FAIL(free(p), .type = "double-free", .rw = "Free", .addr = p, .mem = "0e", .obj = p, .obj_size = 64, .freed = 1, .alloc_line = __LINE__ - 3, .free_line = __LINE__ - 1);
}

int main(void)
{
	double_free();
	printf("survived\n");
	return 0;
}
// STDOUT: survived
