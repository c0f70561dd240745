#!/bin/sh
# The fast DWARF unwinder (src/stack/unwind.c) against libgcc's
# _Unwind_Backtrace: the same return addresses on stacks of many shapes
# (gcc and clang, with and without frame pointers, -O0, alloca, realigned
# frames, C++ exception tables, signal frames, threads, fork), also with a
# tiny cache under 8 threads; then ns per frame of both.
R=$UKASAN_ROOT
D=$R/tests/unwind
T=$UKASAN_TEST_TMP/unwind
mkdir -p "$T"

notok() { echo "not ok $1 - $2"; }

# The runtime's own flags, so the unwinder is tested as the library builds it.
CFLAGS_RT=$(make -s -C "$R" --no-print-directory --eval 'print-cflags-rt: ; @echo $(CFLAGS_RT)' print-cflags-rt)
[ -n "$CFLAGS_RT" ] || { notok "build" "cannot read CFLAGS_RT from the Makefile"; exit 0; }
CLANG=$(command -v clang-16)

# $1: tag, $2: compiler for the runtime objects, $3..: its flags.
build() {
	tag=$1 cc=$2
	shift 2
	o=$T/$tag
	mkdir -p "$o"
	for f in stack/unwind stack/cfi stack/eh_frame stack/eh_check stack/stack platform/os platform/clock platform/fd platform/proc platform/sys platform/dynlink platform/thread_stack platform/mem; do
		$cc "$@" -Werror -c "$R/src/$f.c" -o "$o/$(basename $f).o" 2>"$o/err" ||
			{ notok "$tag: build" "$f.c: $(head -c 2000 "$o/err")"; return 1; }
	done
	gcc -O2 -fomit-frame-pointer -DP=nofp_ -c "$D/_frames.c" -o "$o/nofp.o" &&
	gcc -O2 -fno-omit-frame-pointer -DP=fp_ -c "$D/_frames.c" -o "$o/fp.o" &&
	$CLANG -O2 -DP=clang_ -c "$D/_frames.c" -o "$o/clang.o" &&
	gcc -O0 -c "$D/_o0.c" -o "$o/o0.o" &&
	g++ -O2 -fomit-frame-pointer -c "$D/_cxx.cc" -o "$o/cxx.o" &&
	gcc -O2 -g -Wall -Wextra -c "$D/_main.c" -o "$o/main.o" &&
	g++ -o "$o/unwind_test" "$o"/*.o -ldl -lpthread -lgcc_s 2>"$o/err" ||
		{ notok "$tag: build" "$(head -c 2000 "$o/err")"; return 1; }
}

if [ -z "$CLANG" ]; then
	notok "build" "clang-16 is missing (make deps)"
	exit 0
fi

# $1: tag, then the arguments. A hang or crash is a failure, not a stuck run.
run() {
	tag=$1
	timeout -s KILL 300 "$T/$tag/unwind_test" "$@"
	st=$?
	[ $st -eq 0 ] || notok "$tag: run" "unwind_test exited with status $st"
}

# As the library builds it (gcc, frame pointers on): every check and timing.
build gcc gcc $CFLAGS_RT && run gcc all
# Our own frame must be found by its CFI, not by assuming a frame pointer.
build clang-nofp "$CLANG" -std=gnu11 -O2 -fPIC -fomit-frame-pointer -Wall -Wextra &&
	run clang-nofp checks
# A 4-slot cache: every lookup evicts, readers race writers in 8 threads.
build tiny-cache gcc $CFLAGS_RT -DUNWIND_CACHE_ORDER=2 && run tiny-cache stress
exit 0
