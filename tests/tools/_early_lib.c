/* Preloaded before libukasan.so: its constructor allocates before ukasan's
 * constructor can have run. */
#include <stdlib.h>
#include <string.h>

char *early_buf;

__attribute__((constructor)) static void early(void)
{
	early_buf = malloc(32);
	memset(early_buf, 'e', 32);
}
