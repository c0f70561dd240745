#!/bin/sh
# A shared library linked at a fixed address inside the shadow's range
# (-Wl,-Ttext-segment=0x6000000000: in the gap, past ASan's MidMem
# [0x3000000000, 0x5000000000), which tests/shared/check_prelink.sh runs,
# as ASan does; ASan refuses this one too): the shadow cannot move (its offset is compiled into the instrumented code),
# so the program must stop at start with status 1 and one ukasan: line that
# names the library and where it lies, never crash or run unchecked.
set -u
ROOT=${UKASAN_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${UKASAN_BUILD:-$ROOT/build}
TMP=${UKASAN_TEST_TMP:-$(mktemp -d)}
W=$TMP/fixed_address
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1
[ "$(uname -m)" = x86_64 ] || { echo "ok fixed address # skip: the reserved shadow is x86-64's"; exit 0; }
printf 'int f(void) { return 1; }\n' >lib.c
printf 'int f(void);\nint main(void) { return f() - 1; }\n' >main.c
if ! "$BUILD/bin/ukasan-cc" -shared -fPIC -Wl,-Ttext-segment=0x6000000000 lib.c -o libfixed.so ||
	! "$BUILD/bin/ukasan-cc" main.c -L. -lfixed -Wl,-rpath,"$W" -o main; then
	echo "not ok fixed address - did not build"
	exit 0
fi
./main >out.txt 2>&1
rc=$?
want="libfixed.so is mapped at [0x6000000000, 0x6000001000) inside it"
if [ $rc = 1 ] && grep -q -F "$want" out.txt; then
	echo "ok fixed address: exits 1 naming the library in the shadow's range"
else
	echo "not ok fixed address - status $rc, wanted 1 and '$want': $(head -c 300 out.txt)"
fi
