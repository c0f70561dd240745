/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_08_wchar_t_malloc_two_owners_bad.c.
 * Bug there: two records share one malloc'd wide string and each frees it.
 * Fixed here: the second record gets its own copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

struct record {
	wchar_t *name;
};

static void record_free(struct record *r)
{
	free(r->name);
	r->name = NULL;
}

int main(void)
{
	struct record a, b;

	a.name = (wchar_t *)malloc(16 * sizeof(wchar_t));
	if (a.name == NULL)
		exit(1);
	wcscpy(a.name, L"shared");
	b.name = wcsdup(a.name);
	if (b.name == NULL)
		exit(1);
	printf("%ls %ls\n", a.name, b.name);
	record_free(&a);
	record_free(&b);
	return 0;
}
