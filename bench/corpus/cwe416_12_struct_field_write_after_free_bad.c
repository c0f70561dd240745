/* CWE-416 Use After Free: BAD.
 * Bug: a field of a freed struct is written through a second pointer kept
 * in a cache.
 * Good twin: cwe416_12_struct_field_write_after_free_good.c
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
