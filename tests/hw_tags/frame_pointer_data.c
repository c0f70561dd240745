// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// NOT: BUG: KASAN
// NOT: ukasan
// STDOUT: ok 14 allocations
#include "hw_tags/hw_tags_test.h"

#include <stdio.h>
#include <stdlib.h>

#include "frame_pointer_test.h"

/* Every allocation and free records its stack (tags.c): x29 holding data
 * at malloc or free (-8, as in ripgrep) must end the walk, not the program. */
int main(void)
{
	printf("ok %d allocations\n", frame_pointer_values_run());
	return 0;
}
