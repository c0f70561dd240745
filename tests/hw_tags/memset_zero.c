// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// NOT: BUG: KASAN
// STDOUT: zeroed 7
#include "hw_tags/hw_tags_test.h"

/* Correct programs clear buffers with memset(p, 0, n): glibc's memset
 * zeroes whole cache blocks with DC ZVA from some size on, a tag-checked
 * store. On tagged heap memory of every size it must neither fault nor
 * report. (qemu 7.2's DC ZVA faults on tagged pointers with tag checks on,
 * SIGSEGV with SEGV_MAPERR, even under glibc's own glibc.mem.tagging: the
 * runtime has to let such a program run on.) */
int main(void)
{
	static const size_t sizes[] = {100, 512, 1000, 2048, 4000, 65536, 1 << 20};
	int done = 0;
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		unsigned char *p = malloc(n);
		memset(p, 0xff, n);
		memset(p, 0, n);
		size_t nonzero = 0;
		for (size_t k = 0; k < n; k++)
			nonzero += p[k] != 0;
		HW_CHECK(nonzero == 0);
		done += nonzero == 0;
		free(p);
	}
	printf("zeroed %d\n", done);
	return 0;
}
