// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// CFLAGS: -march=armv8.1-a
// COUNT: 27 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* A tag check fault gives only the address: the report takes the access's
 * size and direction from the instruction, as the kernel's from the ESR.
 * Every load and store form compilers emit, at the first byte past a
 * 48-byte object (the next chunk's header), through a fresh object each
 * (in one line: the allocation line is the access line). Sign-extending
 * loads are reads; atomic read-modify-writes count as writes, as the
 * kernel's instrumented atomics check them. */
#define CASE(insn, kind, bytes, off)                                                               \
	do {                                                                                       \
		char *q = malloc(48), *a = q + 48;                                                 \
		free(malloc(1)); /* re-arm */                                                      \
		HW_EXPECT_FAIL(__asm__ volatile(insn ::"r"(a)                                      \
		                                : "memory", "x9", "x10", "v0", "v1"),              \
		               .type = "slab-out-of-bounds", .rw = kind, .size = bytes,            \
		               .addr = a + off, .mem = "00", .obj = q, .obj_size = 48,             \
		               .alloc_line = __LINE__);                                            \
		free(q);                                                                           \
	} while (0)

static HW_TEST void access_sizes(void)
{
	CASE("ldrb w9, [%0]", "Read", 1, 0);
	CASE("ldrh w9, [%0]", "Read", 2, 0);
	CASE("ldr w9, [%0]", "Read", 4, 0);
	CASE("ldr x9, [%0]", "Read", 8, 0);
	CASE("ldr q0, [%0]", "Read", 16, 0);
	CASE("ldur x9, [%0, #1]", "Read", 8, 1);
	CASE("ldrsb x9, [%0]", "Read", 1, 0);
	CASE("ldrsh x9, [%0]", "Read", 2, 0);
	CASE("ldrsw x9, [%0]", "Read", 4, 0);
	CASE("ldrsb w9, [%0]", "Read", 1, 0);
	CASE("ldp w9, w10, [%0]", "Read", 8, 0);
	CASE("ldp x9, x10, [%0]", "Read", 16, 0);
	CASE("ldp q0, q1, [%0]", "Read", 32, 0);
	CASE("ld1 {v0.16b}, [%0]", "Read", 16, 0);
	CASE("ldxr x9, [%0]", "Read", 8, 0);
	CASE("ldar w9, [%0]", "Read", 4, 0);
	CASE("strb w9, [%0]", "Write", 1, 0);
	CASE("strh w9, [%0]", "Write", 2, 0);
	CASE("str w9, [%0]", "Write", 4, 0);
	CASE("str x9, [%0]", "Write", 8, 0);
	CASE("str q0, [%0]", "Write", 16, 0);
	CASE("stp x9, x10, [%0]", "Write", 16, 0);
	CASE("st1 {v0.16b}, [%0]", "Write", 16, 0);
	CASE("stlr x9, [%0]", "Write", 8, 0);
	CASE("ldadd x9, x10, [%0]", "Write", 8, 0);
	CASE("swp w9, w10, [%0]", "Write", 4, 0);
	CASE("cas x9, x10, [%0]", "Write", 8, 0);
}

int main(void)
{
	access_sizes();
	return 0;
}
