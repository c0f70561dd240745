/* For check_syzkaller_title.sh: one leak, chosen by argv[1]. */
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

static const char *which;

LEAK_TEST void lose_object(void)
{
	char *p = malloc(40);
	HIDE(p);
	strcpy(p, "lost");
	HIDE(p);
}

LEAK_TEST void drop_name(void)
{
	char *p = strdup("a string nobody frees");
	HIDE(p);
}

LEAK_TEST void lose_many(void)
{
	for (int i = 0; i < 100; i++) {
		char *p = calloc(1, 24);
		HIDE(p);
	}
}

static void pick(void)
{
	if (!strcmp(which, "object"))
		lose_object();
	else if (!strcmp(which, "string"))
		drop_name();
	else if (!strcmp(which, "many"))
		lose_many();
}

int main(int argc, char **argv)
{
	which = argc > 1 ? argv[1] : "object";
	run_deep(pick);
	clear_stack();
	return 0;
}
