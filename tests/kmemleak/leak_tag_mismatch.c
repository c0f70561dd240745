// MODE: sw_tags
// TAG-MODES: hw_tags
// RUN: kasan.mode=async
// The tag modes' leak check looks a word up with its top byte cleared, as
// the kernel's kmemleak resets the KASAN tag first: an object whose address
// is kept only under another tag than its own (here and in an interior
// pointer), only with the match-all tag, or only untagged, is not a leak.
// An object nothing points to is, and so is a list whose head is lost: its
// second object is reached only from the first. The scan reads every
// object through an untagged pointer: with hardware tags (checked
// asynchronously here, synchronously in the other tests) that must not
// fault on the tags of a hundred objects chained through each other and of
// a large one.
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 72\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] lose_one\+0x
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 40\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] lose_list\+0x
// EXPECT: 1 more unreferenced object from this stack (80 bytes in 2 objects)
// EXPECT: ukasan: kmemleak: 3 new suspected memory leaks (152 bytes) from 2 allocation stacks
// COUNT: 2 BUG: memory leak
// NOT: BUG: KASAN
// NOT: keep_
// STDOUT: tagged: 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "leak_test.h"

#define TOP (0xfful << 56)

uintptr_t other_tag, interior_other, match_all, untagged;
static volatile int list_length = 2; /* one allocation site: no unrolling */
void *chain, *large;

static uintptr_t with_tag(void *p, unsigned tag)
{
	return ((uintptr_t)p & ~TOP) | (uintptr_t)tag << 56;
}

/* A tag other than p's (never 0: that is untagged, kept apart below). */
static unsigned other(void *p)
{
	unsigned t = (unsigned)((uintptr_t)p >> 56);
	return (t ^ 1) ? t ^ 1 : t ^ 2;
}

LEAK_TEST void keep_other_tag(void)
{
	char *p = malloc(24);
	other_tag = with_tag(p, other(p));
	char *q = malloc(48);
	interior_other = with_tag(q + 40, other(q));
	HIDE(p);
	HIDE(q);
}

LEAK_TEST void keep_match_all(void)
{
	void *p = malloc(32);
	match_all = with_tag(p, 0xff);
	HIDE(p);
}

LEAK_TEST void keep_untagged(void)
{
	void *p = malloc(56);
	untagged = with_tag(p, 0);
	HIDE(p);
}

/* A hundred objects of many tags, each holding the next, and a large
 * object holding the first: all read by the scan, none a leak. */
LEAK_TEST void keep_chain(void)
{
	void **prev = NULL;
	for (int i = 0; i < 100; i++) {
		void **n = malloc(16 + 16 * (i % 8));
		n[0] = prev;
		prev = n;
	}
	large = malloc(100000);
	((void **)large)[5000] = prev;
	HIDE(prev);
}

LEAK_TEST void lose_one(void)
{
	void *p = malloc(72);
	HIDE(p);
}

LEAK_TEST void lose_list(void)
{
	void **head = NULL;
	for (int i = 0; i < list_length; i++) {
		void **n = malloc(40);
		n[0] = head;
		head = n;
	}
	HIDE(head);
}

int main(void)
{
	void *probe = malloc(8);
	printf("tagged: %d\n", ((uintptr_t)probe >> 56) != 0);
	free(probe);
	run_deep(keep_other_tag);
	run_deep(keep_match_all);
	run_deep(keep_untagged);
	run_deep(keep_chain);
	run_deep(lose_one);
	run_deep(lose_list);
	clear_stack();
	return 0;
}
