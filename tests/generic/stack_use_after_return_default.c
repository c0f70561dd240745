// MODE: generic
// VARIANTS: gcc clang
// RUN: kasan_multi_shot
// stack_use_after_return.c with no option: kasan.stack_use_after_return is
// on by default, as ASan's detect_stack_use_after_return is on Linux since
// LLVM 15 (LLVM's scariness_score_test.cpp #40/#41 run without it), for
// clang's default -fsanitize-address-use-after-return=runtime and gcc's
// --param=asan-use-after-return=1 alike.
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return+0x
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return+0x
// COUNT: 2 BUG: KASAN:
// STDOUT: sum 45
#include "stack_use_after_return.c"
