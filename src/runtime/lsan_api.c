/* LeakSanitizer's interface, <sanitizer/lsan_interface.h>, and ukasan's
 * own ukasan_leak_check(), over kmemleak (kmemleak/kmemleak.h). Under the
 * preload at its defaults a check looks at KFENCE's sampled objects only;
 * with hardware tags, unless kmemleak=on, there is no leak check: the
 * calls do nothing and a check finds nothing. __lsan_default_options is not read (LSAN_OPTIONS
 * is); __lsan_default_suppressions and __lsan_is_turned_off are the
 * program's, and honoured. */
#include <stddef.h>
#include <unistd.h>

#include "../base/compiler.h"
#include "../kfence/kfence.h"
#include "../kmemleak/kmemleak.h"
#include "../platform/dynlink.h"
#include "../platform/os.h"
#include "../stack/stack.h"
#include "../stack/unwind.h"
#include "init.h"

extern int __lsan_is_turned_off(void) __attribute__((weak));

static int turned_off(void)
{
	return !kmemleak_active() || (__lsan_is_turned_off && __lsan_is_turned_off());
}

/* With only sampled objects to check and none live, a check would stop the
 * threads and read the maps to find nothing: it costs nothing instead. Nor
 * is it made, unasked, in a sandboxed program: a seccomp filter, set at
 * start (systemd's SystemCallFilter=) or later, may kill the process for
 * the signals and /proc reads of a scan, and a check nobody asked for
 * must never do that; nor where the program limited the size of the files
 * it writes (RLIMIT_FSIZE, a sandbox's measure: OpenSSH's). Not for the
 * report: every write of the sinks stays under the limit (platform/fd.c).
 * For the scan's reads of /proc/self/maps: qemu-user, which runs arm64
 * programs elsewhere (and this project's arm64 tests), serves them from a
 * file it writes in the process, and a write past the limit raises
 * SIGXFSZ there (tests/kfence/report_write_fails.c died of it at exit on
 * arm64 without this rule, checked again once the sinks kept the limit).
 * Only then is /proc/self/status read, for a filter the program set
 * without libc. */
static int nothing_to_check(void)
{
	return leak_sampled_only && (kfence_live_objects() == 0 || os_sandboxed() ||
	                             os_fsize_limit() != OS_UNLIMITED || os_seccomp_now());
}

UKASAN_EXPORT void __lsan_disable(void)
{
	kmemleak_disable();
}

UKASAN_EXPORT void __lsan_enable(void)
{
	kmemleak_enable();
}

UKASAN_EXPORT void __lsan_ignore_object(const void *p)
{
	kmemleak_ignore(p);
}

UKASAN_EXPORT void __lsan_register_root_region(const void *p, size_t size)
{
	kmemleak_root_region(p, size, 1);
}

UKASAN_EXPORT void __lsan_unregister_root_region(const void *p, size_t size)
{
	kmemleak_root_region(p, size, 0);
}

/* The end-of-run check, run now, and once: when it finds leaks the run
 * ends there, with ukasan.exitcode, as LSan's. */
static int checked;

/* After main returned, the exiting thread's stack holds nothing of the
 * program's from main down: only libc's exit frames (__run_exit_handlers,
 * exit, __libc_start_call_main), whose slots they never write keep stale
 * copies of what main's callees left there. The lost pointer of
 * `p = malloc(40); p = 0; return 0;`, left by the allocator's frames, was
 * read there as a reference and hid that leak. So when the stack shows a
 * return from main (no frame in the executable but its entry, _start, and
 * only a few of libc's between), it is read from _start's frame up, with no
 * registers. Called by exit directly, the program's frames are live: read
 * from here, as LSan does. */
__attribute__((noinline)) static int returned_from_main(uintptr_t *sp)
{
	uintptr_t pcs[16], sps[16], lo, hi;
	int n = unwind_fast_sp(pcs, sps, 16, 0);
	if (n <= 0 || n >= 16 || !dl_program_text(&lo, &hi))
		return 0;
	int i = 0;
	while (i < n && stack_is_ours(pcs[i]))
		i++;
	if (n - i > 6 || pcs[n - 1] - lo >= hi - lo)
		return 0;
	for (int k = i; k < n - 1; k++)
		if (pcs[k] - lo < hi - lo)
			return 0;
	*sp = sps[n - 1];
	return 1;
}

/* Whether main returned is asked only when a check runs. The walk up
 * through libc's exit frames reads libc's unwind tables: under the preload
 * their pages (up to 180 KB) counted in the peak RSS of every run, and
 * giving them back after the walk reads /proc/self/pagemap and calls
 * madvise, which a seccomp filter nobody told ukasan of may answer with a
 * kill (tests/kfence/exit_unseen_filter.c). */
void lsan_check_at_exit(void)
{
	struct kmemleak_caller self;
	kmemleak_caller_here(&self);
	if (__atomic_exchange_n(&checked, 1, __ATOMIC_ACQ_REL) || turned_off() ||
	    nothing_to_check())
		return;
	uintptr_t entry_sp;
	if (returned_from_main(&entry_sp) && entry_sp > self.sp) {
		self.sp = entry_sp;
		__builtin_memset(self.regs, 0, sizeof(self.regs));
	}
	kmemleak_check(&self);
}

UKASAN_EXPORT void __lsan_do_leak_check(void)
{
	struct kmemleak_caller self;
	kmemleak_caller_here(&self);
	if (__atomic_exchange_n(&checked, 1, __ATOMIC_ACQ_REL) || turned_off())
		return;
	if (kmemleak_check(&self) > 0)
		_exit(0); /* ours (exit.c): the summary, and the reports' status */
}

UKASAN_EXPORT int __lsan_do_recoverable_leak_check(void)
{
	struct kmemleak_caller self;
	kmemleak_caller_here(&self);
	return !turned_off() && kmemleak_check(&self) > 0;
}

UKASAN_EXPORT int ukasan_leak_check(void)
{
	struct kmemleak_caller self;
	kmemleak_caller_here(&self);
	return !turned_off() && kmemleak_check(&self) > 0;
}
