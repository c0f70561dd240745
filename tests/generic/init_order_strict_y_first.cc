// MODE: generic
// RUN: kasan.strict_init_order=on
// CFLAGS: $ROOT/tests/generic/_init_order_reader.cc
// EXPECT: BUG: KASAN: initialization-order-fiasco in read_y
// EXPECT: Read of size 4 at addr
// EXPECT: The buggy address belongs to the variable:
// EXPECT:  y+0x0/
// STDOUT: x=43
//
// kasan.strict_init_order alone, the other link order from
// init_order_strict_reader_first.cc: y's file is linked first and its
// initialiser has run, but with strict_init_order another file's
// initialiser may not read it even so.
#include <stdio.h>

#include "generic/_init_order_y.cc"

extern int x;

int main()
{
	printf("x=%d\n", x);
	return 0;
}
