// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// RUN: kasan_multi_shot
// C++ (the kernel's kmalloc_oob_right and kmalloc_uaf with new and
// delete): a write past a new[] array, a read of it after delete[], and a
// read of a member of a deleted object. The cache names the allocating
// function family: new[] or new.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_new_delete+0x
// EXPECT-RE: ^Write of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: which belongs to the cache new[] of size 10
// EXPECT: BUG: KASAN: slab-use-after-free in kasan_new_delete+0x
// EXPECT: freed 10-byte region
// EXPECT: BUG: KASAN: slab-use-after-free in kasan_new_delete+0x
// EXPECT-RE: ^Read of size 4 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: which belongs to the cache new of size 16
// COUNT: 3 BUG: KASAN:
#include "kasan_test.h"

/* extern "C" below: reports print symbol names as they are in the ELF
 * file, so a C++ function would be named by its mangled name. */
struct S {
	int x[4];
};

extern "C" KASAN_TEST void kasan_new_delete(void)
{
	char *a = new char[10]; int aline = __LINE__;
	S *s = new S(); int sline = __LINE__;

	OPTIMIZER_HIDE_VAR(a);
	OPTIMIZER_HIDE_VAR(s);
	KASAN_EXPECT_FAIL(a[10] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = a + 10, .obj = a, .obj_size = 10, .cache = "new[]", .alloc_line = aline);
	delete[] a; int fline = __LINE__;
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)a)[0], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = a, .obj = a, .obj_size = 10, .cache = "new[]", .freed = 1, .alloc_line = aline, .free_line = fline);
	delete s; int sfline = __LINE__;
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile S *)s)->x[1], .type = "slab-use-after-free", .rw = "Read", .size = 4, .addr = &s->x[1], .obj = s, .obj_size = sizeof(S), .cache = "new", .freed = 1, .alloc_line = sline, .free_line = sfline);
}

int main()
{
	kasan_new_delete();
	return 0;
}
