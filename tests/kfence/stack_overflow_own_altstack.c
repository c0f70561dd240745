// ARGS: own
// tests/kfence/stack_overflow_handler.c with the program's own alternate
// signal stack, set after ukasan set up its own for the main thread: the
// program's wins, and its handler runs there.
// STATUS: 3
// STDOUT: the program's handler ran on its own stack
// NOT: BUG:
#include "stack_overflow_handler.c"
