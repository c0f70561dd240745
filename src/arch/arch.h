/* What differs between architectures, in one folder per architecture:
 * the shadow offset, the DWARF registers the unwinder follows and how to
 * read them, and how a fault's pc and direction are read from the signal
 * frame. The register-preserving KASAN checks are the architecture's
 * assembly beside them. Every layer may include this; it includes nothing
 * of ours. */
#ifndef UKASAN_ARCH_ARCH_H
#define UKASAN_ARCH_ARCH_H

#if defined(__x86_64__)
#include "x86_64/arch.h"
#elif defined(__aarch64__)
#include "aarch64/arch.h"
#endif

#endif
