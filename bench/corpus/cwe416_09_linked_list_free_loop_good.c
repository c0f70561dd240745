/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_09_linked_list_free_loop_bad.c.
 * Bug there: a loop frees each node of a list and then advances with
 * node->next, reading the freed node.
 * Fixed here: next is saved before the node is freed.
 */
#include <stdio.h>
#include <stdlib.h>

struct node {
	int value;
	struct node *next;
};

int main(void)
{
	struct node *head = NULL, *n;
	int i;

	for (i = 0; i < 4; i++) {
		n = (struct node *)malloc(sizeof(*n));
		if (n == NULL)
			exit(1);
		n->value = i;
		n->next = head;
		head = n;
	}
	printf("%d\n", head->value);
	while (head != NULL) {
		n = head->next;
		free(head);
		head = n;
	}
	return 0;
}
