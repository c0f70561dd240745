/* Keeps a pointer into a list node after freeing the list. */
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *next;
	int value;
};

static void free_list(struct node *n)
{
	while (n) {
		struct node *next = n->next;
		free(n);
		n = next;
	}
}

int main(void)
{
	struct node *head = NULL;
	for (int i = 0; i < 3; i++) {
		struct node *n = malloc(sizeof(*n));
		n->value = i;
		n->next = head;
		head = n;
	}
	struct node *last = head->next->next;
	free_list(head);
	printf("%d\n", last->value); /* freed */
	return 0;
}
