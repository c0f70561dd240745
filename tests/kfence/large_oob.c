// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds read in read_byte+0x
// EXPECT: size=8192, cache=malloc
// EXPECT: BUG: KFENCE: out-of-bounds write in write_byte+0x
// EXPECT: size=8192, cache=malloc
// EXPECT: BUG: KFENCE: out-of-bounds read in read_byte+0x
// EXPECT: size=65536, cache=malloc
// EXPECT: BUG: KFENCE: out-of-bounds write in write_byte+0x
// EXPECT: size=65536, cache=malloc
// EXPECT: BUG: KFENCE: out-of-bounds read in read_byte+0x
// EXPECT: size=1048576, cache=malloc
// EXPECT: BUG: KFENCE: out-of-bounds write in write_byte+0x
// EXPECT: size=1048576, cache=malloc
// EXPECT: BUG: KFENCE: out-of-bounds read in read_byte+0x
// EXPECT: BUG: KFENCE: out-of-bounds write in write_byte+0x
// COUNT: 8 BUG: KFENCE:
// NOT: memory corruption
#include <string.h>

#include "kfence_test.h"

/* Objects over a page get large slots (kfence.large_size, 1 MiB by
 * default): a one-byte overflow past an 8 KiB, 64 KiB or 1 MiB object,
 * read or write, faults at once, with the object's offset; so does a
 * one-byte underflow before one that starts on a page boundary. */
__attribute__((noinline)) static char read_byte(volatile char *p)
{
	return *p;
}

__attribute__((noinline)) static void write_byte(volatile char *p)
{
	*p = 1;
}

int main(void)
{
	static const size_t sizes[] = {8 << 10, 64 << 10, 1 << 20};
	for (int i = 0; i < 3; i++) {
		size_t n = sizes[i];
		char *r = test_alloc(n, ANY), *w = test_alloc(n, ANY);
		/* The whole object is the program's. */
		memset(r, 1, n);
		memset(w, 1, n);
		expect("Out-of-bounds read at %p (%zuB right of kfence-#", (void *)(r + n), n);
		read_byte(r + n);
		expect("Out-of-bounds write at %p (%zuB right of kfence-#", (void *)(w + n), n);
		write_byte(w + n);
		free(r);
		free(w);
	}
	char *r = test_alloc(20 << 10, ANY), *w = test_alloc(300 << 10, ANY);
	expect("Out-of-bounds read at %p (1B left of kfence-#", (void *)(r - 1));
	read_byte(r - 1);
	expect("Out-of-bounds write at %p (1B left of kfence-#", (void *)(w - 1));
	write_byte(w - 1);
	free(r);
	free(w);
	return 0;
}
