// MODE: generic
// Generic mode's objects of 40 bytes end at glibc's next size field, as
// they do under the preload (preload_tail_node.c): an object reached only
// through a list node that is its last member is no leak. The node's
// address is then the object's last 8 bytes, 16-aligned: where glibc's
// next chunk header begins, which the arena points at while that chunk is free. When the next
// chunk holds a live object, nothing of the arena's points there, and the
// pointer is the program's (PostgreSQL's background-worker list was
// reported as a leak). A lost object is still reported.
// CFLAGS: -O1
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 100\):(\n.*){5,16}\n    \[<[0-9a-f]+>\] lose_one\+0x
// COUNT: 1 unreferenced object 0x
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

struct node {
	struct node *next;
};

/* 40 bytes: a 64-byte glibc chunk, header and object, whose last 8 bytes
 * are the next chunk's first; the node is at offset 32, 16-aligned. */
struct item {
	char name[32];
	struct node link;
};

static struct node head;
static void *guard;

LEAK_TEST void build_list(void)
{
	for (int i = 0; i < 8; i++) {
		struct item *it = malloc(sizeof(*it));
		memset(it->name, 'a' + i, sizeof(it->name));
		it->link.next = head.next;
		head.next = &it->link;
	}
	/* The chunk after the last item holds a live object too. */
	guard = malloc(sizeof(struct item));
	HIDE(guard);
}

LEAK_TEST void lose_one(void)
{
	char *p = malloc(100);
	HIDE(p);
}

int main(void)
{
	run_deep(build_list);
	run_deep(lose_one);
	clear_stack();
	return 0;
}
