#!/bin/sh
# zlib, built with ukasan-cc (generic KASAN) by gcc and by clang-16, must
# build, pass its own `make test`, and print no KASAN or KFENCE report.
#
# zlib's source is Debian's source package, fetched at test time
# (tests/projects/_debsrc.sh).
#
# Per compiler (gcc, clang, and each again with -O2 -D_FORTIFY_SOURCE=2),
# one line each:
#   builds with ukasan-cc          ./configure && make, no report
#   binaries instrumented          the test programs, inflate.o, deflate.o and
#                                  libz.so call __asan_report_* (outline:
#                                  __asan_load*/store*) and the programs link
#                                  libukasan.so: no check passes vacuously
#   make test passes with no report               the caller's UKASAN_OPTIONS
#   ... (kasan_multi_shot)                        every report would be printed
#   ... (kasan_multi_shot kfence.sample_rate=1)   KFENCE guards every allocation too
#   reports an overflow through zlib's API        a small program of ours lies to
#                                  uncompress() about its buffer's size: zlib's own
#                                  code must be caught writing past it
#
# infcover: test/infcover.c, zlib's inflate coverage
# test (not part of `make test`). It has one real bug that KASAN must report:
# inflateInit_(&strm, ZLIB_VERSION - 1, ...) reads the byte before a string
# literal (global-out-of-bounds; AddressSanitizer reports it too). Nothing
# else may be reported and it must run to the end, then exit 1 for the
# report (ukasan.exitcode). (It found ukasan's free
# record overrunning 0- and 9..15-byte chunks.) UKASAN_ZLIB_INFCOVER=0 skips it.
#
# UKASAN_CC_GCC / UKASAN_CC_CLANG name the real compilers (gcc, clang-16);
# UKASAN_INSTRUMENT=outline is passed through to ukasan-cc.
set -u
ROOT=${UKASAN_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${UKASAN_BUILD:-$ROOT/build}
TMP=${UKASAN_TEST_TMP:-$(mktemp -d)}
WRAP=$BUILD/bin/ukasan-cc
WORK=$TMP/zlib
JOBS=$(nproc 2>/dev/null || echo 2)
BUGS='BUG: (KASAN|KFENCE|memory leak)'

mkdir -p "$WORK" "$BUILD/third_party"

note() { echo "# $*"; echo "check_zlib: $*" >&2; }

# The first report title in the given files, for a one-line reason.
first_bug() {
	grep -h -m1 -E "$BUGS" "$@" 2>/dev/null | head -1
}

# --- zlib's source -------------------------------------------------------

if [ ! -x "$WRAP" ]; then
	echo "not ok zlib - $WRAP missing: run make first"
	exit 0
fi
. "$ROOT/tests/projects/_debsrc.sh"
SRC=$(debsrc_get zlib configure zlib.h) || { echo "$SRC"; exit 0; }
note "zlib source: $SRC"

# --- one build per compiler ----------------------------------------------

# The lines "*** zlib ... test OK ***" that this version's `make test` prints:
# one per target on the Makefile's test line (configure picks them).
expected_ok_lines() {
	t=$(grep -m1 '^test:' "$1/Makefile")
	case "$t" in *teststatic*) echo '*** zlib test OK ***' ;; esac
	case "$t" in *testshared*) echo '*** zlib shared test OK ***' ;; esac
	case "$t" in *test64*) echo '*** zlib 64-bit test OK ***' ;; esac
}

# make test under the given UKASAN_OPTIONS; prints the reason on failure.
run_make_test() {
	dir=$1 opts=$2 log=$3
	(cd "$dir" && UKASAN_OPTIONS=$opts timeout 300 make test) >"$log" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		bug=$(first_bug "$log")
		echo "make test exited $rc${bug:+ after '$bug'}: $(grep -m1 -E 'FAILED|Error|Abort|Segmentation' "$log") (log: $log)"
		return 1
	fi
	bug=$(first_bug "$log")
	if [ -n "$bug" ]; then
		echo "report in make test: '$bug' (log: $log)"
		return 1
	fi
	missing=
	expected_ok_lines "$dir" >"$log.want"
	[ -s "$log.want" ] || echo '*** zlib test OK ***' >"$log.want"
	while IFS= read -r line; do
		grep -qF "$line" "$log" || missing="$missing '$line'"
	done <"$log.want"
	if [ -n "$missing" ]; then
		echo "make test did not print$missing (log: $log)"
		return 1
	fi
	if grep -q FAILED "$log"; then
		echo "make test printed: $(grep -m1 FAILED "$log") (log: $log)"
		return 1
	fi
	return 0
}

check_instrumented() {
	dir=$1
	why=
	for b in example minigzip examplesh minigzipsh example64 minigzip64; do
		[ -f "$dir/$b" ] || continue
		# Calls, not symbols: executables carry the report functions themselves.
		objdump -d "$dir/$b" 2>/dev/null | grep -qE 'call.*<__asan_(report_|load|store)' ||
			why="$why $b: no __asan_report_/load/store calls;"
		readelf -d "$dir/$b" 2>/dev/null | grep -q 'NEEDED.*libukasan' || why="$why $b: does not link libukasan.so;"
	done
	[ -f "$dir/example" ] || why="$why no example binary;"
	for o in inflate.o deflate.o; do
		nm "$dir/$o" 2>/dev/null | grep -qE ' U __asan_(report_|load|store)' || why="$why $o: not instrumented;"
	done
	so=$(ls "$dir"/libz.so.* 2>/dev/null | head -1)
	if [ -n "$so" ]; then
		nm -D "$so" 2>/dev/null | grep -qE ' U __asan_(report_|load|store)' || why="$why $(basename "$so"): not instrumented;"
	fi
	[ -z "$why" ] && return 0
	echo "$why"
	return 1
}

# Our own program overflows a heap buffer through uncompress(): the report
# must come from zlib's instrumented code (inflate), not from anything of ours.
check_canary() {
	dir=$1 cc=$2
	cp "$ROOT/tests/projects/_zlib_canary.c" "$dir/ukasan_canary.c"
	log=$dir/ukasan_canary.log
	if ! (cd "$dir" && UKASAN_CC=$cc "$WRAP" -O2 -I. ukasan_canary.c libz.a -o ukasan_canary) >"$log" 2>&1; then
		echo "could not build the overflow program (log: $log)"
		return 1
	fi
	# KFENCE off: the buffer must be a KASAN slab object.
	(cd "$dir" && UKASAN_OPTIONS=kfence.sample_interval=0 timeout 60 ./ukasan_canary) >>"$log" 2>&1
	if ! grep -q 'BUG: KASAN: slab-out-of-bounds in inflate' "$log" || ! grep -q '^Write of size' "$log"; then
		echo "no 'BUG: KASAN: slab-out-of-bounds in inflate...' write report; got '$(first_bug "$log")' (log: $log)"
		return 1
	fi
	return 0
}

# zlib's inflate coverage test: exactly one report, the test's own
# ZLIB_VERSION - 1 read, and a run to the end.
check_infcover() {
	dir=$1
	log=$dir/infcover.log
	if ! (cd "$dir" && timeout 300 make infcover) >"$log" 2>&1; then
		echo "make infcover failed (log: $log)"
		return 1
	fi
	(cd "$dir" && timeout 300 ./infcover) >>"$log" 2>&1
	rc=$?
	n=$(grep -c -E "$BUGS" "$log")
	# It runs on after its report, and exits 1 for it (ukasan.exitcode).
	# clang's bounds check reports the same bug first, where ZLIB_VERSION
	# - 1 is computed (index -1 of a char[7]): a second report then.
	reports=1
	grep -q 'UBSAN: array-index-out-of-bounds in test/infcover.c' "$log" && reports=2
	if [ $rc != 1 ] || ! grep -qE "^ukasan: $reports reports? in this run" "$log"; then
		echo "infcover exited $rc, not 1 after its one report: $(grep -m1 -E 'malloc|free|corrupt|Abort|Segmentation' "$log") (log: $log)"
		return 1
	fi
	# The read is inflateInit2_'s, which gcc -O2 does not inline into
	# inflateInit_ as -O3 does.
	if [ "$n" != 1 ] || ! grep -qE 'BUG: KASAN: global-out-of-bounds in inflateInit2?_' "$log"; then
		echo "expected exactly one report, global-out-of-bounds in inflateInit_ or inflateInit2_ (ZLIB_VERSION - 1); got $n, first '$(first_bug "$log")' (log: $log)"
		return 1
	fi
	if ! grep -q 'copy direct from output' "$log"; then
		echo "infcover did not run to its last case (log: $log)"
		return 1
	fi
	return 0
}

say() { # NAME STATUS REASON
	if [ "$2" = 0 ]; then echo "ok $1"; else echo "not ok $1 - $3"; fi
}

one_compiler() {
	tag=$1 cc=$2 cflags=${3:-}
	t="zlib [$tag]"
	if ! command -v "$cc" >/dev/null; then
		echo "not ok $t - $cc not found (command -v $cc failed)"
		return
	fi
	dir=$WORK/$tag
	rm -rf "$dir"
	cp -a "$SRC" "$dir"
	start=$(date +%s)
	log=$dir/build.log
	# CFLAGS unset: zlib's own (-O3).
	(cd "$dir" && if [ -n "$cflags" ]; then export CFLAGS="$cflags"; fi &&
		UKASAN_CC=$cc CC=$WRAP timeout 300 ./configure &&
		UKASAN_CC=$cc timeout 300 make -j"$JOBS") >"$log" 2>&1
	rc=$?
	bug=$(first_bug "$log")
	if [ $rc != 0 ]; then
		say "$t builds with ukasan-cc" 1 "configure or make exited $rc${bug:+ after '$bug'}: $(grep -m1 -iE 'error|abort' "$log") (log: $log)"
		for g in "binaries instrumented" "make test passes with no report" \
			"make test passes with no report (kasan_multi_shot)" \
			"make test passes with no report (kasan_multi_shot kfence.sample_rate=1)" \
			"reports an overflow through zlib's API"; do
			say "$t $g" 1 "not built"
		done
		return
	fi
	if [ -n "$bug" ]; then
		say "$t builds with ukasan-cc" 1 "report while building: '$bug' (log: $log)"
	else
		say "$t builds with ukasan-cc" 0
	fi

	why=$(check_instrumented "$dir")
	say "$t binaries instrumented" $? "$why"

	why=$(UKASAN_CC=$cc run_make_test "$dir" "${UKASAN_OPTIONS:-}" "$dir/test.log")
	say "$t make test passes with no report" $? "$why"
	why=$(UKASAN_CC=$cc run_make_test "$dir" "kasan_multi_shot" "$dir/test-multi-shot.log")
	say "$t make test passes with no report (kasan_multi_shot)" $? "$why"
	why=$(UKASAN_CC=$cc run_make_test "$dir" "kasan_multi_shot kfence.sample_rate=1" "$dir/test-kfence-all.log")
	say "$t make test passes with no report (kasan_multi_shot kfence.sample_rate=1)" $? "$why"

	why=$(check_canary "$dir" "$cc")
	say "$t reports an overflow through zlib's API" $? "$why"

	if [ "${UKASAN_ZLIB_INFCOVER:-1}" = 1 ]; then
		why=$(UKASAN_CC=$cc check_infcover "$dir")
		say "$t infcover: only its own ZLIB_VERSION - 1 bug is reported" $? "$why"
	fi
	note "$tag: $(($(date +%s) - start))s in $dir"
}

one_compiler gcc "${UKASAN_CC_GCC:-gcc}"
one_compiler clang "${UKASAN_CC_CLANG:-clang-16}"
# As distributions build it (dpkg-buildflags): the interposed __*_chk calls
# must not report on correct code either.
one_compiler gcc-fortify "${UKASAN_CC_GCC:-gcc}" "-O2 -g -D_FORTIFY_SOURCE=2"
one_compiler clang-fortify "${UKASAN_CC_CLANG:-clang-16}" "-O2 -g -D_FORTIFY_SOURCE=2"
exit 0
