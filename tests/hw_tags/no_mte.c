// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_rate=1
// EXPECT: ukasan: kasan=on: this CPU has no memory tagging (MTE); running with KFENCE only
// EXPECT: BUG: KFENCE: out-of-bounds write in kfence_oob+0x
// COUNT: 1 ukasan: kasan=on
// STATUS: 0
// COUNT: 1 BUG: KFENCE:
// NOT: BUG: KASAN
// KASAN is not on, so the run keeps its status (ukasan.exitcode auto: 0
// under KFENCE alone).
// STDOUT: child: untagged
#include "hw_tags/hw_tags_test.h"

#include <errno.h>

/* On a CPU without MTE, kasan=on prints one line and the program runs on
 * with KFENCE only. The runner's qemu has MTE (-cpu max): the test runs
 * itself again under qemu -cpu cortex-a57. A guest can execute host
 * programs, so it starts the host's qemu-aarch64, giving it the preload and
 * library path as guest variables (-E): in the host's environment they
 * would reach the host's dynamic linker. */
extern char **environ;

static HW_TEST void kfence_oob(char *p)
{
	p[4096 - ((uintptr_t)p & 4095)] = 1;
}

static int child(void)
{
	char *p = malloc(24);
	HW_CHECK(hw_ptr_tag(p) == 0);
	HW_CHECK(ukasan_is_kfence_address && ukasan_is_kfence_address(p));
	printf("child: %s\n", hw_ptr_tag(p) ? "tagged" : "untagged");
	kfence_oob(p);
	free(p);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();
	char *args[16], *env[256], pre[4096], lib[4096], self[4096];
	/* The guest's path of this program: the host's /proc/self/exe would be
	 * qemu's. */
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 2;
	self[n] = 0;
	int a = 0, e = 0;
	snprintf(pre, sizeof(pre), "LD_PRELOAD=%s", getenv("LD_PRELOAD") ?: "");
	snprintf(lib, sizeof(lib), "LD_LIBRARY_PATH=%s", getenv("LD_LIBRARY_PATH") ?: "");
	args[a++] = "qemu-aarch64";
	args[a++] = "-cpu";
	args[a++] = "cortex-a57";
	args[a++] = "-L";
	args[a++] = "/usr/aarch64-linux-gnu";
	args[a++] = "-E";
	args[a++] = pre;
	args[a++] = "-E";
	args[a++] = lib;
	args[a++] = self;
	args[a++] = "child";
	args[a] = NULL;
	for (char **v = environ; *v && e < 255; v++)
		if (strncmp(*v, "LD_PRELOAD=", 11) && strncmp(*v, "LD_LIBRARY_PATH=", 16))
			env[e++] = *v;
	env[e] = NULL;
	fflush(stdout);
	execve("/usr/bin/qemu-aarch64", args, env);
	printf("execve: %s\n", strerror(errno));
	return 1;
}
