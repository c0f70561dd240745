// MODE: generic
// RUN: kasan.check_initialization_order=on
// CFLAGS: $ROOT/tests/generic/_init_order_reader.cc
// NOT: BUG: KASAN
// STDOUT: x=43
//
// The clean twin of init_order_fiasco.cc: y's file comes first, so y is
// initialised when the other file's initialiser reads it.
#include <stdio.h>

#include "generic/_init_order_y.cc"

extern int x;

int main()
{
	printf("x=%d\n", x);
	return 0;
}
