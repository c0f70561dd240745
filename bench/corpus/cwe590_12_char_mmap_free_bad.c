/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: memory from mmap() is passed to free().
 * Good twin: cwe590_12_char_mmap_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(void)
{
	size_t size = 4096;
	char *data = (char *)mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (data == MAP_FAILED)
		exit(1);
	strcpy(data, "mapped");
	printf("%s\n", data);
	free(data);
	return 0;
}
