/* The program of preload_tail_node.c and tail_node.c: a list whose nodes
 * are their objects' last members, the chunk after the last one holding a
 * live object, then one object lost. */
#ifndef TAIL_NODE_H
#define TAIL_NODE_H

#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

struct node {
	struct node *next;
};

/* 40 bytes: under the preload glibc's 48-byte chunk, in generic mode a
 * 64-byte one (header and object); either way its last 8 bytes are the
 * next chunk's first, and the node is at offset 32, 16-aligned. */
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

#endif
