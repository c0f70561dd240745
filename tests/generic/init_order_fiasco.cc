// MODE: generic
// VARIANTS: clang
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
// initialization-order-fiasco, with check_initialization_order. clang only:
// GCC's kernel-address instrumentation registers a file's globals from a
// constructor of default priority, after the file's own initialisers, so
// while this file's run, y is not yet known to the runtime.
#include <stdio.h>

#include "generic/_init_order_reader.cc"

int main()
{
	printf("x=%d\n", x);
	return 0;
}
