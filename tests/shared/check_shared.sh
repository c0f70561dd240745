#!/bin/sh
# A shared library and the program using it, both built with ukasan-cc (gcc
# and clang-16): the library's bad accesses are reported, the program goes
# on with every register as it was (the library reaches the report
# functions through its PLT), and both objects are bound at load time.
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/shared
S=$UKASAN_ROOT/tests/shared
mkdir -p "$T"

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

for cc in gcc clang-16; do
	command -v $cc >/dev/null || { notok "$cc" "not installed"; continue; }
	lib=$T/libsums-$cc.so exe=$T/main-$cc
	inc=-I$UKASAN_ROOT/tests
	if ! UKASAN_CC=$cc "$B/bin/ukasan-cc" -g -O2 $inc -fPIC -shared -o "$lib" "$S/_lib.c" ||
		! UKASAN_CC=$cc "$B/bin/ukasan-cc" -g -O2 $inc -o "$exe" "$S/_main.c" "$lib" -Wl,-rpath,"$T"; then
		notok "$cc: build" "ukasan-cc failed"
		continue
	fi
	out=$(UKASAN_OPTIONS=kfence.sample_interval=0 "$exe" 2>"$T/err-$cc")
	if grep -q "^BUG: KASAN: slab-out-of-bounds in lib_sums+0x" "$T/err-$cc" &&
		grep -qE "^ \[<[0-9a-f]+>\] lib_sums\+0x[0-9a-f]+/0x[0-9a-f]+ .*_lib.c:[0-9]+ \[libsums-$cc.so\]$" "$T/err-$cc"; then
		ok "$cc: a bad access in the library is reported, in the library's frame"
	else
		notok "$cc: report from the library" "$(head -5 "$T/err-$cc")"
	fi
	# The library reaches libukasan.so's report entry, whose assembly frame
	# the unwinder must step by its CFI, not as a C frame (the stack ended
	# there, in the library's frame).
	if grep -qE "^ \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ .*_main.c:[0-9]+$" "$T/err-$cc"; then
		ok "$cc: the report's stack goes on from the library to main"
	else
		notok "$cc: the report's stack to main" "$(sed -n '/Call Trace/,/TASK>$/p' "$T/err-$cc" | head -8)"
	fi
	[ "$out" = "same sums" ] && ok "$cc: registers kept across the library's report calls" ||
		notok "$cc: registers across report calls" "$out"
	for o in "$lib" "$exe"; do
		readelf -d "$o" | grep -q "BIND_NOW" && ok "$cc: $(basename "$o") bound at load time" ||
			notok "$cc: $(basename "$o") BIND_NOW" "no BIND_NOW flag"
	done
done
