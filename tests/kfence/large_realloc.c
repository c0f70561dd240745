// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: use-after-free read in read_at+0x
// EXPECT: size=100, cache=malloc
// EXPECT: BUG: KFENCE: out-of-bounds read in read_at+0x
// EXPECT: size=262144, cache=realloc
// EXPECT: BUG: KFENCE: use-after-free read in read_at+0x
// EXPECT: size=262144, cache=realloc
// EXPECT: BUG: KFENCE: use-after-free read in read_at+0x
// EXPECT: size=100000, cache=realloc
// COUNT: 4 BUG: KFENCE:
// NOT: memory corruption
// STDOUT: realloc ok
#include <string.h>

#include "kfence_test.h"

/* realloc moves objects into the large slots, out of them (past
 * kfence.large_size, to glibc) and back, keeping the contents; each old
 * object is freed, so a stale pointer to it is caught. */
__attribute__((noinline)) static char read_at(volatile char *p)
{
	return *p;
}

int main(void)
{
	char *p = test_alloc(100, ANY);
	memcpy(p, "hello", 6);
	char *volatile old = p;
	char *q = realloc(p, 256 << 10); /* into the large range */
	if (!q || !ukasan_is_kfence_address(q) || strcmp(q, "hello") ||
	    malloc_usable_size(q) != 256 << 10)
		return 90;
	expect("Use-after-free read at %p (in kfence-#", (void *)(old + 1));
	read_at(old + 1);
	memset(q + 6, 'x', (256 << 10) - 6);
	expect("Out-of-bounds read at %p (262144B right of kfence-#", (void *)(q + (256 << 10)));
	read_at(q + (256 << 10));
	old = q;
	char *r = realloc(q, 4 << 20); /* past kfence.large_size: glibc's */
	if (!r || ukasan_is_kfence_address(r) || memcmp(r, "hello", 6) || r[(256 << 10) - 1] != 'x')
		return 89;
	expect("Use-after-free read at %p (in kfence-#", (void *)(old + 200000));
	read_at(old + 200000);
	char *s = realloc(r, 100000); /* from glibc's back into a large slot */
	if (!s || !ukasan_is_kfence_address(s) || memcmp(s, "hello", 6) || s[99999] != 'x')
		return 88;
	old = s;
	char *t = realloc(s, 50); /* from a large slot to a small one */
	if (!t || !ukasan_is_kfence_address(t) || memcmp(t, "hello", 6) || t[49] != 'x' ||
	    malloc_usable_size(t) != 50)
		return 87;
	expect("Use-after-free read at %p (in kfence-#", (void *)(old + 90000));
	read_at(old + 90000);
	free(t);
	printf("realloc ok\n");
	return 0;
}
