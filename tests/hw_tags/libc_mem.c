// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 3 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* As the kernel's kmalloc_oob_memset_* and kmalloc_memmove_invalid_size:
 * glibc's string functions are not instrumented, but the CPU checks their
 * accesses too, so an overflow is caught inside them. The report names the
 * glibc function when it has a symbol (strcpy), or else its caller. */
static HW_TEST void libc_mem(void)
{
	char *p = malloc(40), *q = malloc(100);
	size_t n = 60;
	OPTIMIZER_HIDE_VAR(n);
	memset(p, 'a', 48); /* the object's granules: fine */
	HW_EXPECT_FAIL(memset(p, 'b', n), .callee = "memset", .callee_unnamed = 1, .type = "slab-out-of-bounds", .rw = "Write", .addr = p + 48, .mem = "00", .obj = p, .obj_size = 40, .alloc_line = __LINE__ - 4);
	free(malloc(1)); /* re-arm */
	memset(q, 'c', 100);
	HW_EXPECT_FAIL(memcpy(p, q, n), .callee = "memcpy", .callee_unnamed = 1, .type = "slab-out-of-bounds", .rw = "Write", .addr = p + 48, .mem = "00", .obj = p, .obj_size = 40, .alloc_line = __LINE__ - 7);
	free(malloc(1));
	q[99] = 0;
	HW_EXPECT_FAIL(strcpy(p, q), .callee = "strcpy", .type = "slab-out-of-bounds", .rw = "Write", .addr = p + 48, .mem = "00", .obj = p, .obj_size = 40, .alloc_line = __LINE__ - 10);
	free(q);
	free(p);
}

int main(void)
{
	libc_mem();
	return 0;
}
