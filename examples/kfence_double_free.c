/* Frees a buffer on an error path and again at the end. */
#include <stdlib.h>
#include <string.h>

static int parse(char *buf)
{
	if (strlen(buf) < 3) {
		free(buf);
		return -1;
	}
	return 0;
}

int main(void)
{
	char *buf = strdup("ab");
	parse(buf);
	free(buf);
	return 0;
}
