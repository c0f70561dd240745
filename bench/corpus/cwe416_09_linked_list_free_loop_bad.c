/* CWE-416 Use After Free: BAD.
 * Bug: a loop frees each node of a list and then advances with node->next,
 * reading the freed node.
 * Good twin: cwe416_09_linked_list_free_loop_good.c
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
	for (n = head; n != NULL; n = n->next)
		free(n);
	return 0;
}
