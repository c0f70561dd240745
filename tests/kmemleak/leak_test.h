/* Helpers for kmemleak's tests: a lost pointer must leave no copy in a
 * register or a dead stack slot that a conservative scan would find. */
#ifndef LEAK_TEST_H
#define LEAK_TEST_H

#include <string.h>

#define LEAK_TEST __attribute__((noinline, noclone))
/* LSan's interface, as a program declares it: weak, so that a program
 * built unmodified (the hardware tag runs) links, and finds the functions
 * in the preloaded runtime. */
#define LSAN_API __attribute__((weak))
/* Keeps the compiler from dropping the stores into an object never read. */
#define HIDE(p) __asm__ volatile("" : "+r"(p) : : "memory")

/* Overwrite the dead stack below the caller, and the scratch registers. */
__attribute__((noinline)) static void clear_stack(void)
{
	volatile char buf[16384];
	memset((char *)buf, 0, sizeof(buf));
	__asm__ volatile("" : : "r"(buf) : "memory");
}

/* Run f below 8 KiB of stack: the dead slots its frames leave lie below
 * every frame the check at exit runs in, and are not scanned. */
__attribute__((noinline)) static void run_deep(void (*f)(void))
{
	volatile char pad[8192];
	pad[0] = 0;
	f();
	__asm__ volatile("" : : "r"(pad) : "memory");
}

#endif
