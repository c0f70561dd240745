// A program built with plain gcc, under the preload at its defaults (no
// kmemleak=on), with KFENCE set to guard every allocation: an object it
// sampled whose only pointer is lost is a leak, reported at exit in
// kmemleak's format with the function that allocated it and its size; the
// exit status stays the program's (ukasan.exitcode changes it). A lost
// list's three objects make one report, the object a global keeps none.
// RUN: kfence.sample_rate=1
// CFLAGS: -O1
// STATUS: 0
// EXPECT: BUG: memory leak
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 48\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_list\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/preload_sampled.c:\d+
// EXPECT: 2 more unreferenced objects from this stack (144 bytes in 3 objects)
// EXPECT: BUG: memory leak
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 40\):
// EXPECT: 6c 6f 73 74 00
// EXPECT-RE: ^  backtrace \(crc [0-9a-f]{8}\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_one\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/preload_sampled.c:\d+
// EXPECT-RE: ^    \[<[0-9a-f]+>\] main\+0x
// EXPECT: ukasan: kmemleak: 4 new suspected memory leaks (184 bytes) from 2 allocation stacks
// NOT: instead of 0
// COUNT: 2 BUG: memory leak
// STDOUT: sampled 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

/* Ours under the preload: whether p is an object KFENCE guards. */
int __sanitizer_get_ownership(const volatile void *p) __attribute__((weak));

char *kept;
int sampled;

struct node {
	struct node *next;
	char pad[40];
};

LEAK_TEST void lose_one(void)
{
	kept = malloc(16); /* reachable from a global: no report */
	strcpy(kept, "kept");
	char *p = malloc(40);
	HIDE(p);
	strcpy(p, "lost");
	sampled = __sanitizer_get_ownership && __sanitizer_get_ownership(p);
	HIDE(p);
}

LEAK_TEST void lose_list(void)
{
	struct node *head = NULL;
	for (int i = 0; i < 3; i++) {
		struct node *n = calloc(1, sizeof(*n));
		n->next = head;
		head = n;
	}
	HIDE(head);
}

int main(void)
{
	run_deep(lose_one);
	run_deep(lose_list);
	clear_stack();
	printf("sampled %d\n", sampled);
	return 0;
}
