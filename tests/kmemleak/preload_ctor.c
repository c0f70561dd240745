// An object is the dynamic linker's (a root, never reported) when the
// linker's own code called the allocator, as LSan has it: its TLS blocks
// and link maps. A library's constructor, which the linker calls,
// allocates as the program does, and its lost object is reported (one
// found by LSan, hidden when three frames were looked at). Here a library
// built at run time loses 77 bytes in its constructor, keeps 24 in its
// .bss and 33 in a thread-local variable of its own: the 77 only are
// reported.
// ARCH: x86_64 -- the library is built by the host's compiler at run time
// RUN: kmemleak=on kfence.sample_interval=0
// CFLAGS: -O1 -ldl
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 77\):(\n.*){5,16}\n    \[<[0-9a-f]+>\] lose_in_ctor\+0x
// COUNT: 1 unreferenced object 0x
#define _GNU_SOURCE
#include <dlfcn.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "leak_test.h"

extern char **environ;

static const char lib_source[] = "#include <stdlib.h>\n"
                                 "static void *kept;\n"
                                 "static __thread void *tls_kept;\n"
                                 "__attribute__((noinline)) void lose_in_ctor(void)\n"
                                 "{\n"
                                 "\tvoid *volatile p = malloc(77);\n"
                                 "\tp = 0;\n"
                                 "}\n"
                                 "__attribute__((constructor)) static void ctor(void)\n"
                                 "{\n"
                                 "\tlose_in_ctor();\n"
                                 "\tkept = malloc(24);\n"
                                 "}\n"
                                 "void keep_in_tls(void)\n"
                                 "{\n"
                                 "\ttls_kept = malloc(33);\n"
                                 "}\n";

/* The host's compiler, run without the preload: its own leaks are not
 * this test's. */
static void build_lib(const char *src, const char *lib)
{
	FILE *f = fopen(src, "w");
	if (!f || fputs(lib_source, f) < 0 || fclose(f) != 0) {
		perror(src);
		exit(3);
	}
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = calloc(n + 1, sizeof(*env));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) &&
		    strncmp(environ[i], "UKASAN_OPTIONS=", 15))
			env[k++] = environ[i];
	char *argv[] = {"cc", "-shared", "-fPIC", "-O1", "-o", (char *)lib, (char *)src, NULL};
	pid_t pid;
	int status;
	if (posix_spawnp(&pid, "cc", NULL, NULL, argv, env) != 0 ||
	    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "cc could not build %s\n", lib);
		exit(3);
	}
	free(env);
}

static char lib[4096];

LEAK_TEST void load(void)
{
	void *h = dlopen(lib, RTLD_NOW);
	void (*keep)(void) = h ? (void (*)(void))dlsym(h, "keep_in_tls") : NULL;
	if (!keep) {
		fprintf(stderr, "dlopen %s: %s\n", lib, dlerror());
		exit(3);
	}
	keep();
}

int main(void)
{
	const char *dir = getenv("UKASAN_TEST_TMP");
	char src[4096];
	snprintf(src, sizeof(src), "%s/ctor_lib_%d.c", dir && *dir ? dir : "/tmp", (int)getpid());
	snprintf(lib, sizeof(lib), "%s/ctor_lib_%d.so", dir && *dir ? dir : "/tmp", (int)getpid());
	build_lib(src, lib);
	run_deep(load); /* the files stay: the report at exit reads the library's symbols */
	clear_stack();
	return 0;
}
