#!/bin/sh
# ukasan-cc as a drop-in for AddressSanitizer's users (issue 21): it takes
# ASan's flags as projects and build systems spell them (-fsanitize=address
# alone or in a list, the recover pair, -fno-sanitize=address,
# -shared-libasan, libFuzzer's), has --help and --version of its own, answers
# -v and -dumpversion as the compiler does, builds
# -x LANG inputs of any name, and adds no warning of its own at any compile
# or link step, so that -Werror builds work.
R=$UKASAN_ROOT
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/asan_flags
mkdir -p "$T"
CC=$B/bin/ukasan-cc
SRC=$R/tests/tools/_asan_flags.c
# KFENCE off: its first sample could take the object, and the report be
# KFENCE's.
export UKASAN_OPTIONS=kfence.sample_interval=0
unset UKASAN_RECOVER UKASAN_INSTRUMENT UKASAN_MODE

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

compilers=gcc
if command -v clang-16 >/dev/null; then
	compilers="gcc clang-16"
else
	notok "ukasan-cc ASan flags with clang-16" "clang-16 not installed"
fi

# build EXE COMPILER ARGS...: ukasan-cc ARGS -o $T/EXE, its standard error in
# $T/EXE.err (both streams: nothing else is written). Fails as the build does.
build() {
	exe=$1 c=$2
	shift 2
	UKASAN_CC=$c "$CC" "$@" -o "$T/$exe" >"$T/$exe.err" 2>&1
}
# run EXE ARGS...: out is the program's output, both streams; st its status.
run() {
	exe=$1
	shift
	out=$("$T/$exe" "$@" 2>&1)
	st=$?
}
report="BUG: KASAN: slab-out-of-bounds in main"

for c in $compilers; do
	# The flag a CMake or Meson project adds itself: GCC refused it beside
	# kernel-address, and clang's driver linked its own ASan runtime.
	name="-fsanitize=address builds and reports ($c)"
	if ! build addr_$c $c -g -O1 -fsanitize=address "$SRC"; then
		notok "$name" "build: $(head -c 300 "$T/addr_$c.err")"
	else
		run addr_$c
		case "$out" in *"$report"*"after first"*) ok "$name" ;;
		*) notok "$name" "status $st: $out" ;; esac
	fi

	# In a list, the other sanitizers stay.
	name="-fsanitize=address,undefined keeps UBSan ($c)"
	if ! build ub_$c $c -g -O1 -fsanitize=address,undefined "$SRC"; then
		notok "$name" "build: $(head -c 300 "$T/ub_$c.err")"
	else
		run ub_$c ub
		case "$out" in *"runtime error: signed integer overflow"*"$report"*) ok "$name" ;;
		*) notok "$name" "status $st: $out" ;; esac
	fi

	# -fno-sanitize-recover=address: the program ends at the first report,
	# as UKASAN_RECOVER=0 makes it (SIGABRT).
	name="-fno-sanitize-recover=address ends the program at the first report ($c)"
	if ! build norec_$c $c -g -O1 -fsanitize=address -fno-sanitize-recover=address "$SRC" ||
		! UKASAN_RECOVER=0 build envrec_$c $c -g -O1 "$SRC"; then
		notok "$name" "build: $(head -c 300 "$T/norec_$c.err" "$T/envrec_$c.err")"
	else
		run envrec_$c
		want=$st
		run norec_$c
		case "$st:$out" in
		0:*|*"after first"*) notok "$name" "status $st: $out" ;;
		"$want:"*"$report"*) ok "$name" ;;
		*) notok "$name" "status $st, $want with UKASAN_RECOVER=0: $out" ;;
		esac
	fi

	# The last of the recover pair wins, over UKASAN_RECOVER too.
	name="-fsanitize-recover=address after -fno-sanitize-recover=address, UKASAN_RECOVER=0 ($c)"
	if ! UKASAN_RECOVER=0 build rec_$c $c -g -O1 -fno-sanitize-recover=address \
		-fsanitize-recover=address "$SRC"; then
		notok "$name" "build: $(head -c 300 "$T/rec_$c.err")"
	else
		run rec_$c
		case "$st:$out" in 1:*"$report"*"after first"*"after second"*) ok "$name" ;; # ran on, then exit status 1
		*) notok "$name" "status $st: $out" ;; esac
	fi

	# -fno-sanitize=address: nothing of ours at compile time; the last of
	# the pair wins.
	name="-fno-sanitize=address after -fsanitize=address: not instrumented ($c)"
	if ! build noaddr_$c $c -g -O1 -fsanitize=address -fno-sanitize=address "$SRC"; then
		notok "$name" "build: $(head -c 300 "$T/noaddr_$c.err")"
	else
		run noaddr_$c
		case "$st:$out" in *BUG:*) notok "$name" "reported: $out" ;;
		0:*"after second"*) ok "$name" ;;
		*) notok "$name" "status $st: $out" ;; esac
	fi
	name="-fsanitize=address after -fno-sanitize=address: instrumented ($c)"
	if ! build readdr_$c $c -g -O1 -fno-sanitize=address -fsanitize=address "$SRC"; then
		notok "$name" "build: $(head -c 300 "$T/readdr_$c.err")"
	else
		run readdr_$c
		case "$out" in *"$report"*) ok "$name" ;;
		*) notok "$name" "status $st: $out" ;; esac
	fi

	# The runtime is always libukasan.so: ASan's choice of runtime is
	# accepted and dropped (clang linked its ASan runtime for it).
	name="-shared-libasan, -static-libasan accepted ($c)"
	if ! build libasan_$c $c -g -O1 -fsanitize=address -shared-libasan -static-libasan "$SRC"; then
		notok "$name" "build: $(head -c 300 "$T/libasan_$c.err")"
	else
		run libasan_$c
		case "$out" in *"$report"*) ok "$name" ;;
		*) notok "$name" "status $st: $out" ;; esac
	fi

	# -x c: the runtime's marker and archive, after the user's files, were
	# compiled as C too.
	name="-x c on a .txt source builds and runs ($c)"
	cp "$SRC" "$T/prog.txt"
	if ! build xc_$c $c -g -O1 -x c "$T/prog.txt"; then
		notok "$name" "build: $(head -c 300 "$T/xc_$c.err")"
	else
		run xc_$c
		case "$out" in *"$report"*) ok "$name" ;;
		*) notok "$name" "status $st: $out" ;; esac
	fi

	# -Werror: nothing on standard error at any step (clang's link steps
	# called each of ukasan's -mllvm flags unused, assembling a .s all of
	# its compile flags), in each instrumentation ukasan-cc builds.
	name="-Werror: no warnings at compile, link, compile-and-link, assemble ($c)"
	printf '\t.globl asm_f\nasm_f:\n\tret\n\t.section .note.GNU-stack,"",@progbits\n' >"$T/asm.s"
	cp "$T/asm.s" "$T/asm.txt"
	bad=
	for env in UKASAN_RECOVER=1 UKASAN_RECOVER=0 UKASAN_INSTRUMENT=outline; do
		W="-Wall -Wextra -Werror"
		env $env UKASAN_CC=$c "$CC" $W -g -O1 -fsanitize=address -o "$T/w1_$c" "$SRC" >"$T/w.err" 2>&1 &&
			env $env UKASAN_CC=$c "$CC" $W -g -O1 -c -o "$T/w2_$c.o" "$SRC" >>"$T/w.err" 2>&1 &&
			env $env UKASAN_CC=$c "$CC" $W -o "$T/w2_$c" "$T/w2_$c.o" >>"$T/w.err" 2>&1 &&
			env $env UKASAN_CC=$c "$CC" $W -c -o "$T/w3_$c.o" "$T/asm.s" >>"$T/w.err" 2>&1 &&
			env $env UKASAN_CC=$c "$CC" $W -c -x assembler -o "$T/w4_$c.o" "$T/asm.txt" >>"$T/w.err" 2>&1 ||
			echo "(failed)" >>"$T/w.err"
		[ -s "$T/w.err" ] && bad="$bad $env: $(head -c 300 "$T/w.err")"
	done
	[ -z "$bad" ] && ok "$name" || notok "$name" "$bad"

	# --version: the compiler's own output first, as tools parse it (Go's
	# -asan wants it to start with "gcc" or hold "clang version N.M";
	# Meson takes the first dotted number), then ukasan's line.
	name="--version: the compiler's, then ukasan's line ($c)"
	v=$(UKASAN_CC=$c "$CC" --version 2>&1)
	st=$?
	first=$(echo "$v" | head -1)
	last=$(echo "$v" | tail -1)
	case "$c" in gcc) want="gcc (*" ;; *) want="*clang version [0-9]*.[0-9]*" ;; esac
	case "$st:$last" in
	0:"ukasan-cc (ukasan "*)
		if echo "$last" | grep -q '[0-9]\.[0-9]'; then
			notok "$name" "a dotted number in '$last'"
		else
			case "$first" in $want) ok "$name" ;;
			*) notok "$name" "first line '$first', not '$want'" ;; esac
		fi ;;
	*) notok "$name" "status $st: $v" ;;
	esac

	# Nothing to compile or link: the compiler answers, as it would alone
	# (Go reads "gcc version N.M" from `CC -v`).
	name="-v and -dumpversion with no input: the compiler's answer ($c)"
	v=$(UKASAN_CC=$c "$CC" -v 2>&1)
	st=$?
	d=$(UKASAN_CC=$c "$CC" -dumpversion 2>&1)
	st2=$?
	case "$st:$st2:$d:$v" in
	0:0:[0-9]*:*"$c version "[0-9]*|0:0:[0-9]*:*"clang version "[0-9]*) ok "$name" ;;
	*) notok "$name" "status $st/$st2: $d / $(echo "$v" | tail -3)" ;;
	esac
done

# --help: ukasan-cc's own text, without running the compiler (there is
# none here).
name="--help prints ukasan-cc's usage, exits 0, runs no compiler"
h=$(UKASAN_CC=/nonexistent/cc "$CC" --help 2>&1)
st=$?
case "$st:$h" in 0:*ukasan-cc*UKASAN_MODE*UKASAN_CC*UKASAN_RECOVER*-fsanitize=address*) ok "$name" ;;
*) notok "$name" "status $st: $(echo "$h" | head -5)" ;; esac

# libFuzzer (clang): its coverage beside ukasan's checks, in one step and in
# two, with no warning; a report ends the run (no recovery by default with
# a fuzzer), clean inputs pass, and fuzzing finds the overflow.
if command -v clang-16 >/dev/null; then
	FZ=$R/tests/tools/_asan_fuzz.c
	printf FUZ >"$T/crash_input"
	printf abc >"$T/clean_input"
	name="-fsanitize=fuzzer,address builds with no warning and reports (clang-16)"
	if ! build fuzz clang-16 -Werror -g -O1 -fsanitize=fuzzer,address "$FZ" || [ -s "$T/fuzz.err" ]; then
		notok "$name" "build: $(head -c 300 "$T/fuzz.err")"
	else
		run fuzz "$T/clean_input"
		cst=$st
		run fuzz "$T/crash_input"
		case "$cst:$st:$out" in
		0:0:*) notok "$name" "status 0 after: $out" ;;
		0:*"BUG: KASAN: slab-out-of-bounds in LLVMFuzzerTestOneInput"*) ok "$name" ;;
		*) notok "$name" "clean input status $cst, crash input status $st: $out" ;;
		esac
		name="libFuzzer finds the overflow (clang-16)"
		rm -rf "$T/corpus"
		mkdir "$T/corpus"
		out=$(cd "$T" && timeout 100 ./fuzz -seed=1 -runs=2000000 corpus 2>&1)
		case "$out" in *"BUG: KASAN: slab-out-of-bounds in LLVMFuzzerTestOneInput"*) ok "$name" ;;
		*) notok "$name" "$(echo "$out" | tail -5)" ;; esac
	fi
	name="-fsanitize=fuzzer-no-link compile, -fsanitize=fuzzer link (clang-16)"
	if ! UKASAN_CC=clang-16 "$CC" -Werror -g -O1 -c -fsanitize=fuzzer-no-link -o "$T/fuzz2.o" "$FZ" \
		>"$T/fuzz2.err" 2>&1 || [ -s "$T/fuzz2.err" ] ||
		! build fuzz2 clang-16 -Werror -fsanitize=fuzzer "$T/fuzz2.o" || [ -s "$T/fuzz2.err" ]; then
		notok "$name" "build: $(head -c 300 "$T/fuzz2.err")"
	else
		run fuzz2 "$T/crash_input"
		case "$st:$out" in
		0:*) notok "$name" "status 0: $out" ;;
		*"BUG: KASAN: slab-out-of-bounds in LLVMFuzzerTestOneInput"*) ok "$name" ;;
		*) notok "$name" "status $st: $out" ;;
		esac
	fi
fi

# Pointer pairs (-fsanitize=pointer-compare,pointer-subtract beside address,
# in one list or two): GCC's flags as they are, clang's driver's refusal
# ("only allowed with -fsanitize=address") avoided by its back end's
# options; with detect_invalid_pointer_pairs=1 two heap objects compared
# are reported, and -fno-sanitize=pointer-compare takes it back.
cat >"$T/_pairs.c" <<'PAIRS'
#include <stdlib.h>
int main(void)
{
	char *volatile a = malloc(8), *volatile b = malloc(8);
	volatile int lt = a < b;
	free(a);
	free(b);
	return lt & 0;
}
PAIRS
for c in $compilers; do
	for flags in "-fsanitize=address,pointer-compare,pointer-subtract" \
		"-fsanitize=address -fsanitize=pointer-compare"; do
		name="$flags builds with no warning and reports invalid-pointer-pair ($c)"
		# shellcheck disable=SC2086
		if ! build pairs_$c $c -Werror -g -O1 $flags "$T/_pairs.c" || [ -s "$T/pairs_$c.err" ]; then
			notok "$name" "build: $(head -c 300 "$T/pairs_$c.err")"
			continue
		fi
		out=$(ASAN_OPTIONS=detect_invalid_pointer_pairs=1 "$T/pairs_$c" 2>&1)
		st=$?
		case "$st:$out" in
		1:*"BUG: KASAN: invalid-pointer-pair in main"*) ok "$name" ;;
		*) notok "$name" "status $st: $out" ;;
		esac
	done
	name="-fno-sanitize=pointer-compare after it drops the check ($c)"
	if ! build pairs_no_$c $c -Werror -g -O1 -fsanitize=address,pointer-compare \
		-fno-sanitize=pointer-compare "$T/_pairs.c" || [ -s "$T/pairs_no_$c.err" ]; then
		notok "$name" "build: $(head -c 300 "$T/pairs_no_$c.err")"
	else
		out=$(ASAN_OPTIONS=detect_invalid_pointer_pairs=1 "$T/pairs_no_$c" 2>&1)
		st=$?
		case "$st:$out" in
		0:) ok "$name" ;;
		*) notok "$name" "status $st: $out" ;;
		esac
	fi
done
