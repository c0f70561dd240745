/* Uses a session object after it has been freed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct session {
	char user[32];
	int refs;
};

static void session_put(struct session *s)
{
	if (--s->refs == 0)
		free(s);
}

int main(void)
{
	struct session *s = malloc(sizeof(*s));
	strcpy(s->user, "alice");
	s->refs = 1;
	session_put(s);
	printf("user %s\n", s->user); /* use after free */
	return 0;
}
