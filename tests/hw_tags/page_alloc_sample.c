// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan.stats=1 kasan.page_alloc.sample=10 kfence.sample_interval=0
// RUN-ALSO: kasan=on kasan.stats=1 kasan.page_alloc.sample=1 kfence.sample_interval=0
// RUN-ALSO: kasan=on kasan.stats=1 kasan.page_alloc.sample=10 kasan.page_alloc.sample.order=5 kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

#define N 200

/* A whole number option from UKASAN_OPTIONS, or def. */
static unsigned long option(const char *name, unsigned long def)
{
	const char *o = getenv("UKASAN_OPTIONS"), *s = o ? strstr(o, name) : NULL;
	return s && s[strlen(name)] == '=' ? strtoul(s + strlen(name) + 1, NULL, 10) : def;
}

/* Every tagged object run() made, freed since: where and under which tag.
 * A read past the object below is reported as a use after free of one of
 * them when it lay there under the same pointer tag (the kernel's rule for
 * the tag modes, which the stack ring follows): a tag collision, which the
 * object read past is chosen to avoid. */
static struct {
	uintptr_t lo, hi;
	unsigned tag;
} freed[2 * N];
static int nfreed;

static int collides(const char *p, size_t size)
{
	uintptr_t past = hw_untag(p) + size;
	for (int i = 0; i < nfreed; i++)
		if (past >= freed[i].lo && past < freed[i].hi && freed[i].tag == hw_ptr_tag(p))
			return 1;
	return 0;
}

/* Seed 003's sampling, the kernel's rule: allocations above half of
 * 4 KiB << sample.order are tagged one in sample (the first, then every
 * sample-th); smaller ones always. Untagged ones have pointer tag 0, their
 * memory tag 0, and nothing is checked in them. */
static HW_TEST int run(size_t size, int *subject)
{
	unsigned long every = option("kasan.page_alloc.sample", 1);
	unsigned long order = option("kasan.page_alloc.sample.order", 3);
	*subject = size > (4096ul << order) / 2;
	char *p[N];
	int tagged = 0;
	for (int i = 0; i < N; i++) {
		p[i] = malloc(size);
		int t = hw_ptr_tag(p[i]) != 0;
		tagged += t;
		HW_CHECK(hw_mem_tag(p[i]) == hw_ptr_tag(p[i]));
		HW_CHECK(hw_mem_tag(p[i] + size - 1) == hw_ptr_tag(p[i]));
		HW_CHECK(t == (!*subject || i % every == 0));
		p[i][0] = p[i][size - 1] = 1;
	}
	for (int i = 0; i < N; i++) {
		if (hw_ptr_tag(p[i]) == 0)
			hw_int_result = p[i][size]; /* not checked: no report */
		else
			freed[nfreed++] = (__typeof__(freed[0])){hw_untag(p[i]), hw_untag(p[i]) + size,
			                                         hw_ptr_tag(p[i])};
		free(p[i]);
		/* Nor after free, while glibc keeps the memory mapped (below its
		 * mmap threshold). */
		if (hw_ptr_tag(p[i]) == 0 && size < (128 << 10))
			hw_int_result = p[i][8];
	}
	HW_CHECK(tagged == (*subject ? (int)((N + every - 1) / every) : N));
	return tagged;
}

int main(void)
{
	int s64, s256;
	int t64 = run(64 << 10, &s64), t256 = run(256 << 10, &s256);
	int sampled = (s64 ? t64 : 0) + (s256 ? t256 : 0);
	int skipped = (s64 ? N - t64 : 0) + (s256 ? N - t256 : 0);
	/* A sampled one is checked. */
	char *p = NULL;
	for (int i = 0; i < 40 && (!hw_ptr_tag(p) || collides(p, 256 << 10)); i++) {
		p = malloc(256 << 10); /* the ones passed over are kept: not reused */
		sampled += s256 && hw_ptr_tag(p);
		skipped += s256 && !hw_ptr_tag(p);
	}
	HW_EXPECT_FAIL(hw_int_result = p[256 << 10], .type = "slab-out-of-bounds", .rw = "Read",
	               .size = 1, .addr = p + (256 << 10), .obj = p, .obj_size = 256 << 10,
	               .cache = "malloc-large");
	expect(
	    "page_alloc sampling:    kasan.page_alloc.sample=%lu order=%lu: %d sampled, %d skipped",
	    option("kasan.page_alloc.sample", 1), option("kasan.page_alloc.sample.order", 3),
	    sampled, skipped);
	return 0;
}
