/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_24_struct_malloc_cast_larger_bad.c.
 * Bug there: a malloc'd short struct is read through a pointer to a longer
 * struct type, whose last field lies past the allocation.
 * Fixed here: the object is allocated as the longer type.
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
	struct header *h = (struct header *)calloc(1, sizeof(struct message));

	if (h == NULL)
		exit(1);
	h->kind = 1;
	printf("%d\n", checksum_of(h));
	free(h);
	return 0;
}
