// MODE: generic
// RUN: kasan_multi_shot
// __sanitizer_get_allocated_size of a pointer that is not the start of a
// live heap object (LLVM's global-address.cpp: a global; here a stack
// object, an inner and a freed pointer too) is the program's bug: reported
// as ASan reports it, and the size is 0. NULL's size is 0, no report; a
// live object's is its size.
// EXPECT: BUG: KASAN: bad-__sanitizer_get_allocated_size in of_global+0x
// EXPECT-RE: attempting to call __sanitizer_get_allocated_size\(\) for pointer which is not owned: 0x[0-9a-f]+$
// EXPECT: BUG: KASAN: bad-__sanitizer_get_allocated_size in main+0x
// EXPECT: BUG: KASAN: bad-__sanitizer_get_allocated_size in main+0x
// EXPECT: BUG: KASAN: bad-__sanitizer_get_allocated_size in main+0x
// COUNT: 4 BUG: KASAN:
// STDOUT: sizes 0 0 0 0 0 13
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* clang's <sanitizer/allocator_interface.h>; gcc ships none. */
size_t __sanitizer_get_allocated_size(const volatile void *p);

int global[4];

__attribute__((noinline)) static size_t of_global(void)
{
	size_t n = __sanitizer_get_allocated_size(global);
	asm volatile("" : : : "memory"); /* no tail call: this frame is the title's */
	return n;
}

int main(void)
{
	char local[8];
	char *live = malloc(13), *freed = malloc(20);
	asm volatile("" : : "r"(local), "r"(freed) : "memory");
	free(freed);
	size_t g = of_global();
	size_t l = __sanitizer_get_allocated_size(local);
	size_t in = __sanitizer_get_allocated_size(live + 1);
	size_t f = __sanitizer_get_allocated_size(freed);
	size_t z = __sanitizer_get_allocated_size(NULL);
	printf("sizes %zu %zu %zu %zu %zu %zu\n", g, l, in, f, z,
	       __sanitizer_get_allocated_size(live));
	free(live);
	return 0;
}
