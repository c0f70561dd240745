// A program built with plain gcc, under the preload with kmemleak=on: each
// kind of leak LeakSanitizer finds is reported with the function that
// leaked it. A dropped list: its head is reported (the kernel's kmemleak
// reports every unreferenced object: the nodes too, whose only pointers
// are in leaked objects), malloc(0), an object grown by realloc, one made
// by a thread that has exited; and a failing exit status. In LSan's order:
// largest first by what no other leak points to (the list's head alone).
// RUN: kmemleak=on
// RUN-ALSO: kmemleak=on kfence.sample_interval=0
// CFLAGS: -O1 -pthread
// REPEAT: 5
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 200\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] lose_realloc\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/preload_kinds.c:\d+
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 72\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] thread_leaks\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/preload_kinds.c:\d+
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 48\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] lose_list\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/preload_kinds.c:\d+
// EXPECT: 2 more unreferenced objects from this stack (144 bytes in 3 objects)
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 0\):(\n.*){3,7}\n    \[<[0-9a-f]+>\] lose_zero\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/preload_kinds.c:\d+
// EXPECT: ukasan: kmemleak: 6 new suspected memory leaks (416 bytes) from 4 allocation stacks
// COUNT: 4 unreferenced object 0x
// NOT: lose_kept
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

struct node {
	struct node *next;
	long pad[5];
};

void *kept;

LEAK_TEST void lose_kept(void)
{
	kept = malloc(24); /* reachable from a global: no report */
	HIDE(kept);
}

LEAK_TEST void lose_list(void)
{
	struct node *head = NULL;
	for (int i = 0; i < 3; i++) {
		struct node *n = malloc(sizeof(*n));
		n->next = head;
		head = n;
		HIDE(head);
	}
	HIDE(head);
}

LEAK_TEST void lose_zero(void)
{
	void *p = malloc(0);
	HIDE(p);
}

LEAK_TEST void lose_realloc(void)
{
	char *p = malloc(8);
	HIDE(p);
	p = realloc(p, 200);
	HIDE(p);
	memset(p, 2, 200);
	HIDE(p);
}

LEAK_TEST void thread_leaks(void)
{
	char *p = malloc(72);
	HIDE(p);
	memset(p, 1, 72);
	HIDE(p);
}

static void *thread_main(void *arg)
{
	(void)arg;
	run_deep(thread_leaks);
	clear_stack();
	return NULL;
}

int main(void)
{
	run_deep(lose_kept);
	run_deep(lose_list);
	run_deep(lose_zero);
	run_deep(lose_realloc);
	pthread_t t;
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, NULL);
	clear_stack();
	return 0;
}
