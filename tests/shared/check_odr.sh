#!/bin/sh
# ODR violations (AddressSanitizer's detect_odr_violation, default 2): a
# program and a library both built with ukasan-cc, both defining int G[N].
# Different sizes are reported at start as one odr-violation naming both
# definitions, not as a global-out-of-bounds later; the same size too at 2
# (as ASan), not at 1; two statics of one name are no violation. Both
# compilers: clang-16's descriptors share the address (or ODR indicator);
# GCC's kernel-address instrumentation describes each module's own copy (a
# local alias) with no indicator, and the runtime finds the two exported
# definitions of one name in the modules' dynamic symbol tables (by
# address for C++, whose descriptor names foo::G "G" and whose symbol is
# mangled).
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/odr
S=$UKASAN_ROOT/tests/shared
mkdir -p "$T"

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

build() { # $1: the library's size of G
	UKASAN_CC=$cc "$B/bin/ukasan-cc" -g -O1 -fPIC -shared -DSZ=$1 -o "$T/libodr$1.so" "$S/_odr_lib.c" &&
		UKASAN_CC=$cc "$B/bin/ukasan-cc" -g -O1 -o "$T/main$1" "$S/_odr_main.c" "$T/libodr$1.so" \
			-Wl,-rpath,"$T"
}
run() { # $1: size, $2: options; the status in $st, stderr in $T/err
	UKASAN_OPTIONS="kfence.sample_interval=0 $2" "$T/main$1" >"$T/out" 2>"$T/err"
	st=$?
}
for cc in clang-16 gcc; do
	if ! build 20 || ! build 10; then
		notok "$cc: build" "ukasan-cc failed"
		continue
	fi

	run 20 ""
	if grep -q "^BUG: KASAN: odr-violation in G$" "$T/err" &&
		grep -qE "^ \[1\] size=80 'G'( [^ ]+:[0-9]+)? \(file .*_odr_lib.c\) in .*libodr20.so$" "$T/err" &&
		grep -qE "^ \[2\] size=40 'G'( [^ ]+:[0-9]+)? \(file .*_odr_main.c\) in .*/main20$" "$T/err" &&
		! grep -q "global-out-of-bounds" "$T/err" && [ $st = 1 ]; then
		ok "$cc: sizes 40 and 80: odr-violation naming both definitions, status 1"
	else
		notok "$cc: different sizes" "status $st: $(head -8 "$T/err")"
	fi

	run 20 "kasan.detect_odr_violation=0"
	if ! grep -q "odr-violation" "$T/err"; then
		ok "$cc: kasan.detect_odr_violation=0: no odr-violation"
	else
		notok "$cc: detect_odr_violation=0" "$(head -3 "$T/err")"
	fi

	run 10 ""
	if grep -q "^BUG: KASAN: odr-violation in G$" "$T/err" && [ $st = 1 ]; then
		ok "$cc: the same size at detect_odr_violation=2 (ASan's default): reported"
	else
		notok "$cc: same size, 2" "status $st: $(head -3 "$T/err")"
	fi

	export ASAN_OPTIONS=detect_odr_violation=1
	run 10 ""
	unset ASAN_OPTIONS
	if [ $st = 0 ] && ! grep -q "BUG:" "$T/err" && grep -qx 0 "$T/out"; then
		ok "$cc: the same size at ASAN_OPTIONS=detect_odr_violation=1: no report, status 0"
	else
		notok "$cc: same size, 1" "status $st: $(head -3 "$T/err")"
	fi
done

# C++: foo::G of two sizes in the program and the library.
for cc in clang++-16 g++; do
	if ! UKASAN_CXX=$cc "$B/bin/ukasan-c++" -g -O1 -fPIC -shared -DSZ=20 -o "$T/libodrcc.so" "$S/_odr_lib.cc" ||
		! UKASAN_CXX=$cc "$B/bin/ukasan-c++" -g -O1 -o "$T/maincc" "$S/_odr_main.cc" "$T/libodrcc.so" \
			-Wl,-rpath,"$T"; then
		notok "$cc: C++ build" "ukasan-c++ failed"
		continue
	fi
	UKASAN_OPTIONS="kfence.sample_interval=0" "$T/maincc" >"$T/out" 2>"$T/err"
	st=$?
	if grep -qE "^BUG: KASAN: odr-violation in (foo::)?G$" "$T/err" &&
		grep -qE "^ \[1\] size=80 '(foo::)?G'" "$T/err" && grep -qE "^ \[2\] size=40 '(foo::)?G'" "$T/err" &&
		[ $(grep -c "^BUG:" "$T/err") = 1 ] && [ $st = 1 ]; then
		ok "$cc: C++ foo::G of sizes 40 and 80: one odr-violation, status 1"
	else
		notok "$cc: C++ foo::G" "status $st: $(head -8 "$T/err")"
	fi
done
