// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_rate=1 kfence.num_objects=4
// EXPECT: BUG: KFENCE: out-of-bounds read in kfence_oob+0x
// COUNT: 1 BUG: KFENCE:
// COUNT: 1 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* KFENCE samples beside hardware tags, as in the kernel: with
 * sample_rate=1 small objects come from KFENCE's pool (untagged) and its
 * reports fire; once its few slots are taken, objects come tagged, and
 * KASAN reports on them. */
static HW_TEST void kfence_oob(char *p)
{
	expect("Out-of-bounds read at %p", (void *)(p + 4096 - ((uintptr_t)p & 4095)));
	hw_int_result = p[4096 - ((uintptr_t)p & 4095)];
}

int main(void)
{
	char *k = calloc(1, 32);
	HW_CHECK(ukasan_is_kfence_address && ukasan_is_kfence_address(k));
	HW_CHECK(hw_ptr_tag(k) == 0);
	kfence_oob(k);
	char *held[8];
	for (int i = 0; i < 8; i++)
		held[i] = malloc(32);
	char *p = malloc(24);
	HW_CHECK(!ukasan_is_kfence_address(p) && hw_ptr_tag(p) != 0);
	HW_EXPECT_FAIL(hw_int_result = p[32], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 24, .alloc_line = __LINE__ - 2);
	for (int i = 0; i < 8; i++)
		free(held[i]);
	free(p);
	free(k);
	return 0;
}
