// RUN: kfence.sample_rate=1 ukasan.dedup_token_length=3 ukasan.asan_lines=on
// CFLAGS: -O2
// The faulting instruction belongs to functions inlined into put_word: the
// title names the innermost, as AddressSanitizer's does, and each is a
// frame of its own (with the faulting pc, marked [inline]) above put_word,
// whose line is that of the call.
// EXPECT: BUG: KFENCE: out-of-bounds write in store_word+0x
// EXPECT-RE: ^ \[<([0-9a-f]+)>\] store_word\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/inline_frames.c:15 \[inline\]\n \[<\1>\] put_twice\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/inline_frames.c:21 \[inline\]\n \[<\1>\] put_word\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/inline_frames.c:27\n \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/inline_frames.c:36$
// EXPECT: DEDUP_TOKEN: slab-out-of-bounds--store_word--put_twice--put_word
// COUNT: 1 BUG: KFENCE:
#include "kfence_test.h"

static inline __attribute__((always_inline)) void store_word(volatile int *p, int at)
{
	p[at] = 42;
}

static inline __attribute__((always_inline)) void put_twice(volatile int *p, int at)
{
	p[0] = 1;
	store_word(p, at);
}

__attribute__((noinline)) void put_word(int *p, int at)
{
	asm volatile("" : : "r"(p) : "memory");
	put_twice(p, at);
	asm volatile("" : : "r"(p) : "memory");
}

int main(int argc, char **argv)
{
	(void)argv;
	char *p = test_alloc(64, RIGHT);
	expect("Out-of-bounds write at %p (64B right of kfence-#", (void *)(p + 64));
	put_word((int *)p, 15 + argc);
	free(p);
	return 0;
}
