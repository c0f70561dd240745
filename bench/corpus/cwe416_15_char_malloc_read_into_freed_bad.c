/* CWE-416 Use After Free: BAD.
 * Bug: read() (from /dev/zero) fills a malloc'd buffer that was already
 * freed.
 * Good twin: cwe416_15_char_malloc_read_into_freed_good.c
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	char *data = (char *)malloc(64);
	int fd = open("/dev/zero", O_RDONLY);
	ssize_t n;

	if (data == NULL || fd < 0)
		exit(1);
	free(data);
	n = read(fd, data, 64);
	close(fd);
	printf("%d\n", n == 64);
	return 0;
}
