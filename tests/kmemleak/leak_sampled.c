// MODE: generic
// In a program built with ukasan-cc, an object KFENCE sampled is a heap
// object as KASAN's are: lost, it is reported once, with its allocation
// stack (it was only read as a root before, and what it pointed to kept).
// A lost list's sampled objects make one report.
// RUN: kfence.sample_rate=1
// STATUS: 1
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 48\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_list\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_sampled.c:\d+
// EXPECT: 2 more unreferenced objects from this stack (144 bytes in 3 objects)
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 40\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_one\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_sampled.c:\d+
// EXPECT: ukasan: kmemleak: 4 new suspected memory leaks (184 bytes) from 2 allocation stacks
// COUNT: 2 BUG: memory leak
// STDOUT: sampled 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

int __sanitizer_get_ownership(const volatile void *p);

char *kept;
int sampled;

struct node {
	struct node *next;
	char pad[40];
};

LEAK_TEST void lose_one(void)
{
	kept = malloc(16);
	strcpy(kept, "kept");
	char *p = malloc(40);
	HIDE(p);
	strcpy(p, "lost");
	/* KFENCE's objects only: KASAN's own are owned too, but lie outside
	 * its pool; kfence.sample_rate=1 guards this one. */
	sampled = __sanitizer_get_ownership(p);
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
