// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// ARGS: 4
// CFLAGS: -O0
// stack_use_after_scope.c at -O0: clang emits the scope markers there only
// when its front end is told directly (ukasan-cc does).
// EXPECT-RE: ^This frame has \d+ objects?:$
// EXPECT-RE: ^ \[\d+, \d+\) 'inner'$
// COUNT: 1 BUG: KASAN:
#include "stack_use_after_scope.c"
