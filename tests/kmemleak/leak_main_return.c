// MODE: generic
// The simplest leak, with none of leak_test.h's care for stale copies:
// main loses its object and returns. After main returned, the exiting
// thread's stack below _start holds only libc's exit frames, whose unused
// slots keep whatever main's callees left there (the lost pointer, from
// the allocator's frames); the check at exit reads that stack from _start
// up. ASan and LSan report this program's leak too (CTest's memcheck
// checks it: tests/projects/check_ctest_memcheck.py).
// VARIANTS: gcc clang gcc-O0 clang-O0 gcc-O2 clang-O2
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 40\):
// COUNT: 1 unreferenced object 0x
#include <stdlib.h>

void *volatile keep;

int main(void)
{
	keep = malloc(40);
	keep = 0;
	return 0;
}
