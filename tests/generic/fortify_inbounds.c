// MODE: generic
// RUN: kasan_multi_shot
// CFLAGS: -O2 -D_FORTIFY_SOURCE=2
// intercept_inbounds.c fortified: the same calls exactly in bounds, through
// the __*_chk entry points, report nothing.
// NOT: BUG: KASAN
// NOT: buffer overflow detected
// STDOUT: in bounds: ok
#include "intercept_inbounds.c"
