#include "init.h"

#include <pthread.h>
#include <string.h>

#include "../config/log.h"
#include "../config/options.h"
#include "../kasan/kasan.h"
#include "../kfence/kfence.h"
#include "../kmemleak/kmemleak.h"
#include "../platform/dynlink.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../platform/threads.h"
#include "../report/report.h"
#include "../report/sink.h"
#include "../stack/stack.h"
#include "../stack/unwind.h"
#include "entry.h"
#include "hooks.h"
#include "leak_track.h"
#include "next_alloc.h"
#include "own_alloc.h"

enum { INIT_NONE, INIT_RUNNING, INIT_DONE }; /* init.h tests INIT_DONE as 2 */
int ukasan_state;
#define state ukasan_state
int leak_sampled_only;

int ukasan_ready_slow(void)
{
	int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
	if (likely(s == INIT_DONE))
		return 1;
	if (s == INIT_NONE)
		ukasan_init();
	return __atomic_load_n(&state, __ATOMIC_ACQUIRE) == INIT_DONE;
}

/* The runtime's copies and fills (rt_mem, base/compiler.h): the first
 * definition of a fortified name when it is not glibc's is the program's
 * interposer, which passes the runtime's calls on unchecked; with none,
 * glibc's plain functions as the loader bound them (its fortified ones'
 * resolvers would be one more page range of glibc's in every process). */
static void *fortify_interposer(const char *name, const struct link_map *libc)
{
	const struct link_map *where = NULL;
	void *p = dl_first_definition(name, &where);
	return p && where && where != libc ? p : NULL;
}

static void bind_mem_functions(void)
{
	typedef void *(*copy_fn)(void *, const void *, size_t, size_t);
	typedef void *(*set_fn)(void *, int, size_t, size_t);
	const struct link_map *libc = dl_libc_object();
	void *copy = fortify_interposer("__memcpy_chk", libc);
	void *move = fortify_interposer("__memmove_chk", libc);
	void *set = fortify_interposer("__memset_chk", libc);
	/* glibc's plain functions take no room argument: the extra register
	 * is ignored, as the calling conventions of x86-64 and arm64 allow. */
	__atomic_store_n(&rt_mem.copy, copy ? (copy_fn)copy : (copy_fn)(void (*)(void))memcpy,
	                 __ATOMIC_RELEASE);
	__atomic_store_n(&rt_mem.move, move ? (copy_fn)move : (copy_fn)(void (*)(void))memmove,
	                 __ATOMIC_RELEASE);
	__atomic_store_n(&rt_mem.set, set ? (set_fn)set : (set_fn)(void (*)(void))memset,
	                 __ATOMIC_RELEASE);
}

/* Runs from whichever comes first, the first allocation or the constructor.
 * A thread that finds it running elsewhere carries on uninstrumented rather
 * than waiting: it may be the same thread, re-entered through libc. */
void ukasan_init(void)
{
	int expected = INIT_NONE;
	if (!__atomic_compare_exchange_n(&state, &expected, INIT_RUNNING, 0, __ATOMIC_ACQ_REL,
	                                 __ATOMIC_ACQUIRE))
		return;
	bind_mem_functions();
	next_alloc_resolve();
	extras_resolve();
	/* The allocator underneath sets itself up on its first call. glibc's
	 * gives that thread its main arena: let it be this one, while the
	 * program most likely has no other. A sampled first allocation would
	 * leave it to whichever thread came next, uncounted, and two threads
	 * racing there made glibc abort (attached_threads > 0). */
	if (!next()->own)
		next()->free(next()->malloc(1));
	os_process_capture();
	os_threads_note_existing();
	sink_init();
	options_read();
	report_read_environment();
	sink_set_path(opt.log_path);
	sink_set_json_path(opt.json_path);
	sanitizer_summary_init();
	stack_init();
	libc_wrappers_init();
	sandbox_wrappers_init();
	/* First of the fatal hooks: a stack overflow is named as such, and a
	 * fault in our own code is reported in every mode. */
	signals_on_fatal(SIGSEGV, kasan_report_unseen_fault);
	kasan_init();
	struct kfence_hooks hooks = {0};
	kasan_kfence_hooks(&hooks);
	kfence_init(&hooks);
	/* kmemleak scans the heaps in force. A program nobody rebuilt: its
	 * allocator's objects are tracked in a registry of ours only when
	 * kmemleak was set on (it costs a stack capture per allocation); the
	 * entry points leave their fast paths for the allocation hooks, which
	 * feed it. Not over the program's own allocator, whose objects we
	 * never see. The registry has KFENCE's objects too (the hooks see
	 * them): the pool is no heap of kmemleak's then, so each leak is
	 * reported once, and what a lost sampled object points to is lost too.
	 * Hardware tags run programs nobody rebuilt, under the preload: as
	 * there without KASAN, their heap is checked only when kmemleak was
	 * set on (a program that leaves its memory to the exit is no bug, and
	 * its status must not change unasked). */
	const struct leak_heap *kasan_heap = kasan_leak_heap();
	if (kasan_cpu_tag_checks && opt.kmemleak != KMEMLEAK_SET_ON)
		kasan_heap = NULL;
	int tracked = opt.kmemleak == KMEMLEAK_SET_ON && !kasan_enabled && !next()->own;
	kmemleak_add_heap(kasan_heap);
	if (kasan_enabled)
		leak_track_note_generic();
	if (tracked) {
		kmemleak_add_heap(leak_track_start());
		__atomic_fetch_or(&entry_detour, ENTRY_HOOKS, __ATOMIC_RELEASE);
	} else if (kasan_heap) {
		/* KASAN (generic, and the tag modes checked): a sampled object is a
		 * heap object as KASAN's are. */
		kmemleak_add_heap(kfence_leak_heap(1));
	} else if (!kasan_enabled) {
		/* The preload at its defaults: KFENCE's sampled objects are the
		 * only candidates, and the rest of the program's memory roots. */
		kmemleak_add_heap(kfence_leak_heap(1));
		kmemleak_roots_untracked();
		leak_sampled_only = 1;
		depot_samples_only();
		if (!opt.kfence_sample_rate)
			unwind_cache_few();
	} else {
		/* Hardware tags unasked: no check; KFENCE's objects are roots. */
		kmemleak_add_heap(kfence_leak_heap(0));
	}
	own_alloc_start();
	if (kasan_enabled)
		__atomic_fetch_or(&entry_detour, ENTRY_KASAN, __ATOMIC_RELEASE);
	__atomic_fetch_and(&entry_detour, ~ENTRY_UNREADY, __ATOMIC_RELEASE);
	__atomic_store_n(&state, INIT_DONE, __ATOMIC_RELEASE);
}

static void fork_prepare(void)
{
	kasan_fork_prepare();
	kfence_after_fork_prepare();
	leak_track_fork_prepare(); /* nothing after it allocates */
	signals_fork_prepare();    /* a leaf: last */
}

static void fork_parent(void)
{
	signals_fork_done();
	leak_track_fork_done();
	kfence_after_fork_parent();
	kasan_fork_parent();
}

static void fork_child(void)
{
	signals_fork_done();
	leak_track_fork_done();
	os_after_fork_child();
	os_threads_note_existing();
	exit_status_after_fork();
	kfence_after_fork_child();
	kasan_fork_child();
	sink_after_fork();
}

/* One line when another allocator comes before ours. A preloaded one can be
 * put after libukasan.so; an executable's cannot, whatever the order. */
static void say_shadowed(void)
{
	const char *other = next_alloc_shadowed_by();
	if (!other)
		return;
	if (other[0]) {
		log_printf("ukasan: malloc comes from %s, which is loaded before libukasan.so: "
		           "ukasan sees no allocation; put libukasan.so first in LD_PRELOAD\n",
		           other);
		return;
	}
	char exe[4096];
	if (os_self_exe(exe, sizeof(exe)) != 0)
		exe[0] = 0;
	log_printf(
	    "ukasan: malloc comes from the executable %s, which defines its own allocator%s\n",
	    exe[0] ? exe : "(unknown)",
	    own_alloc_samples() ? "; ukasan samples what it passes on to __libc_malloc"
	                        : ": ukasan guards none of its objects");
}

__attribute__((constructor(101))) static void ukasan_constructor(void)
{
	ukasan_init();
	signals_thread_start(); /* the main thread's; others' in pthread_create */
	exit_status_init();
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	say_shadowed();
}

__attribute__((destructor(101))) static void ukasan_destructor(void)
{
	if (ukasan_ready() && opt.kfence_stats)
		kfence_print_stats();
	if (ukasan_ready() && kasan_enabled && opt.kasan_stats)
		kasan_print_stats();
	exit_status_finish();
}
