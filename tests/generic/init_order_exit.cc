// MODE: generic
// RUN: kasan.check_initialization_order=on kasan.strict_init_order=on
// CFLAGS: $ROOT/tests/generic/_init_order_y.cc
// NOT: BUG: KASAN
// STDOUT: y=0 at exit
//
// exit() called from a dynamic initialiser: this file's initialisers run
// first, and b's calls exit before _init_order_y.cc's have run. exit runs
// a's destructor, which reads y, still poisoned for the init-order check:
// no fiasco, since the program is ending, not initialising (ASan's check
// ends where exit begins: LLVM's init-order-atexit.cpp). y reads 0, its
// initialiser never having run.
#include <stdio.h>
#include <stdlib.h>

extern int y;

__attribute__((noinline)) static int read_y()
{
	return *(volatile int *)&y;
}

struct A {
	~A()
	{
		printf("y=%d at exit\n", read_y());
	}
};
A a;

struct B {
	B()
	{
		exit(0);
	}
};
B b;

int main()
{
	printf("not reached\n");
	return 1;
}
