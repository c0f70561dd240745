// RUN: kfence.sample_rate=1
// REPEAT: 20
// STDOUT: signals with stash: every object intact
// NOT: BUG: KFENCE
// NOT: ukasan:
/* Allocating signal handlers that also free guarded objects an earlier
 * handler allocated, whatever they interrupted: a free must not wait for
 * the pool's slot list when the interrupted code holds it. */
#define STASH 4
#include "_signals.h"
