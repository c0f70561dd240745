/* Software tags (the kernel's CONFIG_KASAN_SW_TAGS), for programs built
 * with ukasan-cc UKASAN_MODE=sw_tags: the tag of every 16-byte granule in a
 * shadow byte (shadow.h's tag_shadow_of), the pointer's tag in its top
 * byte, which arm64 ignores on access (top-byte-ignore). The compilers'
 * user-space hwaddress instrumentation checks the two agree in one of
 * three ways, all handled here: calls (__hwasan_load4_noabort...), outlined
 * stubs that end in __hwasan_tag_mismatch (arch/aarch64/tag_mismatch.S),
 * and inline code that ends in a brk instruction (a SIGTRAP). */
#include <signal.h>

#include "../arch/arch.h"
#include "../base/compiler.h"
#include "../config/log.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../platform/libc_alloc.h"
#include "../shadow/shadow.h"
#include "../stack/stack.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"
#include "tags.h"

#if defined(ARCH_HAS_TBI)

#define TAG_INVALID   0xfe
#define TAG_MATCH_ALL 0xff

/* Heap tags 10..fd: 00 is untagged memory (stacks, globals, mmap), 01..0f
 * short granules (below), fe freed, ff the match-all tag. A per-thread
 * xorshift: the kernel's is per CPU. */
static __thread uint32_t rnd __attribute__((tls_model("initial-exec")));

static uint8_t sw_random_tag(void)
{
	uint32_t x = rnd;
	if (!x) {
		uintptr_t t;
		__asm__ volatile("mrs %0, cntvct_el0" : "=r"(t));
		x = (uint32_t)(t ^ (t >> 32)) ^ (uint32_t)os_tid() * 0x9e3779b9u;
		x |= 1;
	}
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rnd = x;
	return (uint8_t)(0x10 + x % (0xfe - 0x10));
}

static void sw_set(uintptr_t addr, size_t size, uint8_t tag)
{
	tag_shadow_set(untag(addr), size, tag);
}

/* Short granules, as HWASan's: an object's last granule, when the object
 * ends inside it, holds in its shadow the number of bytes that belong to
 * the object (1..15), and in its own last byte the object's tag. An
 * access there passes when its tag is that byte and it ends within the
 * object: the bytes between an object's end and its granule's end are
 * caught, where the kernel's granules let them pass. */
static void sw_mark_object(uintptr_t obj, size_t size, uint8_t tag)
{
	size_t whole = ALIGN_DOWN(size, TAG_GRANULE);
	tag_shadow_set(untag(obj), whole ? whole : (size ? 0 : TAG_GRANULE), tag);
	if (size & (TAG_GRANULE - 1)) {
		uintptr_t last = untag(obj) + whole;
		*tag_shadow_of(last) = (uint8_t)(size & (TAG_GRANULE - 1));
		*(uint8_t *)(last + TAG_GRANULE - 1) = tag;
	}
}

/* Also from reports inside a fault handler: never faults. */
static uint8_t sw_get_raw(uintptr_t addr)
{
	return tag_shadow_mapped(addr) ? *tag_shadow_of(addr) : 0;
}

static uint8_t sw_get(uintptr_t addr)
{
	uint8_t s = sw_get_raw(addr);
	if (s && s < TAG_GRANULE)
		return *(const uint8_t *)(ALIGN_DOWN(untag(addr), TAG_GRANULE) + TAG_GRANULE - 1);
	return s;
}

/* Whether an access tagged tag to [a, a+n), all within granule g, passes. */
static inline int granule_ok(uintptr_t g, uint8_t s, uintptr_t a, size_t n, uint8_t tag)
{
	if (s == tag)
		return 1;
	return s && s < TAG_GRANULE && a + n - g <= s &&
	       *(const uint8_t *)(g + TAG_GRANULE - 1) == tag;
}

/* Eight tags a load: checked send(2) and recv(2) of 32 KiB buffers are
 * 2048 granules each. */
static uintptr_t sw_mismatch(uintptr_t a, size_t n, uint8_t tag)
{
	/* The shadow has no shadow: clang tags a big stack object by a memset
	 * of its shadow, which reaches the checked memset. */
	if (a >= SHADOW_OFFSET && a < TAG_SHADOW_END)
		return 0;
	const uint8_t *s = tag_shadow_of(a), *e = tag_shadow_of(a + n - 1) + 1;
	const uint64_t want = 0x0101010101010101ull * tag;
	for (uint64_t w; e - s >= 8; s += 8) {
		__builtin_memcpy(&w, s, 8);
		if (w != want)
			break;
	}
	for (; s < e; s++) {
		uintptr_t g = ((uintptr_t)s - SHADOW_OFFSET) << TAG_SHADOW_SCALE;
		uintptr_t lo = g < a ? a : g,
		          hi = g + TAG_GRANULE < a + n ? g + TAG_GRANULE : a + n;
		if (!granule_ok(g, *s, lo, hi - lo, tag))
			return lo;
	}
	return 0;
}

static void *chunk_alloc(size_t align, size_t size)
{
	return align > 16 ? libc_alloc()->memalign(align, size) : libc_alloc()->malloc(size);
}

static void chunk_free(void *p)
{
	libc_alloc()->free(p);
}

/* Every address below the end of user space has a tag to read (the shadow
 * maps on demand), and only our objects' headers carry the meta tag. */
static int chunk_owns(uintptr_t addr)
{
	return addr < TAG_VA_END;
}

static const struct tag_backend sw_backend = {
    .invalid = TAG_INVALID,
    .meta = TAG_INVALID,
    .match_all = TAG_MATCH_ALL,
    .random_tag = sw_random_tag,
    .set = sw_set,
    .mark_object = sw_mark_object,
    .get = sw_get,
    .get_raw = sw_get_raw,
    .mismatch = sw_mismatch,
    .chunk_alloc = chunk_alloc,
    .chunk_free = chunk_free,
    .chunk_owns = chunk_owns,
    .release = tag_shadow_release,
};

/* One or two granules (accesses of up to 16 bytes): one or two loads. */
static inline int check(uintptr_t p, size_t n, int write, uintptr_t ip)
{
	uint8_t pt = ptr_tag(p);
	uintptr_t a = untag(p);
	if (pt == TAG_MATCH_ALL)
		return 1;
	if (likely(a + n <= TAG_VA_END && a + n > a)) {
		const uint8_t *s = tag_shadow_of(a), *e = tag_shadow_of(a + n - 1);
		if (likely(*s == pt && *e == pt && e - s <= 1))
			return 1;
	}
	return tags_check_range(p, n, write, ip);
}

/* The calls' common case, a few instructions with no frame: the access
 * inside one granule whose tag is the pointer's. Everything else (two
 * granules, short granules, the match-all tag, a mismatch) takes the slow
 * path, a tail call that keeps the return address as the report's ip. */
static inline int fast_ok(uintptr_t p, size_t n)
{
	return (p & (TAG_GRANULE - 1)) + n <= TAG_GRANULE && untag(p) < TAG_VA_END &&
	       *tag_shadow_of(p) == ptr_tag(p);
}

static __attribute__((noinline)) void slow(uintptr_t p, size_t n, int write, uintptr_t ip)
{
	check(p, n, write, ip);
}

static __attribute__((noinline)) void slow_halting(uintptr_t p, size_t n, int write, uintptr_t ip)
{
	if (!check(p, n, write, ip))
		kasan_halt_unrecoverable();
}

#define LEAF __attribute__((optimize("omit-frame-pointer")))
#define CHECKS(n)                                                                                  \
	UKASAN_EXPORT LEAF void __hwasan_load##n##_noabort(uintptr_t p)                            \
	{                                                                                          \
		if (unlikely(!fast_ok(p, n)))                                                      \
			slow(p, n, 0, RET_IP);                                                     \
	}                                                                                          \
	UKASAN_EXPORT LEAF void __hwasan_store##n##_noabort(uintptr_t p)                           \
	{                                                                                          \
		if (unlikely(!fast_ok(p, n)))                                                      \
			slow(p, n, 1, RET_IP);                                                     \
	}                                                                                          \
	UKASAN_EXPORT LEAF void __hwasan_load##n(uintptr_t p)                                      \
	{                                                                                          \
		if (unlikely(!fast_ok(p, n)))                                                      \
			slow_halting(p, n, 0, RET_IP);                                             \
	}                                                                                          \
	UKASAN_EXPORT LEAF void __hwasan_store##n(uintptr_t p)                                     \
	{                                                                                          \
		if (unlikely(!fast_ok(p, n)))                                                      \
			slow_halting(p, n, 1, RET_IP);                                             \
	}
CHECKS(1)
CHECKS(2)
CHECKS(4)
CHECKS(8)
CHECKS(16)

UKASAN_EXPORT void __hwasan_loadN_noabort(uintptr_t p, size_t n)
{
	tags_check_range(p, n, 0, RET_IP);
}

UKASAN_EXPORT void __hwasan_storeN_noabort(uintptr_t p, size_t n)
{
	tags_check_range(p, n, 1, RET_IP);
}

UKASAN_EXPORT void __hwasan_loadN(uintptr_t p, size_t n)
{
	if (!tags_check_range(p, n, 0, RET_IP))
		kasan_halt_unrecoverable();
}

UKASAN_EXPORT void __hwasan_storeN(uintptr_t p, size_t n)
{
	if (!tags_check_range(p, n, 1, RET_IP))
		kasan_halt_unrecoverable();
}

/* Stack objects: the compiler tags them on entry and clears them on exit. */
UKASAN_EXPORT void __hwasan_tag_memory(uintptr_t p, uint8_t tag, size_t size)
{
	tag_shadow_set(ALIGN_DOWN(untag(p), TAG_GRANULE), size, tag);
}

UKASAN_EXPORT uint8_t __hwasan_generate_tag(void)
{
	return sw_random_tag();
}

UKASAN_EXPORT uintptr_t __hwasan_tag_pointer(uintptr_t p, uint8_t tag)
{
	return with_ptr_tag(p, tag);
}

/* clang's memory intrinsics; GCC checks their ranges itself. */
UKASAN_EXPORT void *__hwasan_memcpy(void *d, const void *s, size_t n)
{
	if (tags_check_range((uintptr_t)s, n, 0, RET_IP) &&
	    tags_check_range((uintptr_t)d, n, 1, RET_IP))
		rt_memcpy(d, s, n);
	return d;
}

UKASAN_EXPORT void *__hwasan_memmove(void *d, const void *s, size_t n)
{
	if (tags_check_range((uintptr_t)s, n, 0, RET_IP) &&
	    tags_check_range((uintptr_t)d, n, 1, RET_IP))
		rt_memmove(d, s, n);
	return d;
}

UKASAN_EXPORT void *__hwasan_memset(void *d, int c, size_t n)
{
	if (tags_check_range((uintptr_t)d, n, 1, RET_IP))
		rt_memset(d, c, n);
	return d;
}

/* From the outlined checks, through tag_mismatch.S, which saved every
 * register: info is the check's access info (log2 size, write, recover). */
UKASAN_EXPORT void __ukasan_tag_mismatch(uintptr_t addr, unsigned long info, uintptr_t ip)
{
	size_t size = 1ul << (info & 0xf);
	if (!tags_check_range_from(addr, size, (info >> 4) & 1, ip) && !((info >> 5) & 1))
		kasan_halt_unrecoverable();
}

/* The inline checks' brk. */
static int on_trap(int sig, siginfo_t *info, void *uctx)
{
	(void)sig;
	(void)info;
	struct arch_tag_trap t;
	if (!kasan_enabled || !arch_tag_trap(uctx, &t))
		return 0;
	/* The inline test compares tags only; a short granule's bytes pass. */
	if (tags_access_ok(t.addr, t.size)) {
		arch_skip_insn(uctx);
		return 1;
	}
	kasan_report_at(t.addr, t.size, t.write, uctx);
	if (!t.recover)
		kasan_halt_unrecoverable();
	arch_skip_insn(uctx);
	return 1;
}

/* clang wraps the C++ personality routine of functions with tagged locals:
 * a frame left by an exception never runs its epilogue, which would have
 * cleared its locals' tags. Everything between here (below every frame
 * being unwound) and the frame's CFA is dead or ours, and untagged. */
typedef int personality_fn(int version, int actions, uint64_t exception_class, void *exception,
                           void *context);
UKASAN_EXPORT int __hwasan_personality_wrapper(int version, int actions, uint64_t exception_class,
                                               void *exception, void *context, personality_fn *real,
                                               uintptr_t (*get_gr)(void *, int),
                                               uintptr_t (*get_cfa)(void *))
{
	enum { UA_CLEANUP_PHASE = 2, URC_CONTINUE_UNWIND = 8 };
	(void)get_gr;
	int rc = real ? real(version, actions, exception_class, exception, context)
	              : URC_CONTINUE_UNWIND;
	if ((actions & UA_CLEANUP_PHASE) && rc == URC_CONTINUE_UNWIND && kasan_enabled) {
		uintptr_t sp = ALIGN_DOWN((uintptr_t)__builtin_frame_address(0), TAG_GRANULE);
		uintptr_t cfa = get_cfa(context);
		if (cfa > sp && cfa - sp < (64ul << 20))
			tag_shadow_set(sp, cfa - sp, 0);
	}
	return rc;
}

/* A thread's stack, at its start and end: tags of frames that never
 * returned (longjmp, exceptions, the thread's exit) must not outlive it. */
static void thread_stack_clear(void)
{
	uintptr_t lo, hi;
	if (stack_bounds(&lo, &hi) == 0)
		tag_shadow_release(lo, hi - lo);
}

static const struct kasan_ops sw_tags_ops = {
    .name = "sw_tags",
    TAGS_OPS,
    .forget_range = tag_shadow_forget,
    .thread_stack_clear = thread_stack_clear,
    .leak_heap = &sw_tags_leak_heap,
};

/* Module constructors call it; the runtime is set up by then. */
UKASAN_EXPORT void __hwasan_init(void)
{
	kasan_claim(&sw_tags_ops);
	/* Every instrumented module's constructor calls it first: a library
	 * opened later gets its globals tagged before its code runs. */
	if (kasan_ops)
		sw_globals_module(RET_IP);
}

const struct kasan_ops *sw_tags_init(void)
{
	if (shadow_init_tags() != 0)
		return NULL;
	/* So that system calls take tagged pointers (read into a heap buffer). */
	if (os_tagged_addr_enable() != 0) {
		log_printf("ukasan: the kernel does not accept tagged pointers in system calls "
		           "(PR_SET_TAGGED_ADDR_CTRL failed)\n");
		return NULL;
	}
	tags_init(&sw_backend);
	sw_globals_init();
	signals_hook(SIGTRAP, on_trap);
	/* A fault that will end the program gets the kernel's oops first, as
	 * in generic mode (a wild or NULL pointer no tag check could see). */
	signals_on_fatal(SIGSEGV, kasan_report_oops);
	signals_on_fatal(SIGBUS, kasan_report_oops);
	return &sw_tags_ops;
}
#else
const struct kasan_ops *sw_tags_init(void)
{
	log_printf("ukasan: software tags need arm64's top-byte-ignore\n");
	return NULL;
}
#endif
