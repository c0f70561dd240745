/* Hardware tags (the kernel's CONFIG_KASAN_HW_TAGS): placeholder until the
 * MTE back end lands. */
#include "../config/log.h"
#include "tags.h"

int hw_tags_init(void)
{
	log_printf("ukasan: kasan=on: hardware tags are not available yet; running with KFENCE "
	           "only\n");
	return -1;
}
