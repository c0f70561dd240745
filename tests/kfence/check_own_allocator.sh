#!/bin/sh
# A program whose executable defines its own malloc (as Firefox's does)
# under the preload: the entry points it lacks (sized delete, new[],
# reallocarray), called from the program and from a library, reach
# libukasan.so and must come back to the program's allocator, never glibc's.
# Over mmap nothing can be guarded; over glibc's __libc_malloc, what the
# allocator passes on is sampled, and a use-after-free is reported.
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/own_allocator
S=$UKASAN_ROOT/tests/kfence
mkdir -p "$T"

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

lib=$T/libownlib.so
if ! g++ -g -O0 -fPIC -shared -o "$lib" "$S/_own_alloc_lib.cc"; then
	notok "build" "the library"
	exit 0
fi
run() { # exe args...: stdout to $T/out, stderr to $T/err, status in $rc
	UKASAN_OPTIONS=kfence.sample_rate=1 LD_PRELOAD=$B/lib/libukasan.so "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
one_line() { # name expected-line
	if [ "$(grep -c 'ukasan:' "$T/err")" = 1 ] && grep -qxF "$2" "$T/err"; then
		ok "$1: one line, which says why"
	else
		notok "$1: the start-up line" "$(head -3 "$T/err")"
	fi
}

for kind in mmap libc; do
	exe=$T/own-$kind
	flags=
	[ $kind = libc ] && flags=-DOVER_LIBC
	if ! g++ -g -O0 $flags -I"$UKASAN_ROOT/include" -o "$exe" "$S/_own_alloc_main.cc" "$lib" \
		-Wl,-rpath,"$T"; then
		notok "$kind: build" "the program"
		continue
	fi
	"$exe" >/dev/null 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		notok "$kind: runs without ukasan" "status $rc"
		continue
	fi
	run "$exe"
	if [ $rc = 0 ] && grep -q "exe ok" "$T/out" && grep -q "lib ok" "$T/out"; then
		ok "$kind: the program's and its library's calls come back to its allocator"
	else
		notok "$kind: clean run" "status $rc: $(cat "$T/out") $(head -5 "$T/err")"
	fi
	guarded=$(sed -n 's/.*guarded \([0-9]*\).*/\1/p' "$T/out")
	if [ $kind = mmap ]; then
		one_line $kind "ukasan: malloc comes from the executable $exe, which defines its own allocator: ukasan guards none of its objects"
		[ "$guarded" = 0 ] && ok "$kind: nothing guarded" || notok "$kind: nothing guarded" "guarded $guarded"
		continue
	fi
	one_line $kind "ukasan: malloc comes from the executable $exe, which defines its own allocator; ukasan samples what it passes on to __libc_malloc"
	[ -n "$guarded" ] && [ "$guarded" -gt 0 ] && ok "$kind: objects guarded ($guarded of 100)" ||
		notok "$kind: objects guarded" "guarded '$guarded'"
	run "$exe" uaf
	if grep -q "^BUG: KFENCE: use-after-free read in main+0x" "$T/err"; then
		ok "$kind: a use-after-free is reported"
	else
		notok "$kind: use-after-free" "status $rc: $(head -5 "$T/err")"
	fi
done
