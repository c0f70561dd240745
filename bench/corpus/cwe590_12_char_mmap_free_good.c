/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_12_char_mmap_free_bad.c.
 * Bug there: memory from mmap() is passed to free().
 * Fixed here: it is released with munmap().
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
	munmap(data, size);
	return 0;
}
