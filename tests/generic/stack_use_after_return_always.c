// MODE: generic
// VARIANTS: clang clang-outline
// CFLAGS: -fsanitize-address-use-after-return=always
// RUN: kasan_multi_shot kasan.stack_use_after_return=off
// stack_use_after_return.c built with clang's
// -fsanitize-address-use-after-return=always and run with
// kasan.stack_use_after_return off: frames go to fake stacks
// whatever the option says, as under ASan (LLVM's heavy_uar_test.cpp), so
// the same two accesses are reported. ukasan-cc gives the flag to clang's
// back end (the driver takes it only with its own ASan), and the runtime
// has the __asan_stack_malloc_always_N entry points.
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return+0x
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return+0x
// COUNT: 2 BUG: KASAN:
// STDOUT: sum 45
#include "stack_use_after_return.c"
