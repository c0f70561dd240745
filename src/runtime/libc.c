/* libc entry points other than the allocator's that ukasan wraps.
 *
 * pthread_create, in generic mode: thread stacks come back from glibc's
 * stack cache with whatever shadow the last thread left there. A thread
 * cancelled deep in instrumented frames never ran their epilogues, so its
 * stack redzones stay poisoned, and a new thread's uninstrumented frames on
 * the same memory would be reported. Each thread therefore starts and ends
 * with its stack's shadow cleared, as AddressSanitizer's threads do: at the
 * end for memory glibc unmaps and something else maps later.
 *
 * And in every mode, each thread gets ukasan's own alternate signal stack
 * (platform/signals.c) for as long as it runs, so that its stack overflow
 * can be reported: set up in the thread itself, freed when it ends.
 *
 * dlclose: code unloaded, and other code may come at the same addresses,
 * so the unwinder's cached rules go with it.
 *
 * munmap, mremap, madvise(MADV_DONTNEED/MADV_REMOVE), in generic mode:
 * memory the program gives back takes its shadow with it, so shadow for
 * memory that is gone does not stay resident, and whatever is mapped there
 * next starts accessible (a fiber stack's old redzones, for one).
 * mmap with MAP_FIXED, mremap and shmat: a new mapping starts accessible
 * too, as under ASan since LLVM 17, wherever the memory went before (glibc
 * unmaps without our munmap). Not every mmap: clearing the shadow of fresh
 * memory, which reads 00 already but for what glibc unmapped unseen, made
 * shadow pages resident under qemu (tests/generic/poison_large_region.c).
 * Mapped over or unmapped, pages of ukasan's large objects become the
 * program's (kasan_mapping_changed); madvise discards contents only, so
 * it leaves the objects and their marks alone.
 *
 * sbrk and brk, in generic mode: the break's heap glibc has not handed out
 * reads as heap redzone (kasan/generic_alloc.c); memory the program takes
 * from the break itself is its own, cleared, and never poisoned after.
 *
 * exit, in generic mode: called from a C++ dynamic initialiser, it runs
 * destructors and atexit functions while the files whose initialisers
 * never ran still have their globals poisoned for
 * kasan.check_initialization_order. Reading one then is no bug of order:
 * the check ends where exit begins, as ASan's does (LLVM's
 * init-order-atexit.cpp). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../stack/stack.h"
#include "../symbolize/symbolize.h"
#include "../kasan/kasan.h"
#include "../kmemleak/kmemleak.h"
#include "../platform/libc_alloc.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../report/report.h"
#include "next_alloc.h"

struct start {
	void *(*fn)(void *);
	void *arg;
	int used; /* 0 a free slot of the table, 1 a taken one, 2 glibc's memory */
};

/* A new thread's routine and argument wait here from pthread_create until
 * the thread runs them. The argument is often the only pointer to an
 * object (std::thread's state, a task), and a leak check made in between
 * finds the new thread in glibc's start_thread, holding only a pointer to
 * this record: the table is a root of kmemleak's, as LeakSanitizer scans
 * the arguments of threads not yet started. libFuzzer's RSS thread,
 * started just before a one-input run exits, was reported leaked 1 run in
 * 2. A page of its own: ukasan's own image is never a root. Beyond its
 * slots (that many threads starting at once), the record is glibc's
 * memory, not read. */
#define STARTS 128
static struct start *starts;
static int starts_state; /* 0 none yet, 1 being made, 2 made, 3 failed */

/* Made for the program's first thread: one that never starts one pays
 * nothing. */
static struct start *start_table(void)
{
	int st = __atomic_load_n(&starts_state, __ATOMIC_ACQUIRE);
	if (st == 0 && __atomic_compare_exchange_n(&starts_state, &st, 1, 0, __ATOMIC_ACQ_REL,
	                                           __ATOMIC_ACQUIRE)) {
		if ((starts = os_reserve(STARTS * sizeof(*starts), OS_PROT_RW)))
			kmemleak_root_region(starts, STARTS * sizeof(*starts), 1);
		st = starts ? 2 : 3;
		__atomic_store_n(&starts_state, st, __ATOMIC_RELEASE);
	}
	return st == 2 ? starts : NULL;
}

static struct start *start_record(void)
{
	struct start *table = start_table();
	for (int i = 0; table && i < STARTS; i++) {
		int free = 0;
		if (__atomic_compare_exchange_n(&table[i].used, &free, 1, 0, __ATOMIC_ACQUIRE,
		                                __ATOMIC_RELAXED))
			return &table[i];
	}
	struct start *s = libc_alloc()->malloc(sizeof(*s));
	if (s)
		s->used = 2;
	return s;
}

static void start_record_free(struct start *s)
{
	if (s->used == 2) {
		libc_alloc()->free(s);
		return;
	}
	s->arg = NULL;
	__atomic_store_n(&s->used, 0, __ATOMIC_RELEASE);
}

static void thread_exit(void *unused)
{
	(void)unused;
	kasan_fake_stack_thread_exit();
	kasan_thread_stack_clear();
	signals_thread_exit();
}

/* Its destructor runs however the thread ends: return, pthread_exit or
 * cancellation, after every instrumented frame is gone. */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void make_exit_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

static void *thread_start(void *p)
{
	struct start s = *(struct start *)p;
	start_record_free(p);
	signals_thread_start();
	kasan_thread_stack_clear();
	pthread_once(&exit_key_once, make_exit_key);
	pthread_setspecific(exit_key, (void *)1);
	return s.fn(s.arg);
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
static void *real_pthread_create, *real_dlclose, *real_munmap, *real_mremap, *real_madvise,
    *real_exit, *real_mmap, *real_mmap64, *real_shmat, *real_shmctl, *real_sbrk, *real_brk;

void libc_wrappers_init(void)
{
	next_symbol(&real_pthread_create, "pthread_create");
	next_symbol(&real_dlclose, "dlclose");
	next_symbol(&real_munmap, "munmap");
	next_symbol(&real_mremap, "mremap");
	next_symbol(&real_madvise, "madvise");
	next_symbol(&real_exit, "exit");
	next_symbol(&real_mmap, "mmap");
	next_symbol(&real_mmap64, "mmap64");
	next_symbol(&real_shmat, "shmat");
	next_symbol(&real_shmctl, "shmctl");
	next_symbol(&real_sbrk, "sbrk");
	next_symbol(&real_brk, "brk");
}

UKASAN_EXPORT void exit(int status)
{
	kasan_init_order_stop();
	((void (*)(int))next_symbol(&real_exit, "exit"))(status);
	__builtin_unreachable();
}

UKASAN_EXPORT int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
                                 void *arg)
{
	create_fn real = (create_fn)next_symbol(&real_pthread_create, "pthread_create");
	struct start *s = start_record();
	if (!s)
		return real(t, attr, fn, arg);
	s->fn = fn;
	s->arg = arg;
	int r = real(t, attr, thread_start, s);
	if (r)
		start_record_free(s);
	return r;
}

UKASAN_EXPORT int dlclose(void *handle)
{
	int (*real)(void *) = (int (*)(void *))next_symbol(&real_dlclose, "dlclose");
	int r = real ? real(handle) : -1;
	stack_forget_code();
	report_hold();
	sym_forget_unloaded();
	report_release();
	return r;
}

/* The program's own break memory (glibc's malloc moves the break by its
 * internal __sbrk, not through these): never poisoned as glibc's heap. */
UKASAN_EXPORT void *sbrk(intptr_t inc)
{
	void *p = ((void *(*)(intptr_t))next_symbol(&real_sbrk, "sbrk"))(inc);
	if (p != (void *)-1 && inc > 0 && kasan_enabled)
		kasan_brk_moved((uintptr_t)p, (uintptr_t)p + (uintptr_t)inc);
	return p;
}

UKASAN_EXPORT int brk(void *addr)
{
	uintptr_t from = (uintptr_t)((void *(*)(intptr_t))next_symbol(&real_sbrk, "sbrk"))(0);
	int r = ((int (*)(void *))next_symbol(&real_brk, "brk"))(addr);
	if (r == 0 && kasan_enabled)
		kasan_brk_moved(from, (uintptr_t)addr);
	return r;
}

typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);

UKASAN_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = ((mmap_fn)next_symbol(&real_mmap, "mmap"))(addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED && kasan_enabled && (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)))
		kasan_mapping_changed((uintptr_t)p, len);
	return p;
}

UKASAN_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = ((mmap_fn)next_symbol(&real_mmap64, "mmap64"))(addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED && kasan_enabled && (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)))
		kasan_mapping_changed((uintptr_t)p, len);
	return p;
}

/* With SHM_REMAP the segment may replace what was mapped there. */
UKASAN_EXPORT void *shmat(int id, const void *addr, int flags)
{
	void *p =
	    ((void *(*)(int, const void *, int))next_symbol(&real_shmat, "shmat"))(id, addr, flags);
	struct shmid_ds ds;
	int (*ctl)(int, int, struct shmid_ds *) =
	    (int (*)(int, int, struct shmid_ds *))next_symbol(&real_shmctl, "shmctl");
	if (p != (void *)-1 && kasan_enabled && ctl && ctl(id, IPC_STAT, &ds) == 0)
		kasan_mapping_changed((uintptr_t)p, ds.shm_segsz);
	return p;
}

UKASAN_EXPORT int munmap(void *addr, size_t len)
{
	int (*real)(void *, size_t) = (int (*)(void *, size_t))next_symbol(&real_munmap, "munmap");
	int r = real(addr, len);
	if (r == 0 && kasan_enabled)
		kasan_mapping_changed((uintptr_t)addr, len);
	return r;
}

UKASAN_EXPORT void *mremap(void *old, size_t old_size, size_t new_size, int flags, ...)
{
	void *(*real)(void *, size_t, size_t, int, ...) =
	    (void *(*)(void *, size_t, size_t, int, ...))next_symbol(&real_mremap, "mremap");
	void *want = NULL;
	if (flags & MREMAP_FIXED) {
		va_list ap;
		va_start(ap, flags);
		want = va_arg(ap, void *);
		va_end(ap);
	}
	void *p = real(old, old_size, new_size, flags, want);
	if (p == MAP_FAILED || !kasan_enabled)
		return p;
	if (p != old) {
		if (!(flags & MREMAP_DONTUNMAP))
			kasan_mapping_changed((uintptr_t)old, old_size);
		kasan_mapping_changed((uintptr_t)p, new_size);
	} else if (new_size < old_size) {
		kasan_mapping_changed((uintptr_t)old + new_size, old_size - new_size);
	} else if (new_size > old_size) {
		kasan_mapping_changed((uintptr_t)old + old_size, new_size - old_size);
	}
	return p;
}

UKASAN_EXPORT int madvise(void *addr, size_t len, int advice)
{
	int (*real)(void *, size_t, int) =
	    (int (*)(void *, size_t, int))next_symbol(&real_madvise, "madvise");
	int r = real(addr, len, advice);
	if (r == 0 && kasan_enabled && (advice == MADV_DONTNEED || advice == MADV_REMOVE))
		kasan_forget_range((uintptr_t)addr, len);
	return r;
}
