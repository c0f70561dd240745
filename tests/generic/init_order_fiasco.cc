// MODE: generic
// RUN: kasan.check_initialization_order=on
// CFLAGS: $ROOT/tests/generic/_init_order_y.cc
// EXPECT: BUG: KASAN: initialization-order-fiasco in read_y
// EXPECT: Read of size 4 at addr
// EXPECT: The buggy address belongs to the variable:
// EXPECT:  y+0x0/
// STDOUT: x=1
//
// This file's initialiser runs first (it is first on the command line) and
// reads y before y's file initialised it: AddressSanitizer's
// initialization-order-fiasco, with check_initialization_order. With GCC,
// whose kernel-address instrumentation registers a file's globals after
// the file's own initialisers, y is known only because the runtime calls
// the registering constructors ahead of time.
#include <stdio.h>

#include "generic/_init_order_reader.cc"

int main()
{
	printf("x=%d\n", x);
	return 0;
}
