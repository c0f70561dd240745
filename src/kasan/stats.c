/* kasan.stats=1: at exit, what the kernel would show in /proc/meminfo
 * (KasanShadow ...) and debugfs: where the heap's memory is, and what its
 * shadow costs. Seed 001's measure: shadow in proportion to use. */
#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../report/report.h"
#include "../shadow/shadow.h"
#include "kasan.h"
#include "mode.h"
#include "shared.h"

static size_t kib(size_t bytes)
{
	return (bytes + 1023) >> 10;
}

/* The shadow as a share of the memory it tracks, the figure the kernel's
 * per-page shadow proposal (memory in proportion to use) holds to 1/8. Shadow is resident in whole
 * pages and covers stacks and globals too, so a small heap has more shadow than memory: a ratio
 * then (1/0 for an empty heap) would say nothing. */
static void print_shadow_share(size_t shadow, size_t tracked)
{
	if (!shadow)
		report_printf("KasanShadow (resident): 0 kB\n");
	else if (tracked >= shadow)
		report_printf("KasanShadow (resident): %zu kB (1/%zu of tracked memory)\n",
		              kib(shadow), tracked / shadow);
	else
		report_printf(
		    "KasanShadow (resident): %zu kB (more than the %zu kB tracked: shadow "
		    "comes in whole pages and also covers stacks and globals)\n",
		    kib(shadow), kib(tracked));
}

void kasan_print_stats(void)
{
	size_t page = os_page_size();
	size_t live = heap_stats.live_bytes, redzones = heap_stats.redzone_bytes;
	size_t quarantined = heap_stats.quarantined_bytes;
	size_t pool = large_pool_bytes(), dirty = large_pool_dirty();
	/* Memory whose shadow means something: free space never used, or
	 * purged, has none to track. */
	size_t tracked = live + redzones + quarantined + dirty;
	/* /proc/self/smaps is not opened once the program may be sandboxed. */
	int sandboxed = os_sandboxed();
	size_t shadow = sandboxed ? 0 : shadow_resident_bytes();
	report_begin();
	report_printf("ukasan: kasan statistics of pid %d:\n", os_pid());
	report_printf("heap live:              %zu objects, %zu kB\n", heap_stats.live_objects,
	              kib(live));
	report_printf("heap redzones:          %zu kB\n", kib(redzones));
	report_printf("quarantine:             %zu objects, %zu kB\n",
	              heap_stats.quarantined_objects, kib(quarantined));
	report_printf("large regions:          %zu, %zu kB reserved, %zu extents in use, %zu kB "
	              "free (%zu kB of it freed and not yet purged)\n",
	              large_stats.regions, kib(large_stats.reserved), large_stats.extents,
	              kib(pool), kib(dirty));
	report_printf("tracked memory:         %zu kB\n", kib(tracked));
	if (kasan_ops->print_stats) {
		kasan_ops->print_stats();
	} else if (sandboxed) {
		report_printf("KasanShadow (resident): unknown (sandboxed)\n");
	} else {
		print_shadow_share(shadow, tracked);
		report_printf(
		    "shadow pages:           %zu resident, %zu released (%zu in %zu purges "
		    "of freed large objects)\n",
		    shadow / page, shadow_pages_released(), large_stats.shadow_released / page,
		    large_stats.purges);
	}
	report_printf("page_alloc sampling:    kasan.page_alloc.sample=%lu order=%lu: %zu "
	              "sampled, %zu skipped\n",
	              opt.kasan_page_alloc_sample, opt.kasan_page_alloc_sample_order,
	              sample_stats.sampled, sample_stats.skipped);
	report_end();
}
