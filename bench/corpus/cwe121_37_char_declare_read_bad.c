/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: read() is asked for 100 bytes (from /dev/zero, standing for input)
 * into a 50-byte stack buffer.
 * Good twin: cwe121_37_char_declare_read_good.c
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char data[50];
	ssize_t n;
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return 0;
	n = read(fd, data, 100);
	close(fd);
	printf("%zd %d\n", n, data[0]);
	return 0;
}
