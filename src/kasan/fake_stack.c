/* Stack use after return (kasan.stack_use_after_return=on), with
 * AddressSanitizer's "fake stack" ABI, which GCC emits under
 * --param asan-use-after-return=1 and clang's user-space instrumentation
 * by default (its kernel-address mode has none).
 *
 * An instrumented function whose frame has objects asks, when the option is
 * on, __asan_stack_malloc_N for a frame of 64 << N bytes and keeps its
 * objects there instead of on the thread's stack. On return it writes the
 * retired magic into the frame, poisons the frame's shadow F5 and clears the
 * frame's flag, through a pointer to it that we store in the frame's last
 * word (for the larger classes it calls __asan_stack_free_N to do that). The
 * frame then stays poisoned until its slot comes round again: each class is
 * used in a ring, so a returned frame is reused as late as possible, and a
 * pointer kept into it is caught meanwhile.
 *
 * One region per thread, made on its first such frame; at its end, kept for a
 * later thread (a few are) or unmapped.
 * A frame abandoned by longjmp or an exception keeps its flag; after
 * __asan_handle_no_return, the next allocation frees every frame that was
 * allocated deeper on the real stack than where it now is. */
#include "../base/compiler.h"
#include "../base/leak_remote.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "generic.h"
#include "kasan.h"
#include "report.h"
#include "asan_interface.h"

#define CLASSES         11
#define MIN_FRAME_SHIFT 6  /* class 0: 64 bytes */
#define CLASS_SHIFT     20 /* each class: 1 MiB of frames */
#define CLASS_BYTES     (1ul << CLASS_SHIFT)
#define RETIRED_MAGIC   0x45e0360eul

UKASAN_EXPORT int __asan_option_detect_stack_use_after_return;

static size_t frames_in(int c)
{
	return CLASS_BYTES >> (MIN_FRAME_SHIFT + c);
}

/* Per class: the frames, then one flag byte per frame. */
#define FLAGS_BYTES (2 * (CLASS_BYTES >> MIN_FRAME_SHIFT))
#define REGION_SIZE (CLASSES * CLASS_BYTES + FLAGS_BYTES)
/* Every frame is aligned to its size, as ASan's are: a report finds the
 * frame an address is in by rounding the address down to the frame's size.
 * The mapping is only page aligned: the frames start at the first multiple
 * of the largest frame past the header, and the mapping has room for that
 * much more (address space only: never touched). Before, frames above a
 * page were aligned as the mapping happened to be: a report in one rounded
 * down into the middle of another frame and named neither frame nor object
 * (gcc's 8 KiB frame of family_io_path.c's realpath_path on arm64, a page
 * off). */
#define MAX_FRAME    (1ul << (MIN_FRAME_SHIFT + CLASSES - 1))
#define HEAD_SIZE    ALIGN_UP(sizeof(struct fake_stack), 4096)
#define MAPPING_SIZE (HEAD_SIZE + MAX_FRAME + REGION_SIZE)
/* The real stack pointer a frame was made for, in its fourth word: the
 * compiler writes the first three (magic, descriptor, pc) and leaves the
 * rest of the 32-byte left redzone alone, as ASan's runtime relies on too.
 * Kept in the frame, whose line the allocation writes anyway, and not in
 * an array of its own, one more cold line per few frames. */
#define FRAME_SP 3

struct fake_stack {
	uintptr_t frames;
	uint8_t *flags[CLASSES];
	size_t next[CLASSES];
	int need_gc;
	int tid;
	char comm[16];
};

/* A registry of every thread's region, so that a report can name the frame
 * an address is in whichever thread it belongs to. */
#define MAX_REGIONS 4096
static struct fake_stack *regions[MAX_REGIONS];
static __thread struct fake_stack *mine __attribute__((tls_model("initial-exec")));
static __thread int creating __attribute__((tls_model("initial-exec")));
/* Between the two halves of a fiber switch: no fake frames (ASan's rule). */
static __thread int switching __attribute__((tls_model("initial-exec")));

void generic_fake_stack_init(void)
{
	__asan_option_detect_stack_use_after_return =
	    kasan_enabled && opt.kasan_stack_use_after_return;
}

/* Regions of threads that have ended, for the next threads: mapping and
 * unmapping 12 MiB per thread cost 10 ms a thread under qemu-user. */
#define SPARE_REGIONS 8
static struct fake_stack *spare[SPARE_REGIONS];

static struct fake_stack *take_spare(void)
{
	for (int i = 0; i < SPARE_REGIONS; i++) {
		struct fake_stack *f = __atomic_exchange_n(&spare[i], NULL, __ATOMIC_ACQUIRE);
		if (!f)
			continue;
		/* Its returned frames stay poisoned until reused. */
		rt_memset(f->next, 0, sizeof f->next);
		f->need_gc = 0;
		f->tid = os_tid();
		os_task_name(f->comm);
		mine = f;
		return f;
	}
	return NULL;
}

static int keep_spare(struct fake_stack *f)
{
	/* Frames the ended thread left live are dead now: kmemleak must not
	 * take them for roots. */
	rt_memset(f->flags[0], 0, FLAGS_BYTES);
	for (int i = 0; i < SPARE_REGIONS; i++) {
		struct fake_stack *none = NULL;
		if (__atomic_compare_exchange_n(&spare[i], &none, f, 0, __ATOMIC_RELEASE,
		                                __ATOMIC_RELAXED))
			return 1;
	}
	return 0;
}

static struct fake_stack *create(void)
{
	if (creating)
		return NULL;
	struct fake_stack *f = take_spare();
	if (f)
		return f;
	creating = 1;
	char *base = os_reserve(MAPPING_SIZE, OS_PROT_RW);
	creating = 0;
	if (!base)
		return NULL;
	f = (struct fake_stack *)base;
	f->frames = ALIGN_UP((uintptr_t)base + HEAD_SIZE, MAX_FRAME);
	uint8_t *flags = (uint8_t *)(f->frames + CLASSES * CLASS_BYTES);
	for (int c = 0; c < CLASSES; c++) {
		f->flags[c] = flags;
		flags += frames_in(c);
	}
	f->tid = os_tid();
	os_task_name(f->comm);
	/* The region's shadow may hold another mapping's leftovers. */
	shadow_unpoison(f->frames, CLASSES * CLASS_BYTES);
	for (int i = 0; i < MAX_REGIONS; i++) {
		struct fake_stack *none = NULL;
		if (__atomic_compare_exchange_n(&regions[i], &none, f, 0, __ATOMIC_RELEASE,
		                                __ATOMIC_RELAXED))
			break;
	}
	mine = f;
	return f;
}

static uintptr_t class_base(const struct fake_stack *f, int c)
{
	return f->frames + ((uintptr_t)c << CLASS_SHIFT);
}

/* A frame's shadow, by words: a frame is aligned to its size, 64 bytes
 * and more, so its shadow is whole words. A class-0 frame's is one word,
 * and shadow_poison's memset (through the program's __memset_chk) cost
 * more than the rest of the frame's allocation: SQLite's speedtest1 ran
 * 1.64x slower with fake stacks on, ASan's 1.16x. */
static void frame_shadow(uintptr_t frame, size_t size, uint8_t code)
{
	uint64_t *s = (uint64_t *)shadow_of(frame), v = code * 0x0101010101010101ull;
	/* Not a string store (rep stos), whose start-up outweighs one word. */
	for (size_t i = 0; i < size >> (SHADOW_SCALE + 3); i++) {
		s[i] = v;
		__asm__ volatile("" : : : "memory");
	}
}

static uintptr_t *frame_sp(uintptr_t frame)
{
	return (uintptr_t *)frame + FRAME_SP;
}

static void release_frame(struct fake_stack *f, int c, size_t i)
{
	size_t size = (size_t)1 << (MIN_FRAME_SHIFT + c);
	uintptr_t frame = class_base(f, c) + i * size;
	frame_shadow(frame, size, SHADOW_STACK_AFTER_RETURN);
	f->flags[c][i] = 0;
}

/* Frames allocated at or below sp on the real stack belong to functions
 * that are gone: a longjmp or an exception went past them. A live caller
 * asked from higher up, above its callees' frames. */
static void collect(struct fake_stack *f, uintptr_t sp)
{
	f->need_gc = 0;
	for (int c = 0; c < CLASSES; c++)
		for (size_t i = 0; i < frames_in(c); i++)
			if (f->flags[c][i] &&
			    *frame_sp(class_base(f, c) + (i << (MIN_FRAME_SHIFT + c))) <= sp)
				release_frame(f, c, i);
}

/* always: clang's -fsanitize-address-use-after-return=always, whose code
 * asks for a fake frame whatever the option says (the _always_ entry
 * points); still none when KASAN is off. */
static uintptr_t fake_alloc(int c, uintptr_t sp, int always)
{
	int on = always ? kasan_enabled
	                : __atomic_load_n(&__asan_option_detect_stack_use_after_return,
	                                  __ATOMIC_RELAXED);
	if (!on || switching)
		return 0;
	struct fake_stack *f = mine ? mine : create();
	if (!f)
		return 0;
	if (f->need_gc)
		collect(f, sp);
	size_t n = frames_in(c), size = (size_t)1 << (MIN_FRAME_SHIFT + c);
	for (size_t k = 0; k < n; k++) {
		size_t i = (f->next[c] + k) & (n - 1);
		uintptr_t frame = class_base(f, c) + i * size;
		/* aarch64 GCC 12's epilogue writes the retired magic and
		 * poisons the frame but leaves its flag set: the magic says
		 * the frame has returned. */
		if (f->flags[c][i] && *(const uintptr_t *)frame != RETIRED_MAGIC)
			continue;
		f->flags[c][i] = 1;
		f->next[c] = i + 1;
		/* A slot used before is still marked returned (F5); the
		 * compiler's prologue marks only the frame's redzones and
		 * takes the rest to be clear, as it is on a real stack. */
		frame_shadow(frame, size, 0);
		*frame_sp(frame) = sp;
		/* The compiler clears the flag through this on return. */
		*(uint8_t **)(frame + size - sizeof(uintptr_t)) = &f->flags[c][i];
		return frame;
	}
	return 0; /* full: the frame stays on the real stack */
}

static void fake_free(int c, uintptr_t frame, size_t size)
{
	(void)size;
	struct fake_stack *f = mine;
	if (!f || frame < class_base(f, c) || frame >= class_base(f, c) + CLASS_BYTES)
		return;
	release_frame(f, c, (frame - class_base(f, c)) >> (MIN_FRAME_SHIFT + c));
}

void generic_fake_stack_no_return(void)
{
	if (mine)
		mine->need_gc = 1;
}

static void destroy(struct fake_stack *f)
{
	for (int i = 0; i < MAX_REGIONS; i++)
		if (__atomic_load_n(&regions[i], __ATOMIC_RELAXED) == f)
			__atomic_store_n(&regions[i], NULL, __ATOMIC_RELEASE);
	shadow_release(f->frames, CLASSES * CLASS_BYTES);
	os_release(f, MAPPING_SIZE);
}

void kasan_fake_stack_thread_exit(void)
{
	struct fake_stack *f = mine;
	if (!f)
		return;
	mine = NULL;
	if (!keep_spare(f))
		destroy(f);
}

int kasan_find_fake_frame(uintptr_t addr, char comm[16], int *tid, const uintptr_t **base)
{
	for (int i = 0; i < MAX_REGIONS; i++) {
		const struct fake_stack *f = __atomic_load_n(&regions[i], __ATOMIC_ACQUIRE);
		if (!f || addr < f->frames || addr >= f->frames + CLASSES * CLASS_BYTES)
			continue;
		int c = (int)((addr - f->frames) >> CLASS_SHIFT);
		uintptr_t size = (uintptr_t)1 << (MIN_FRAME_SHIFT + c);
		const uintptr_t *frame = (const uintptr_t *)ALIGN_DOWN(addr, size);
		int known = frame[0] == FRAME_MAGIC || frame[0] == RETIRED_MAGIC;
		/* This thread's own: named now, as a forked child's region
		 * (made by its parent's thread) names the parent otherwise. */
		if (f == mine) {
			os_task_name(comm);
			*tid = os_tid();
		} else {
			rt_memcpy(comm, f->comm, 16);
			*tid = f->tid;
		}
		*base = known ? frame : NULL;
		return 1;
	}
	return 0;
}

/* The entry points, one per class. sp: where the caller's frame is on the
 * real stack, for collect(). */
#define FAKE_CLASS(c)                                                                              \
	UKASAN_EXPORT uintptr_t __asan_stack_malloc_##c(size_t size)                               \
	{                                                                                          \
		(void)size;                                                                        \
		return fake_alloc(c, (uintptr_t)__builtin_frame_address(0), 0);                    \
	}                                                                                          \
	UKASAN_EXPORT uintptr_t __asan_stack_malloc_always_##c(size_t size)                        \
	{                                                                                          \
		(void)size;                                                                        \
		return fake_alloc(c, (uintptr_t)__builtin_frame_address(0), 1);                    \
	}                                                                                          \
	UKASAN_EXPORT void __asan_stack_free_##c(uintptr_t frame, size_t size)                     \
	{                                                                                          \
		fake_free(c, frame, size);                                                         \
	}
FAKE_CLASS(0)
FAKE_CLASS(1)
FAKE_CLASS(2)
FAKE_CLASS(3)
FAKE_CLASS(4)
FAKE_CLASS(5)
FAKE_CLASS(6)
FAKE_CLASS(7)
FAKE_CLASS(8)
FAKE_CLASS(9)
FAKE_CLASS(10)

/* ASan's public interface. A fake stack is a region, as ASan's; a fiber
 * gets its own, since frames left on one fiber's must stay live while
 * another runs. */
void *kasan_fake_stack_current(void)
{
	return __atomic_load_n(&__asan_option_detect_stack_use_after_return, __ATOMIC_RELAXED)
	           ? mine
	           : NULL;
}

/* A live frame of fs that holds addr: the real stack pointer it was made
 * for (ASan's "real stack"), and its bounds. */
void *kasan_fake_stack_frame(void *fs, uintptr_t addr, uintptr_t *beg, uintptr_t *end)
{
	const struct fake_stack *f = fs;
	if (!f || addr < f->frames || addr >= f->frames + CLASSES * CLASS_BYTES)
		return NULL;
	int c = (int)((addr - f->frames) >> CLASS_SHIFT);
	uintptr_t size = (uintptr_t)1 << (MIN_FRAME_SHIFT + c);
	uintptr_t frame = ALIGN_DOWN(addr, size);
	size_t i = (frame - class_base(f, c)) >> (MIN_FRAME_SHIFT + c);
	if (*(const uintptr_t *)frame != FRAME_MAGIC || !f->flags[c][i])
		return NULL;
	*beg = frame;
	*end = frame + size;
	return (void *)*frame_sp(frame);
}

void *kasan_fake_stack_leave(int keep)
{
	struct fake_stack *f = mine;
	mine = NULL;
	switching = 1;
	if (f && !keep) {
		destroy(f);
		f = NULL;
	}
	return f;
}

void kasan_fake_stack_enter(void *fs)
{
	mine = fs;
	switching = 0;
}

/* For kmemleak, with every other thread stopped: the live frames of every
 * thread, which hold the locals a real stack would. A frame counts from
 * the compiler's magic, which its prologue writes. */
void generic_fake_stack_each_live(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg)
{
	for (int r = 0; r < MAX_REGIONS; r++) {
		const struct fake_stack *f = __atomic_load_n(&regions[r], __ATOMIC_ACQUIRE);
		if (!f)
			continue;
		for (int c = 0; c < CLASSES; c++) {
			size_t size = (size_t)1 << (MIN_FRAME_SHIFT + c);
			for (size_t i = 0; i < frames_in(c); i++) {
				uintptr_t frame = class_base(f, c) + i * size;
				if (f->flags[c][i] && *(const uintptr_t *)frame == FRAME_MAGIC)
					fn(frame, frame + size, arg);
			}
		}
	}
}

/* For `ukasan leaks PID`: the regions and their layout (create() lays
 * them out: frames, then the flags, class by class). */
void generic_fake_stack_leak_remote(struct leak_remote_generic *g)
{
	g->fake_regions = (uintptr_t)regions;
	g->fake_max = MAX_REGIONS;
	g->fake_frames_off = __builtin_offsetof(struct fake_stack, frames);
	g->fake_classes = CLASSES;
	g->fake_min_shift = MIN_FRAME_SHIFT;
	g->fake_class_shift = CLASS_SHIFT;
}
