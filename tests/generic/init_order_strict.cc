// MODE: generic
// RUN: kasan.check_initialization_order=on kasan.strict_init_order=on
// CFLAGS: $ROOT/tests/generic/_init_order_reader.cc
// EXPECT: BUG: KASAN: initialization-order-fiasco in read_y
// EXPECT: Read of size 4 at addr
// EXPECT: The buggy address belongs to the variable:
// EXPECT:  y+0x0/
// STDOUT: x=43
//
// init_order_clean.cc with strict_init_order: an initialiser may not read
// another file's dynamically initialised global even once it is set up.
#include <stdio.h>

#include "generic/_init_order_y.cc"

extern int x;

int main()
{
	printf("x=%d\n", x);
	return 0;
}
