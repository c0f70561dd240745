#!/bin/sh
# AddressSanitizer's asan_prelink_test (x86-64): a library linked at
# 0x3600000000 (-Wl,-Ttext-segment, as prelink places libraries), inside
# the shadow's gap of the default layout. Its mapping, present at start,
# makes ukasan cut ASan's MidMem [0x3000000000, 0x5000000000) and its
# shadow out of the gap, as ASan does: the program runs, the library's
# globals and heap objects are checked (a global-out-of-bounds, a
# slab-out-of-bounds read in the library), and a clean run is clean.
# Refused before ("cannot reserve shadow memory ... mapped inside it").
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/prelink
S=$UKASAN_ROOT/tests/shared
mkdir -p "$T"

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

if [ "$(uname -m)" != x86_64 ]; then
	ok "prelink: x86-64 only (skipped)"
	exit 0
fi
for cc in clang-16 gcc; do
	if ! UKASAN_CC=$cc "$B/bin/ukasan-cc" -g -O1 -fPIC -shared -o "$T/libprelink.so" \
		"$S/_prelink_lib.c" -Wl,-Ttext-segment=0x3600000000 ||
		! UKASAN_CC=$cc "$B/bin/ukasan-cc" -g -O1 -o "$T/main" "$S/_prelink_main.c" \
			"$T/libprelink.so" -Wl,-rpath,"$T"; then
		notok "$cc: prelink build" "ukasan-cc failed"
		continue
	fi
	UKASAN_OPTIONS="kfence.sample_interval=0" "$T/main" >"$T/out" 2>"$T/err"
	st=$?
	if [ $st = 0 ] && grep -q "^SO mapped at 3600000000$" "$T/out" && ! [ -s "$T/err" ]; then
		ok "$cc: prelinked library at 0x3600000000 runs, clean"
	else
		notok "$cc: prelinked library at 0x3600000000 runs, clean" \
			"status $st; $(head -c 400 "$T/out" "$T/err" | tr '\n' ' ')"
	fi
	UKASAN_OPTIONS="kfence.sample_interval=0" "$T/main" g >"$T/out" 2>"$T/err"
	st=$?
	if [ $st = 1 ] && grep -q "^BUG: KASAN: global-out-of-bounds in global_overflow+0x" "$T/err" &&
		grep -qE "^Read of size 4 at addr 00000036[0-9a-f]{8} by task" "$T/err"; then
		ok "$cc: prelinked library's global overflow reported"
	else
		notok "$cc: prelinked library's global overflow reported" \
			"status $st; $(head -c 400 "$T/err" | tr '\n' ' ')"
	fi
	UKASAN_OPTIONS="kfence.sample_interval=0" "$T/main" h >"$T/out" 2>"$T/err"
	st=$?
	if [ $st = 1 ] && grep -q "^BUG: KASAN: slab-out-of-bounds in heap_overflow+0x" "$T/err"; then
		ok "$cc: prelinked library's heap overflow reported"
	else
		notok "$cc: prelinked library's heap overflow reported" \
			"status $st; $(head -c 400 "$T/err" | tr '\n' ' ')"
	fi
done
