/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_07_char_strdup_error_path_bad.c.
 * Bug there: an error path frees a strdup'd string and the common cleanup
 * frees it again.
 * Fixed here: the error path clears the pointer after freeing it.
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
		copy = NULL;
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
