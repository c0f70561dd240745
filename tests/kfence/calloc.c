// RUN: kfence.sample_rate=1
// NOT: BUG: KFENCE
// STDOUT: calloc ok
#include <errno.h>
#include <stdint.h>

#include "kfence_test.h"

int main(void)
{
	/* Guarded calloc memory is zeroed even though the page held canary
	 * and earlier objects; overflow gives NULL with ENOMEM, as glibc. */
	for (int i = 0; i < 300; i++) {
		unsigned char *p = calloc(1, 300);
		for (int j = 0; j < 300; j++)
			if (p[j])
				return 82;
		for (int j = 0; j < 300; j++)
			p[j] = 0xff;
		free(p);
	}
	errno = 0;
	if (calloc(SIZE_MAX / 2, 3) != NULL || errno != ENOMEM)
		return 81;
	errno = 0;
	if (reallocarray(NULL, SIZE_MAX / 2, 3) != NULL || errno != ENOMEM)
		return 80;
	void *z = malloc(0);
	if (!z)
		return 79;
	free(z);
	printf("calloc ok\n");
	return 0;
}
