// MODE: generic
// RUN: kasan_multi_shot
// The kernel's krealloc_large_more_oob: krealloc_more_oob with page-backed
// objects (128 KiB + 201 grown to 128 KiB + 235). Past the end is still
// slab-out-of-bounds; the old object, freed pages, is use-after-free.
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_more_oob_helper+0x
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 131307-byte region
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_more_oob_helper+0x
// EXPECT: The buggy address is located 5 bytes to the right of
// EXPECT: BUG: KASAN: use-after-free in krealloc_more_oob_helper+0x
// EXPECT: freed 131273-byte region
// NOT: slab-use-after-free
// COUNT: 3 BUG: KASAN:
#define main krealloc_more_oob_main
#include "krealloc_more_oob.c"
#undef main

int main(void)
{
	krealloc_more_oob_helper((128 << 10) + 201, (128 << 10) + 235, "realloc-large");
	return 0;
}
