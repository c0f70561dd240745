// MODE: generic
// RUN: kasan_multi_shot
// An allocation made while another is in progress (here by a malloc hook,
// ASan's __sanitizer_install_malloc_and_free_hooks; a signal handler's is
// the same) records its own stack, not the one of the allocation it is
// nested in: the stack capture starts at the frame the innermost
// allocation noted (stack_entry_enter in ours()), and posix_memalign,
// which the hook calls, notes one as malloc does.
// EXPECT: BUG: KASAN: slab-use-after-free in main+0x
// EXPECT-RE: ^Allocated by task \d+:\n side_alloc\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n on_malloc\+0x
// EXPECT-RE: ^Freed by task \d+:\n main\+0x
// COUNT: 1 BUG: KASAN:
#include <stdlib.h>

#define HIDE(p) __asm__ volatile("" : "+r"(p) : : "memory")

int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));

static char *side;

__attribute__((noinline)) static void side_alloc(void)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, 48) == 0)
		side = p;
	HIDE(p);
}

__attribute__((noinline)) static void on_malloc(const volatile void *p, size_t n)
{
	(void)p;
	if (!side && n == 40)
		side_alloc();
	__asm__ volatile("" ::: "memory"); /* no tail call: this frame stays */
}

__attribute__((noinline)) static char *make(void)
{
	char *p = malloc(40);
	HIDE(p);
	return p;
}

int main(void)
{
	if (!__sanitizer_install_malloc_and_free_hooks(on_malloc, NULL))
		return 90;
	char *p = make();
	free(p);
	if (!side)
		return 91;
	char *q = side;
	free(q);
	HIDE(q);
	return ((volatile char *)q)[5];
}
