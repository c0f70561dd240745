// MODE: generic
// RUN: kasan_multi_shot
// One allocating function and one freeing function, each called from six
// sites, many times over in runs and in turn; then one object of each
// site freed at the next site and read after the free: each report's
// stacks name that object's own sites. A thread remembers the last four
// stacks it saved, compared frame by frame (stack.c's memo), and a capture
// starts at the entry point's frame (stack_entry_enter). The stacks differ
// only from their second frame on, and six in turn miss the memo while the
// same one twice hits it: neither may give an object another site's stack.
// EXPECT-RE: ^Allocated by task \d+:\n alloc_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n site_0\+0x
// EXPECT-RE: ^Freed by task \d+:\n free_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n unsite_1\+0x
// EXPECT-RE: ^Allocated by task \d+:\n alloc_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n site_1\+0x
// EXPECT-RE: ^Freed by task \d+:\n free_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n unsite_2\+0x
// EXPECT-RE: ^Allocated by task \d+:\n alloc_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n site_2\+0x
// EXPECT-RE: ^Freed by task \d+:\n free_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n unsite_3\+0x
// EXPECT-RE: ^Allocated by task \d+:\n alloc_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n site_3\+0x
// EXPECT-RE: ^Freed by task \d+:\n free_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n unsite_4\+0x
// EXPECT-RE: ^Allocated by task \d+:\n alloc_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n site_4\+0x
// EXPECT-RE: ^Freed by task \d+:\n free_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n unsite_5\+0x
// EXPECT-RE: ^Allocated by task \d+:\n alloc_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n site_5\+0x
// EXPECT-RE: ^Freed by task \d+:\n free_obj\+0x[0-9a-f]+/0x[0-9a-f]+ \S+:\d+\n unsite_0\+0x
// COUNT: 6 BUG: KASAN: slab-use-after-free
#include <stdlib.h>

#define HIDE(p) __asm__ volatile("" : "+r"(p) : : "memory")

/* malloc, calloc and realloc by turns: each entry point notes its frame. */
__attribute__((noinline)) static char *alloc_obj(size_t n, int how)
{
	char *p = how == 0 ? malloc(n) : how == 1 ? calloc(1, n) : realloc(NULL, n);
	HIDE(p);
	return p;
}

__attribute__((noinline)) static void free_obj(char *p)
{
	free(p);
	HIDE(p);
}

#define SITE(k)                                                                                    \
	__attribute__((noinline)) static char *site_##k(size_t n)                                  \
	{                                                                                          \
		char *p = alloc_obj(n, k % 3);                                                     \
		HIDE(p);                                                                           \
		return p;                                                                          \
	}                                                                                          \
	__attribute__((noinline)) static void unsite_##k(char *p)                                  \
	{                                                                                          \
		free_obj(p);                                                                       \
		HIDE(p);                                                                           \
	}
SITE(0)
SITE(1)
SITE(2)
SITE(3)
SITE(4)
SITE(5)

static char *(*const sites[6])(size_t) = {site_0, site_1, site_2, site_3, site_4, site_5};
static void (*const unsites[6])(char *) = {unsite_0, unsite_1, unsite_2, unsite_3, unsite_4, unsite_5};

int main(void)
{
	for (int i = 0; i < 6000; i++) {
		/* Runs of one site, then the sites in turn. */
		int k = i < 3000 ? i / 500 : i % 6;
		unsites[(k + i / 6) % 6](sites[k](16 + (size_t)k));
	}
	volatile int sum = 0;
	for (int k = 0; k < 6; k++) {
		char *p = sites[k](40);
		unsites[(k + 1) % 6](p);
		sum += ((volatile char *)p)[3];
	}
	return 0;
}
