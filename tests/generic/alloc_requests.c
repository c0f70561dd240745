// MODE: generic
// RUN: kasan_multi_shot
// ASan's reports of impossible requests (on by default): calloc-overflow,
// allocation-size-too-big (over ASan's 1 TiB), reallocarray-overflow,
// pvalloc-overflow and the invalid alignments of posix_memalign,
// aligned_alloc and memalign. Each is reported in the caller, with the
// request; then, unlike ASan, which aborts, the call fails as glibc's
// does (NULL and ENOMEM or EINVAL) and the program runs on.
// EXPECT: BUG: KASAN: calloc-overflow in requests+0x
// EXPECT-RE: ^Request by task \S+/\d+: 18446744073709551615 elements of 1000 bytes, a size that overflows$
// EXPECT: Call Trace:
// EXPECT:  requests+0x
// EXPECT: BUG: KASAN: allocation-size-too-big in requests+0x
// EXPECT: 1099511627777 bytes (0x10000000001), more than the maximum supported size 0x10000000000
// EXPECT: BUG: KASAN: reallocarray-overflow in requests+0x
// EXPECT: BUG: KASAN: pvalloc-overflow in requests+0x
// EXPECT: BUG: KASAN: invalid-posix-memalign-alignment in requests+0x
// EXPECT: alignment 3 (0x3), which posix_memalign does not accept
// EXPECT: BUG: KASAN: invalid-posix-memalign-alignment in requests+0x
// EXPECT: BUG: KASAN: invalid-aligned-alloc-alignment in requests+0x
// EXPECT: BUG: KASAN: invalid-allocation-alignment in requests+0x
// EXPECT: alignment 3 (0x3), which memalign does not accept
// COUNT: 8 BUG: KASAN:
// STDOUT: calloc(-1, 1000): NULL, ENOMEM
// STDOUT: malloc(2^40+1): NULL, ENOMEM
// STDOUT: reallocarray overflow: NULL, ENOMEM
// STDOUT: pvalloc overflow: NULL, ENOMEM
// STDOUT: posix_memalign(3): EINVAL, errno kept: yes
// STDOUT: posix_memalign(4): EINVAL
// STDOUT: aligned_alloc(3): NULL, EINVAL
// STDOUT: memalign(3): NULL, EINVAL
// STDOUT: malloc(100): ok
#include "_alloc_requests.h"
