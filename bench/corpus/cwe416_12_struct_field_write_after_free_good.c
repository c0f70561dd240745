/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_12_struct_field_write_after_free_bad.c.
 * Bug there: a field of a freed struct is written through a second pointer
 * kept in a cache.
 * Fixed here: the cached pointer is cleared when the object is freed.
 */
#include <stdio.h>
#include <stdlib.h>

struct session {
	int id;
	int refs;
};

static struct session *cache;

static void session_close(struct session *s)
{
	free(s);
	cache = NULL;
}

int main(void)
{
	struct session *s = (struct session *)malloc(sizeof(*s));

	if (s == NULL)
		exit(1);
	s->id = 1;
	s->refs = 1;
	cache = s;
	session_close(s);
	if (cache != NULL)
		cache->refs++;
	printf("done\n");
	return 0;
}
