/* The public API in include/ukasan.h. */
#include "../../include/ukasan.h"

#include <malloc.h>

#include "../config/log.h"
#include "../kasan/kasan.h"
#include "../kfence/kfence.h"

UKASAN_EXPORT int ukasan_is_kfence_address(const void *p)
{
	return kfence_owns(p);
}

UKASAN_EXPORT void ukasan_kfence_print_stats(void)
{
	kfence_print_stats();
}

UKASAN_EXPORT unsigned long ukasan_report_count(void)
{
	return reports_printed();
}

UKASAN_EXPORT void ukasan_purge(void)
{
	if (!kasan_enabled)
		return;
	kasan_purge();
	malloc_trim(0);
}
