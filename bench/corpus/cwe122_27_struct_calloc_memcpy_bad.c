/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: an array of 50 structs is calloc'd and 100 structs are memcpy'd into
 * it.
 * Good twin: cwe122_27_struct_calloc_memcpy_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct two_ints {
	int a;
	int b;
};

int main(void)
{
	struct two_ints *data = (struct two_ints *)calloc(50, sizeof(struct two_ints));
	struct two_ints source[100];
	size_t i;

	if (data == NULL)
		exit(1);
	for (i = 0; i < 100; i++) {
		source[i].a = 0;
		source[i].b = 0;
	}
	memcpy(data, source, 100 * sizeof(struct two_ints));
	printf("%d %d\n", data[0].a, data[0].b);
	free(data);
	return 0;
}
