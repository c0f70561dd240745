/* CWE-415 Double Free: BAD.
 * Bug: an error path frees a strdup'd string and the common cleanup frees
 * it again.
 * Good twin: cwe415_07_char_strdup_error_path_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse(const char *text)
{
	int rc = 0;
	char *copy = strdup(text);

	if (copy == NULL)
		return -1;
	if (strchr(copy, '=') == NULL) {
		free(copy);

		rc = -1;
		goto out;
	}
	printf("%s\n", copy);
out:
	free(copy);
	return rc;
}

int main(void)
{
	printf("%d\n", parse("no equals sign here"));
	return 0;
}
