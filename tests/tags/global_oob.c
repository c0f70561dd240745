// MODE: sw_tags
// VARIANTS: gcc clang
// HWASAN: hwasan-only -- clang's HWASan tags globals (its runtime retags them at load), ours do not
// Globals are not tagged in software-tag mode: GCC 12 never tags them, and
// ukasan-cc turns clang's global tagging off (-hwasan-globals=0: it needs a
// runtime that retags every module's globals at load and an instrumented
// libc). So a read one granule past a global array is NOT caught: no
// report, and the program goes on. (The kernel's kasan_global_oob_right
// runs in generic mode only for the same reason.)
// STDOUT: read past the global
// NOT: BUG: KASAN
// COUNT: 0 BUG: KASAN:
#include "tags_test.h"

char global_array[16];
char global_after[16];

TAGS_TEST void kasan_global_oob_right(void)
{
	volatile int i = 16 + 3;
	char *p = global_array;

	OPTIMIZER_HIDE_VAR(p);
	tags_int_result = p[i];
	printf("read past the global: %ld\n", tags_int_result);
	global_after[0] = 1;
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kasan_global_oob_right();
	return 0;
}
