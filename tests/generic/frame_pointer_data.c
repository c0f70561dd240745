// MODE: generic
// NOT: BUG: KASAN
// NOT: ukasan
// STDOUT: ok 14 allocations
#include <stdio.h>
#include <stdlib.h>

#include "frame_pointer_test.h"

/* Every allocation and free records its stack (chunk.c): rbp or x29
 * holding data at malloc or free (-8, as ripgrep's x29 did under hardware
 * tags) must end the walk, not the program. */
int main(void)
{
	printf("ok %d allocations\n", frame_pointer_values_run());
	return 0;
}
