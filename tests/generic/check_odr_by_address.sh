#!/bin/sh
# The ODR check by address still reports two modules' definitions of one
# global, now that two descriptors of one address and size in one module
# count as one object the compiler merged (odr_merged_constants.c). clang
# without private aliases and ODR indicators (-asan-use-private-alias=0
# -asan-use-odr-indicator=0) describes the global itself: the dynamic
# linker binds the library's descriptor to the program's G, so both
# descriptors have one address, from two modules. Reported at
# detect_odr_violation=2 (ASan's default) for the same size and for two
# sizes, naming both modules, exit status 1.
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/odr_by_address
S=$UKASAN_ROOT/tests/shared
mkdir -p "$T"
X="-mllvm -asan-use-private-alias=0 -mllvm -asan-use-odr-indicator=0"
cc=${UKASAN_CC_CLANG:-clang-16}
if ! command -v "$cc" >/dev/null; then
	echo "not ok odr by address - $cc not found"
	exit 0
fi
for sz in 10 20; do
	t="odr by address [clang]: the library's G of $((sz * 4)) bytes, the program's of 40"
	# shellcheck disable=SC2086
	if ! UKASAN_CC=$cc "$B/bin/ukasan-cc" -g -O1 -fPIC -shared -DSZ=$sz $X -o "$T/libodr$sz.so" \
		"$S/_odr_lib.c" >"$T/build.log" 2>&1 ||
		! UKASAN_CC=$cc "$B/bin/ukasan-cc" -g -O1 $X -o "$T/main$sz" "$S/_odr_main.c" \
			"$T/libodr$sz.so" -Wl,-rpath,"$T" >>"$T/build.log" 2>&1; then
		echo "not ok $t - build failed: $(head -3 "$T/build.log")"
		continue
	fi
	if nm "$T/main$sz" | grep -q __odr_asan_gen_; then
		echo "not ok $t - the program has ODR indicators: not the address path"
		continue
	fi
	UKASAN_OPTIONS=kfence.sample_interval=0 "$T/main$sz" >"$T/out" 2>"$T/err"
	st=$?
	if grep -q "^BUG: KASAN: odr-violation in G$" "$T/err" &&
		grep -qE "^ \[1\] size=$((sz * 4)) 'G' .*libodr$sz.so$" "$T/err" &&
		grep -qE "^ \[2\] size=40 'G' .*/main$sz$" "$T/err" && [ $st = 1 ]; then
		echo "ok $t: odr-violation naming both modules, status 1"
	else
		echo "not ok $t - status $st: $(head -5 "$T/err")"
	fi
done
