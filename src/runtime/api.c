/* The public API in include/ukasan.h. */
#include "../../include/ukasan.h"

#include <malloc.h>

#include "../config/log.h"
#include "../kasan/kasan.h"
#include "../kfence/kfence.h"
#include "../report/report.h"

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

/* The setter of clang's UBSan runtime when ukasan-cc linked its copy with
 * the names ours has renamed (a fuzzer with -fsanitize=undefined). */
extern void __ukasan_ubsan__sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

/* ASan's and the sanitizers' death callback: run once, before a report
 * ends the run (kasan.fault=panic, halt_on_error, a build without
 * recovery). libFuzzer saves the crashing input there; UBSan's runtime,
 * where one is linked, gets it too, for its own reports that end the run
 * (-fno-sanitize-recover=undefined). */
UKASAN_EXPORT void __sanitizer_set_death_callback(void (*callback)(void))
{
	report_set_death_callback(callback);
	if (__ukasan_ubsan__sanitizer_set_death_callback)
		__ukasan_ubsan__sanitizer_set_death_callback(callback);
}

UKASAN_EXPORT void __asan_set_death_callback(void (*callback)(void))
{
	report_set_death_callback(callback);
}

/* Called with each report's whole text once it is printed. */
UKASAN_EXPORT void __asan_set_error_report_callback(void (*callback)(const char *))
{
	report_set_text_callback(callback);
}
