// MODE: generic
// RUN: kasan_multi_shot
// The kernel's copy_user_test_oob: copies between a 120-byte object and
// "user" memory one byte too long. In user space those copies are the
// system calls that fill or drain a buffer: read() writes 121 bytes into the
// object, write() reads 121 bytes from it. Each must be reported before the
// kernel touches the memory, as AddressSanitizer's read/write interceptors
// do.
// EXPECT: BUG: KASAN: slab-out-of-bounds in copy_user_test_oob+0x
// EXPECT-RE: ^Write of size 121 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: slab-out-of-bounds in copy_user_test_oob+0x
// EXPECT-RE: ^Read of size 121 at addr [0-9a-f]{16} by task \S+/\d+$
// COUNT: 2 BUG: KASAN:
#include "kasan_test.h"

#include <fcntl.h>

KASAN_TEST void copy_user_test_oob(void)
{
	size_t size = 128 - 8;
	char *kmem = malloc(size); int aline = __LINE__;
	int zero = open("/dev/zero", O_RDONLY), null = open("/dev/null", O_WRONLY);

	OPTIMIZER_HIDE_VAR(size);
	if (zero < 0 || null < 0)
		kasan_test_fail("cannot open /dev/zero or /dev/null");
	KASAN_EXPECT_FAIL(kasan_int_result = read(zero, kmem, size + 1), .type = "slab-out-of-bounds", .rw = "Write", .size = 121, .addr = kmem, .bad = kmem + size, .obj = kmem, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(kasan_int_result = write(null, kmem, size + 1), .type = "slab-out-of-bounds", .rw = "Read", .size = 121, .addr = kmem, .bad = kmem + size, .obj = kmem, .obj_size = size, .alloc_line = aline);
	close(zero);
	close(null);
	free(kmem);
}

int main(void)
{
	copy_user_test_oob();
	return 0;
}
