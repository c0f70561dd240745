/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a 99-character string is copied with strcpy into a 50-byte alloca
 * buffer.
 * Good twin: cwe121_20_char_alloca_strcpy_good.c
 */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	char *data = (char *)alloca(100 * sizeof(char));
	char *dest = (char *)alloca(50 * sizeof(char));

	memset(data, 'A', 100 - 1);
	data[100 - 1] = '\0';
	dest[0] = '\0';
	strcpy(dest, data);
	printf("%s\n", dest);
	return 0;
}
