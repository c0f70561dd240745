/* CWE-126 Buffer Over-read: BAD.
 * Bug: a malloc'd short struct is read through a pointer to a longer struct
 * type, whose last field lies past the allocation.
 * Good twin: cwe126_24_struct_malloc_cast_larger_good.c
 */
#include <stdio.h>
#include <stdlib.h>

struct header {
	int kind;
	int length;
};

struct message {
	int kind;
	int length;
	int checksum;
	int flags;
};

static int checksum_of(const struct header *h)
{
	return ((const struct message *)h)->checksum;
}

int main(void)
{
	struct header *h = (struct header *)calloc(1, sizeof(struct header));

	if (h == NULL)
		exit(1);
	h->kind = 1;
	printf("%d\n", checksum_of(h));
	free(h);
	return 0;
}
