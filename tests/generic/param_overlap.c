// MODE: generic
// VARIANTS: gcc clang gcc-fortify clang-fortify
// RUN: kasan_multi_shot
// AddressSanitizer's memcpy-param-overlap and its kin: memcpy, strcpy,
// strcat, strncpy and strncat with overlapping source and destination, each
// reported once, titled with ASan's class for the function and the caller,
// naming the two ranges as ASan does (the destination's first: for the
// appends, the destination string with what is appended), and describing
// the object both are in. The call then goes on, as with ASan's recovery.
// Fortified, the same calls go through __memcpy_chk and friends; with clang
// memcpy becomes __asan_memcpy.
// EXPECT: BUG: KASAN: memcpy-param-overlap in overlap_memcpy+0x
// EXPECT: The buggy address is located 2 bytes inside of
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: BUG: KASAN: strcpy-param-overlap in overlap_strcpy+0x
// EXPECT: BUG: KASAN: strcat-param-overlap in overlap_strcat+0x
// EXPECT: BUG: KASAN: strncpy-param-overlap in overlap_strncpy+0x
// EXPECT: BUG: KASAN: strncat-param-overlap in overlap_strncat+0x
// EXPECT: which belongs to the cache malloc of size 32
// COUNT: 5 BUG: KASAN:
// COUNT: 5 -param-overlap in overlap_
// NOT: out-of-bounds
// STDOUT: done
#include "kasan_test.h"

static volatile size_t six = 6, three = 3;

static void expect_ranges(const char *type, const void *a, size_t an, const void *b, size_t bn)
{
	printf("EXPECT: BUG: KASAN: %s-param-overlap in overlap_%s+0x\n", type, type);
	printf("EXPECT: Memory ranges [%016lx, %016lx) and [%016lx, %016lx) overlap, by task ",
	       (unsigned long)a, (unsigned long)a + an, (unsigned long)b, (unsigned long)b + bn);
	printf("\n");
	fflush(stdout);
}

static char *fresh(void)
{
	char *b = malloc(32);
	memset(b, 'a', 31);
	b[31] = 0;
	OPTIMIZER_HIDE_VAR(b);
	return b;
}

KASAN_TEST void overlap_memcpy(char *b)
{
	expect_ranges("memcpy", b + 2, 6, b, 6);
	kasan_ptr_result = memcpy(b + 2, b, six);
}

KASAN_TEST void overlap_strcpy(char *b)
{
	b[6] = 0;
	expect_ranges("strcpy", b + 4, 7, b, 7);
	kasan_ptr_result = strcpy(b + 4, b);
}

/* The appended string is inside the destination's: [b, b+4+8+1) and
 * [b+8, b+8+8+1) */
KASAN_TEST void overlap_strcat(char *b)
{
	b[4] = 0;
	b[16] = 0;
	expect_ranges("strcat", b, 4 + 8 + 1, b + 8, 8 + 1);
	kasan_ptr_result = strcat(b, b + 8);
}

KASAN_TEST void overlap_strncpy(char *b)
{
	expect_ranges("strncpy", b + 1, 3, b, 3);
	kasan_ptr_result = strncpy(b + 1, b, three);
}

/* ASan's own case: "hello" and its tail, 3 bytes of it. */
KASAN_TEST void overlap_strncat(char *b)
{
	strcpy(b, "hello");
	expect_ranges("strncat", b, 5 + 3 + 1, b + 1, 3);
	kasan_ptr_result = strncat(b, b + 1, three);
}

int main(void)
{
	char *b = fresh();
	overlap_memcpy(b);
	/* The copy went on: memmove's or memcpy's result, either way 'a's. */
	if (b[7] != 'a')
		printf("memcpy did not copy\n");
	free(b);
	b = fresh();
	overlap_strcpy(b);
	free(b);
	b = fresh();
	overlap_strcat(b);
	free(b);
	b = fresh();
	overlap_strncpy(b);
	free(b);
	b = fresh();
	overlap_strncat(b);
	free(b);
	printf("done\n");
	return 0;
}
