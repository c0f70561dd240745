/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_20_char_alloca_strcpy_bad.c.
 * Bug there: a 99-character string is copied with strcpy into a 50-byte
 * alloca buffer.
 * Fixed here: the alloca buffer has room for the string and its terminator.
 */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	char *data = (char *)alloca(100 * sizeof(char));
	char *dest = (char *)alloca(100 * sizeof(char));

	memset(data, 'A', 100 - 1);
	data[100 - 1] = '\0';
	dest[0] = '\0';
	strcpy(dest, data);
	printf("%s\n", dest);
	return 0;
}
