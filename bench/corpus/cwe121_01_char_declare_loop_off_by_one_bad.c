/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a loop fills a 10-byte stack array with i <= 10, writing buffer[10].
 * Good twin: cwe121_01_char_declare_loop_off_by_one_good.c
 */
#include <stdio.h>

int main(void)
{
	char buffer[10];
	size_t i;

	for (i = 0; i <= 10; i++)
		buffer[i] = 'A';
	buffer[9] = '\0';
	printf("%s\n", buffer);
	return 0;
}
