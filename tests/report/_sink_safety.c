/* The programs of check_sink_safety.py, one per argv[1]:
 *   oob            one heap out-of-bounds write
 *   fd2 PATH       started with fd 2 closed: opens PATH (which takes fd 2),
 *                  writes its own lines there around a use-after-free read
 *   many N         N out-of-bounds writes (kasan_multi_shot), one report each
 *   burst N        the same, then "burst done" on stdout and, after the
 *                  test has read the receiver's queue, one more
 *   nofd MODE      an out-of-bounds write once no descriptor is free:
 *                  MODE 0 none used up, 1 soft and hard RLIMIT_NOFILE
 *                  lowered to 64, 2 the soft one only, 3 the limit as it is */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

NOINLINE void heap_write(char *p, int i)
{
	p[i] = 1;
}

NOINLINE int read_freed(char *p)
{
	return p[3];
}

static void use_up_descriptors(int mode)
{
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	if (mode == 1)
		rl.rlim_cur = rl.rlim_max = 64;
	if (mode == 2)
		rl.rlim_cur = 64;
	if ((mode == 1 || mode == 2) && setrlimit(RLIMIT_NOFILE, &rl))
		exit(90);
	if (mode)
		while (open("/dev/null", O_RDONLY) >= 0)
			;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	int n = argc > 2 ? atoi(argv[2]) : 0;
	char *p = malloc(16);
	if (!strcmp(what, "oob")) {
		heap_write(p, 16 + n);
	} else if (!strcmp(what, "fd2")) {
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dprintf(fd, "the program's line, at fd %d\n", fd);
		char *q = malloc(32);
		free(q);
		volatile int got = read_freed(q);
		(void)got;
		dprintf(fd, "the program's last line\n");
		close(fd);
	} else if (!strcmp(what, "many")) {
		for (int i = 0; i < n; i++)
			heap_write(p, 16);
	} else if (!strcmp(what, "burst")) {
		for (int i = 0; i < n; i++)
			heap_write(p, 16);
		printf("burst done\n");
		fflush(stdout);
		char go;
		if (read(0, &go, 1) != 1)
			return 91;
		heap_write(p, 16);
	} else if (!strcmp(what, "nofd")) {
		use_up_descriptors(n);
		heap_write(p, 16);
	}
	free(p);
	printf("finished\n");
	return 0;
}
