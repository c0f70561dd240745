// MODE: generic
// VARIANTS: gcc clang
// RUN: kasan_multi_shot kasan.stack_use_after_return=off
// stack_use_after_return.c with kasan.stack_use_after_return off: the frames are on the real stack, and the same accesses are not
// reported (the expectations the program prints are not checked here).
// NOT: BUG: KASAN:
// STDOUT: sum 45
#define KASAN_EXPECT_FAIL(expression, ...) ((void)(expression))
#include "stack_use_after_return.c"
