// MODE: generic
// RUN: kasan_multi_shot
// CFLAGS: -O2 -D_FORTIFY_SOURCE=3
// intercept_inbounds.c at _FORTIFY_SOURCE=3, where the compiler passes the
// object sizes it learns at run time: still nothing reported.
// NOT: BUG: KASAN
// NOT: buffer overflow detected
// STDOUT: in bounds: ok
#include "intercept_inbounds.c"
