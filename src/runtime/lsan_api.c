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
#include "../platform/os.h"
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
 * must never do that. Only then is /proc/self/status read, for a filter
 * the program set without libc. */
static int nothing_to_check(void)
{
	return leak_sampled_only &&
	       (kfence_live_objects() == 0 || os_sandboxed() || os_seccomp_now());
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

void lsan_check_at_exit(void)
{
	struct kmemleak_caller self;
	kmemleak_caller_here(&self);
	if (!__atomic_exchange_n(&checked, 1, __ATOMIC_ACQ_REL) && !turned_off() &&
	    !nothing_to_check())
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
