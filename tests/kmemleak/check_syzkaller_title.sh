#!/bin/sh
# syzkaller's own parser (its pkg/report, built as ../shared/tools/
# syzkaller-titles, one "TITLE: ..." line per report on standard input) must
# take kmemleak's reports for the kernel's and title them "memory leak in
# FUNC", FUNC the function that allocated: a lost malloc, a lost strdup
# (syzkaller passes over strdup frames as over the kernel's kstrdup), and
# 100 objects from one stack (one report, so one title), with gcc and
# clang. (C++ frames are printed demangled with their parameter lists,
# "f()+0x..", which syzkaller's frame pattern does not take: its titles name
# the first C frame.) Skipped, with a line saying so, when the parser is not
# there (a user's clone has no ../shared).
B=${UKASAN_BUILD:-build}
ROOT=${UKASAN_ROOT:-$(pwd)}
T=${UKASAN_TEST_TMP:-/tmp}/syz_leak
SYZ=${UKASAN_SYZKALLER_TITLES:-$ROOT/../shared/tools/syzkaller-titles}
rm -rf "$T"
mkdir -p "$T"
unset LD_PRELOAD UKASAN_OPTIONS ASAN_OPTIONS LSAN_OPTIONS

if [ ! -x "$SYZ" ]; then
	echo "ok syzkaller titles kmemleak reports # skipped: syzkaller-titles not found (set UKASAN_SYZKALLER_TITLES)"
	exit 0
fi

# check NAME EXPECTED-TITLES (newline-separated) -- COMMAND...
check() {
	name=$1 want=$2
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	got=$("$SYZ" <"$T/err")
	if [ $rc != 1 ]; then
		echo "not ok $name - exit status $rc, not 1 (stderr: $T/err)"
	elif [ "$got" != "$want" ]; then
		echo "not ok $name - titles '$(echo "$got" | tr '\n' '|')', expected '$(echo "$want" | tr '\n' '|')' (stderr: $T/err)"
	else
		echo "ok $name"
	fi
}

for cc in gcc clang; do
	if [ $cc = gcc ]; then
		export UKASAN_CC=gcc
	else
		export UKASAN_CC=clang-16
	fi
	c="$T/leak_$cc"
	if ! "$B/bin/ukasan-cc" -g -O1 -I"$ROOT/tests/kmemleak" -o "$c" "$ROOT/tests/kmemleak/_syz_leak.c" 2>"$T/cc.log"; then
		echo "not ok syzkaller titles [$cc] - build failed: $(head -3 "$T/cc.log")"
		continue
	fi
	check "syzkaller titles a lost malloc [$cc]" "TITLE: memory leak in lose_object" -- "$c" object
	check "syzkaller titles a lost strdup [$cc]" "TITLE: memory leak in drop_name" -- "$c" string
	check "syzkaller titles 100 objects from one stack once [$cc]" "TITLE: memory leak in lose_many" -- "$c" many
done
