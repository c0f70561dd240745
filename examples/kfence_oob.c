/* Measures a label that fills its buffer to the last byte: with no
 * terminator, strlen reads on past the end of the heap object.
 *
 * KFENCE puts each object at the start or the end of its page at random,
 * as the kernel does. This overread is caught either way: the bytes after
 * the object, up to its page's end, are canary, never zero, so strlen runs
 * on into the guard page. (An overread of a byte or two would be caught
 * only when the object ends at the page end; from the page start it reads
 * canary, which only a write disturbs.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *label = malloc(8);
	memcpy(label, "overflow", 8); /* no room for the terminator */
	printf("label length %zu\n", strlen(label));
	free(label);
	return 0;
}
