// RUN: kfence.sample_rate=1
// REPEAT: 20
// STDOUT: signals: every object intact
// NOT: BUG: KFENCE
// NOT: ukasan:
/* Allocating signal handlers that free only what they allocated. */
#include "_signals.h"
