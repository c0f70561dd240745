// MODE: generic
// TAG-MODES: sw_tags
// LSan's two kinds of leak in its lines: an object only other leaks point
// to is an "Indirect leak" (a lost list's nodes, both members of a lost
// cycle), one no leak points to a "Direct leak"; direct ones come first,
// each kind largest first, as LSan prints them, since ClusterFuzz takes
// the crash state from the first. kmemleak's own lines report every one,
// one report per stack: a list lost by its head, all nodes from one stack,
// is one direct report that shows the head and counts the nodes.
// RUN: ukasan.asan_lines=on
// STATUS: 1
// EXPECT-RE: Direct leak of 48 byte\(s\) in 1 object\(s\) allocated from:\n  backtrace \(crc [0-9a-f]+\):\n    \[<[0-9a-f]+>\] make_holder\+
// EXPECT-RE: unreferenced object 0x[0-9a-f]+ \(size 32\):\n.*\n.*\n    [0-9a-f ]{24}11 22 22 22 22 22 22 22 .*\n.*\nDirect leak of 32 byte\(s\) in 1 object\(s\) allocated from:\n  backtrace \(crc [0-9a-f]+\):\n    \[<[0-9a-f]+>\] make_chain\+(.*\n){1,8}  3 more unreferenced objects from this stack \(128 bytes in 4 objects\)
// EXPECT-RE: Direct leak of 24 byte\(s\) in 1 object\(s\) allocated from:\n  backtrace \(crc [0-9a-f]+\):\n    \[<[0-9a-f]+>\] lose_small\+
// EXPECT-RE: Indirect leak of 640 byte\(s\) in 10 object\(s\) allocated from:\n  backtrace \(crc [0-9a-f]+\):\n    \[<[0-9a-f]+>\] make_list\+
// EXPECT-RE: Indirect leak of 40 byte\(s\) in 1 object\(s\) allocated from:\n  backtrace \(crc [0-9a-f]+\):\n    \[<[0-9a-f]+>\] make_cycle\+
// EXPECT-RE: Indirect leak of 32 byte\(s\) in 1 object\(s\) allocated from:\n  backtrace \(crc [0-9a-f]+\):\n    \[<[0-9a-f]+>\] make_cycle\+
// EXPECT: ukasan: kmemleak: 18 new suspected memory leaks (912 bytes) from 6 allocation stacks
// COUNT: 3 Direct leak of
// COUNT: 3 Indirect leak of
// COUNT: 6 BUG: memory leak
#include <stdlib.h>

#include "leak_test.h"

struct node {
	struct node *next;
	char pad[56];
};

struct holder {
	struct node *list;
	char pad[40];
};

LEAK_TEST struct node *make_list(int n)
{
	struct node *head = NULL;
	for (int i = 0; i < n; i++) {
		struct node *x = malloc(sizeof(*x));
		x->next = head;
		head = x;
	}
	return head;
}

LEAK_TEST void make_holder(void)
{
	struct holder *h = malloc(sizeof(*h));
	h->list = make_list(10);
	HIDE(h);
}

/* Each node 32 bytes, the head's first byte 0x11, the others' 0x22. */
LEAK_TEST void make_chain(void)
{
	void **head = NULL;
	for (int i = 0; i < 4; i++) {
		void **x = malloc(32);
		memset(x, 0x22, 32);
		x[0] = head;
		head = x;
	}
	((char *)head)[8] = 0x11;
	HIDE(head);
}

LEAK_TEST void lose_small(void)
{
	char *p = malloc(24);
	p[0] = 1;
	HIDE(p);
}

LEAK_TEST void make_cycle(void)
{
	void **a = malloc(32);
	void **b = malloc(40);
	a[0] = b;
	b[0] = a;
	HIDE(a);
	HIDE(b);
}

static void leak_all(void)
{
	make_holder();
	make_chain();
	lose_small();
	make_cycle();
}

int main(void)
{
	run_deep(leak_all);
	clear_stack();
	return 0;
}
