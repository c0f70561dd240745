// MODE: generic
// RUN: kasan.strict_init_order=on
// CFLAGS: $ROOT/tests/generic/_init_order_y.cc
// EXPECT: BUG: KASAN: initialization-order-fiasco in read_y
// EXPECT: Read of size 4 at addr
// EXPECT: The buggy address belongs to the variable:
// EXPECT:  y+0x0/
// STDOUT: x=1
//
// kasan.strict_init_order alone (as ASan's test of either link order sets
// strict_init_order alone: it implies check_initialization_order). This
// file is linked first: its initialiser reads y before y's file ran.
// init_order_strict_y_first.cc is the other order.
#include <stdio.h>

#include "generic/_init_order_reader.cc"

int main()
{
	printf("x=%d\n", x);
	return 0;
}
