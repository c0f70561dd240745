// MODE: sw_tags
// VARIANTS: gcc clang clang-outline clang-calls
// HWASAN: gcc=clean,clang=caught -- clang tags globals (HWASan's runtime and ours tag their memory at load); GCC tags none, in either
// The kernel's kasan_global_oob_right, which the kernel runs in generic
// mode only (its tag modes leave globals untagged). Here clang builds tag
// globals as clang's HWASan does: each global gets a static tag in its
// address and whole granules, and the runtime tags their memory from the
// module's note at start-up (src/kasan/sw_globals.c). A read one granule
// past a global array then meets another tag: the next global's, or 00.
// No heap object and no stack ring entry: an invalid-access. GCC 12 tags
// no globals, so its build reads past the array unseen and goes on.
// Before the bug, correct uses of globals, by the program and through
// libc (checked wrappers and not), must not be reported.
// STDOUT: read past the global
// EXPECT-CLANG: BUG: KASAN: invalid-access in kasan_global_oob_right+0x
// EXPECT-CLANG: Read of size 1 at addr
// NOT-CLANG: Allocated by task
// NOT-GCC: BUG: KASAN
// COUNT-CLANG: 1 BUG: KASAN:
// COUNT-GCC: 0 BUG: KASAN:
#include "tags_test.h"

char global_array[16];
char global_after[16];
static char global_text[40] = "a global string";
static long global_big[1000];

/* The globals' tags as the runtime set them, or, for GCC, none at all. */
static void check_tags(void)
{
#ifndef TAGS_REFERENCE
	const void *g[] = {global_array, global_after, global_text, global_big};
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		unsigned pt = tags_ptr_tag(g[i]), mt = tags_mem_tag(g[i]);
#ifdef __clang__
		if (pt == 0)
			tags_test_fail("clang gave a global no tag");
#else
		if (pt != 0)
			tags_test_fail("GCC gave a global a tag");
#endif
		if (mt != pt)
			tags_test_fail("a global's memory tag is not its pointer's");
	}
	/* The last granule of a big global too. */
	if (tags_mem_tag(&global_big[999]) != tags_ptr_tag(global_big))
		tags_test_fail("the end of a big global is not tagged");
#endif
}

/* Correct uses: in bounds, directly and through libc. */
TAGS_TEST void globals_clean(void)
{
	char buf[64];

	memset(global_array, 'x', sizeof(global_array));
	strcpy(global_after, "fifteen chars..");
	snprintf(buf, sizeof(buf), "%s %s", global_text, global_after);
	global_big[999] = (long)strlen(buf);
	for (int i = 0; i < 1000; i++)
		global_big[i] += i;
	printf("clean: %s %ld %.4s\n", buf, global_big[999], global_array);
}

TAGS_TEST void kasan_global_oob_right(void)
{
	volatile int i = 16 + 3;
	char *p = global_array;

	OPTIMIZER_HIDE_VAR(p);
#ifdef __clang__
	TAGS_EXPECT_FAIL(tags_int_result = p[i], .type = "invalid-access", .rw = "Read", .size = 1, .addr = p + i);
#else
	tags_int_result = p[i];
#endif
	printf("read past the global: %ld\n", tags_int_result);
	global_after[0] = 1;
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	check_tags();
	globals_clean();
	kasan_global_oob_right();
	return 0;
}
