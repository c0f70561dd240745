#!/bin/sh
# libyaml, a CMake project, built with ukasan-cc as CMake's C compiler, by
# gcc and by clang-16, each also with -D_FORTIFY_SOURCE=2. Per build:
#   builds with ukasan-cc as CMake's compiler   configure and build, no report
#   binaries instrumented      run-parser calls __asan_report_* and links
#                              libukasan.so: no check passes vacuously
#   ctest passes with no report (kasan_multi_shot)    but for test-reader's
#                              own leak, suppressed there (a leak: line)
#   finds test-reader's own leak    check_utf8_sequences() leaves the loop
#                              before yaml_parser_delete() on each sequence's
#                              last case: 336 objects, 2865408 bytes, the
#                              very figures gcc's LeakSanitizer gives
#   its test programs on its own inputs: no report    run-scanner, run-parser,
#                              run-loader, run-dumper, run-emitter and the
#                              examples, over regression-inputs/ and
#                              examples/*.yaml, every report printed
#   reports an overflow through libyaml's API    a program of ours announces
#                              40 bytes of input in an 11-byte buffer:
#                              libyaml's reader must be caught reading past it
# The source is Debian's libyaml source package (tests/projects/_debsrc.sh).
set -u
ROOT=${UKASAN_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${UKASAN_BUILD:-$ROOT/build}
TMP=${UKASAN_TEST_TMP:-$(mktemp -d)}
WRAP=$BUILD/bin/ukasan-cc
WORK=$TMP/libyaml
JOBS=$(nproc 2>/dev/null || echo 2)
BUGS='BUG: (KASAN|KFENCE|memory leak)'
mkdir -p "$WORK"

if [ ! -x "$WRAP" ]; then
	echo "not ok libyaml - $WRAP missing: run make first"
	exit 0
fi
if ! command -v cmake >/dev/null; then
	echo "not ok libyaml - cmake is not installed (apt-get install -y cmake)"
	exit 0
fi
. "$ROOT/tests/projects/_debsrc.sh"
SRC=$(debsrc_get libyaml CMakeLists.txt include/yaml.h) || { echo "$SRC"; exit 0; }
echo "# libyaml source: $SRC"

# Each compiler twice: as the project builds (RelWithDebInfo, -O2), and
# fortified as distributions build it (dpkg-buildflags), where calls become
# the interposed __*_chk.
for build in gcc clang-16 gcc-fortify clang-16-fortify; do
	cc=${build%-fortify}
	cflags=
	[ "$cc" = "$build" ] || cflags=-D_FORTIFY_SOURCE=2
	t="libyaml [$build]"
	if ! command -v $cc >/dev/null; then
		echo "not ok $t - $cc not installed"
		continue
	fi
	b=$WORK/build-$build
	rm -rf "$b"
	if ! (UKASAN_CC=$cc CC=$WRAP cmake -S "$SRC" -B "$b" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_C_FLAGS="$cflags" -DBUILD_TESTING=ON &&
		UKASAN_CC=$cc cmake --build "$b" -j "$JOBS") >"$WORK/build-$build.log" 2>&1 ||
		grep -qE "$BUGS" "$WORK/build-$build.log"; then
		echo "not ok $t builds with ukasan-cc as CMake's compiler - see $WORK/build-$build.log"
		continue
	fi
	echo "ok $t builds with ukasan-cc as CMake's compiler"

	if objdump -d "$b/run-parser" | grep -qE 'call.*<__asan_(report_|load|store)' &&
		ldd "$b/run-parser" | grep -q libukasan.so; then
		echo "ok $t binaries instrumented"
	else
		echo "not ok $t binaries instrumented - run-parser has no checks or does not load libukasan.so"
	fi

	log=$WORK/ctest-$build.log
	supp=$WORK/leaks.supp
	echo "leak:check_utf8_sequences" >"$supp"
	if (cd "$b" && UKASAN_OPTIONS="kasan_multi_shot kmemleak.suppressions=$supp" \
		ctest --output-on-failure) >"$log" 2>&1 && ! grep -qE "$BUGS" "$log"; then
		echo "ok $t ctest passes with no report (kasan_multi_shot)"
	else
		echo "not ok $t ctest passes with no report - $(grep -m1 -E "$BUGS|Failed|tests failed" "$log") (log: $log)"
	fi

	log=$WORK/reader-leak-$build.log
	(cd "$b" && ./test-reader) 2>"$log" >/dev/null
	rc=$?
	if [ $rc = 1 ] && ! grep -qE 'BUG: (KASAN|KFENCE)' "$log" &&
		grep -qE '^ukasan: kmemleak: 336 new suspected memory leaks \(2865408 bytes\) from [0-9]+ allocation stacks$' "$log" &&
		[ "$(grep -cE '^    \[<[0-9a-f]+>\] check_utf8_sequences\+' "$log")" = "$(grep -c '^BUG: memory leak' "$log")" ]; then
		echo "ok $t finds test-reader's own leak (as LeakSanitizer does)"
	else
		echo "not ok $t finds test-reader's own leak - exit $rc; $(grep -m1 -E 'kmemleak:|BUG:' "$log") (log: $log)"
	fi

	log=$WORK/runs-$build.log
	: >"$log"
	runs=0 crashed=
	for f in "$SRC"/regression-inputs/* "$SRC"/examples/*.yaml; do
		[ -f "$f" ] || continue
		for p in run-scanner run-parser run-loader run-dumper run-emitter; do
			[ -x "$b/$p" ] || continue
			UKASAN_OPTIONS=kasan_multi_shot timeout 60 "$b/$p" "$f" >/dev/null 2>>"$log"
			[ $? -ge 128 ] && crashed="$crashed $p<$(basename "$f")"
			runs=$((runs + 1))
		done
		for p in example-reformatter example-deconstructor example-deconstructor-alt; do
			[ -x "$b/$p" ] || continue
			UKASAN_OPTIONS=kasan_multi_shot timeout 60 "$b/$p" <"$f" >/dev/null 2>>"$log"
			[ $? -ge 128 ] && crashed="$crashed $p<$(basename "$f")"
			runs=$((runs + 1))
		done
	done
	if [ $runs -ge 20 ] && [ -z "$crashed" ] && ! grep -qE "$BUGS" "$log"; then
		echo "ok $t its test programs on its own inputs: no report ($runs runs)"
	else
		echo "not ok $t its test programs on its own inputs - $runs runs;${crashed:+ died:$crashed;} $(grep -m1 -E "$BUGS" "$log") (log: $log)"
	fi

	exe=$WORK/overflow-$build log=$WORK/overflow-$build.log
	if UKASAN_CC=$cc "$WRAP" -g -O1 $cflags -I"$SRC/include" -I"$b/include" -o "$exe" \
		"$ROOT/tests/projects/_yaml_overflow.c" "$b/libyaml.a" >"$log" 2>&1; then
		UKASAN_OPTIONS=kfence.sample_interval=0 "$exe" >>"$log" 2>&1
		if grep -qE "^BUG: KASAN: slab-out-of-bounds in yaml_" "$log" && grep -q "^done" "$log"; then
			echo "ok $t reports an overflow through libyaml's API"
		else
			echo "not ok $t reports an overflow through libyaml's API - $(grep -m1 -E "$BUGS" "$log") (log: $log)"
		fi
	else
		echo "not ok $t reports an overflow through libyaml's API - build failed (log: $log)"
	fi
done
