// MODE: generic
// RUN: kasan_multi_shot
// The kernel's krealloc_large_less_oob: krealloc_less_oob with page-backed
// objects (128 KiB + 235 shrunk to 128 KiB + 201): the dropped tail lies in
// the page redzone, slab-out-of-bounds; the old object is use-after-free.
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_less_oob_helper+0x
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 131273-byte region
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_less_oob_helper+0x
// EXPECT: The buggy address is located 34 bytes to the right of
// EXPECT: BUG: KASAN: use-after-free in krealloc_less_oob_helper+0x
// EXPECT: freed 131307-byte region
// NOT: slab-use-after-free
// COUNT: 6 BUG: KASAN:
#define main krealloc_less_oob_main
#include "krealloc_less_oob.c"
#undef main

int main(void)
{
	krealloc_less_oob_helper((128 << 10) + 235, (128 << 10) + 201, "realloc-large");
	return 0;
}
