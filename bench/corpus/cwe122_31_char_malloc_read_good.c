/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_31_char_malloc_read_bad.c.
 * Bug there: read() is asked for 100 bytes (from /dev/zero) into a 50-byte
 * malloc'd buffer.
 * Fixed here: read() is asked for at most the buffer's size.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	size_t size = 50;
	char *data = (char *)malloc(size);
	ssize_t n;
	int fd = open("/dev/zero", O_RDONLY);

	if (data == NULL || fd < 0)
		exit(1);
	n = read(fd, data, size);
	close(fd);
	printf("%zd %d\n", n, data[0]);
	free(data);
	return 0;
}
