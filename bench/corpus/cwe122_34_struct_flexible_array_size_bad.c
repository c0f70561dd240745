/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a struct with a flexible array member is allocated with room for n -
 * 1 elements and n are stored.
 * Good twin: cwe122_34_struct_flexible_array_size_good.c
 */
#include <stdio.h>
#include <stdlib.h>

struct packet {
	size_t count;
	int values[];
};

static struct packet *make_packet(size_t n)
{
	struct packet *p = (struct packet *)malloc(sizeof(struct packet) + (n - 1) * sizeof(int));
	size_t i;

	if (p == NULL)
		exit(1);
	p->count = n;
	for (i = 0; i < n; i++)
		p->values[i] = (int)i;
	return p;
}

int main(void)
{
	struct packet *p = make_packet(8);

	printf("%zu %d\n", p->count, p->values[p->count - 1]);
	free(p);
	return 0;
}
