/* The mode in force: chosen once by kasan_init (common.c), read by every
 * file below the core through kasan_ops. */
#include "../config/log.h"
#include "../platform/os.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"

const struct kasan_ops *kasan_ops;
int kasan_enabled;
int kasan_cpu_tag_checks;

__attribute__((noreturn)) void kasan_mixed_modes(void)
{
	log_printf("ukasan: this program mixes code built by ukasan-cc for generic KASAN and "
	           "for software tags (UKASAN_MODE=sw_tags); build all of it in one mode\n");
	os_exit(1);
}

void kasan_claim(const struct kasan_ops *ops)
{
	const struct kasan_ops *now = __atomic_load_n(&kasan_ops, __ATOMIC_ACQUIRE);
	if (now && now != ops)
		kasan_mixed_modes();
}
