// MODE: generic
// EXPECT: BUG: KASAN: use-after-poison in read2
// EXPECT-RE: ^Read of size 2 at addr [0-9a-f]{16} by task \S+/\d+$
// STDOUT: states as ASan's
//
// __asan_poison_memory_region on parts of granules, byte for byte as
// AddressSanitizer: a shadow byte can say "the first k bytes", so a
// region is poisoned where it ends a granule, or where the bytes after it
// in the granule are poisoned already (regions poisoned right to left down
// to 2 bytes each); a head whose granule stays addressable after it is
// left addressable. Unpoisoning makes the first granule addressable from
// its start. Then a 2-byte read of one of the 2-byte regions is reported.
#include <stdio.h>
#include <stdlib.h>

#include <sanitizer/asan_interface.h>

static char pool[128] __attribute__((aligned(64)));
static int bad;

/* The expected state of p[0..n): '.' addressable, 'x' poisoned. */
static void expect(const char *what, const char *p, const char *want)
{
	for (int i = 0; want[i]; i++)
		if (__asan_address_is_poisoned(p + i) != (want[i] == 'x')) {
			printf("%s: byte %d is %s\n", what, i,
			       want[i] == 'x' ? "addressable" : "poisoned");
			bad = 1;
			return;
		}
}

__attribute__((noinline)) static short read2(const char *p)
{
	return *(const volatile short *)p;
}

int main(void)
{
	char *p = pool;
	__asm__("" : "+r"(p)); /* an access to a known global may go unchecked */
	__asan_poison_memory_region(p + 6, 2);
	expect("tail 6..8", p, "......xx........");
	__asan_poison_memory_region(p + 4, 2);
	expect("4..6 before poisoned bytes", p, "....xxxx........");
	__asan_poison_memory_region(p + 2, 2);
	expect("2..4", p, "..xxxxxx........");
	__asan_poison_memory_region(p, 2);
	expect("0..2: the whole granule", p, "xxxxxxxx........");
	__asan_unpoison_memory_region(p + 1, 2);
	expect("unpoison 1..3: from the granule's start", p, "...xxxxx........");

	__asan_poison_memory_region(p + 12, 4);
	__asan_poison_memory_region(p + 8, 4);
	expect("8..12 before poisoned 12..16", p + 8, "xxxxxxxx");

	__asan_poison_memory_region(p + 28, 4);
	__asan_poison_memory_region(p + 16, 12);
	expect("16..28 ending before poisoned bytes", p + 16, "xxxxxxxxxxxxxxxx.");

	__asan_poison_memory_region(p + 40, 2);
	expect("a head stays addressable", p + 40, "........");
	__asan_poison_memory_region(p + 52, 2);
	expect("so does a middle", p + 48, "........");

	__asan_unpoison_memory_region(p + 16, 13);
	expect("unpoison 16..29", p + 16, ".............xxx.");
	if (bad)
		return 2;
	printf("states as ASan's\n");
	/* 0..3 addressable, 3..8 poisoned by the calls above */
	return read2(p + 4) == 0 ? 0 : 3;
}
