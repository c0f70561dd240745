/* LeakSanitizer's interface, <sanitizer/lsan_interface.h>. ukasan has no
 * leak checker yet (the kernel's kmemleak is a later issue), so each of
 * these is a no-op that keeps the program's calls linking and harmless:
 * nothing is reported as a leak, so a recoverable check finds none (0).
 * __lsan_default_options, __lsan_default_suppressions and __lsan_is_turned_off
 * are the program's to define, not ours. */
#include <stddef.h>

#include "../base/compiler.h"

UKASAN_EXPORT void __lsan_disable(void)
{
}

UKASAN_EXPORT void __lsan_enable(void)
{
}

UKASAN_EXPORT void __lsan_ignore_object(const void *p)
{
	(void)p;
}

UKASAN_EXPORT void __lsan_register_root_region(const void *p, size_t size)
{
	(void)p;
	(void)size;
}

UKASAN_EXPORT void __lsan_unregister_root_region(const void *p, size_t size)
{
	(void)p;
	(void)size;
}

UKASAN_EXPORT void __lsan_do_leak_check(void)
{
}

UKASAN_EXPORT int __lsan_do_recoverable_leak_check(void)
{
	return 0;
}
