/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_19_linked_list_free_then_head_bad.c.
 * Bug there: a list is destroyed by a function that frees every node, and
 * the caller then frees the head node again.
 * Fixed here: the caller only clears its pointer.
 */
#include <stdio.h>
#include <stdlib.h>

struct node {
	int value;
	struct node *next;
};

static void list_free(struct node *head)
{
	while (head != NULL) {
		struct node *next = head->next;
		free(head);
		head = next;
	}
}

int main(void)
{
	struct node *head = NULL, *n;
	int i, sum = 0;

	for (i = 0; i < 3; i++) {
		n = (struct node *)malloc(sizeof(*n));
		if (n == NULL)
			exit(1);
		n->value = i;
		n->next = head;
		head = n;
	}
	for (n = head; n != NULL; n = n->next)
		sum += n->value;
	printf("%d\n", sum);
	list_free(head);
	head = NULL;
	return 0;
}
