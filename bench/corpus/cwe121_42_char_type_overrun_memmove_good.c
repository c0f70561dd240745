/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_42_char_type_overrun_memmove_bad.c.
 * Bug there: memmove copies sizeof the whole struct into its first field, a
 * 16-byte char array, overwriting the pointer after it inside the same
 * object.
 * Fixed here: the copy is of sizeof the field, then a terminator.
 */
#include <stdio.h>
#include <string.h>

#define SRC_STR "0123456789abcdef0123456789abcde"

struct char_void {
	char char_first[16];
	void *void_second;
	void *void_third;
};

int main(void)
{
	struct char_void s;

	s.void_second = (void *)SRC_STR;
	printf("%s\n", (char *)s.void_second);
	memmove(s.char_first, SRC_STR, sizeof(s.char_first));
	s.char_first[sizeof(s.char_first) - 1] = '\0';
	printf("%s\n", s.char_first);
	printf("%s\n", (char *)s.void_second);
	return 0;
}
