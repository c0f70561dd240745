/* The public API in include/ukasan.h. */
#include "../../include/ukasan.h"

#include "../config/log.h"
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
