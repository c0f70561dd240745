/* Reports from a library, then from another loaded where the first was
 * after dlclose (see check_dlclose_names.sh). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "kfence_test.h"

static void *use(const char *lib, const char *fn, void **base)
{
	void *h = dlopen(lib, RTLD_NOW);
	if (!h)
		exit(90);
	char (*touch)(volatile char *) = (char (*)(volatile char *))dlsym(h, fn);
	Dl_info info;
	dladdr((void *)touch, &info);
	*base = info.dli_fbase;
	char *p = test_alloc(16, ANY);
	free(p);
	touch(p);
	return h;
}

int main(int argc, char **argv)
{
	void *a, *b;
	if (argc < 3)
		return 91;
	dlclose(use(argv[1], "a_touch", &a));
	use(argv[2], "b_touch", &b);
	printf("same address: %s\n", a == b ? "yes" : "no");
	return 0;
}
