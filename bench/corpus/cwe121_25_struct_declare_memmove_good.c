/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_25_struct_declare_memmove_bad.c.
 * Bug there: data points to a stack array of 50 structs and 100 structs are
 * memmoved into it.
 * Fixed here: data points to the array of 100.
 */
#include <stdio.h>
#include <string.h>

struct two_ints {
	int a;
	int b;
};

int main(void)
{
	struct two_ints data_bad_buffer[50];
	struct two_ints data_good_buffer[100];
	struct two_ints *data = data_good_buffer;
	struct two_ints source[100];
	size_t i;

	for (i = 0; i < 100; i++) {
		source[i].a = 0;
		source[i].b = 0;
	}
	memmove(data, source, 100 * sizeof(struct two_ints));
	printf("%d %d\n", data[0].a, data[0].b);
	return 0;
}
