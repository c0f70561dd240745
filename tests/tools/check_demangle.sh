#!/bin/sh
# The in-process demangler (src/symbolize/demangle.c) against c++filt on every
# mangled symbol of real C++ code: libstdc++'s exports, a C++ program built
# here with templates, lambdas and operators, and a sample of libLLVM's (when
# installed). Where it answers it must print exactly what c++filt prints;
# it must answer for at least 98% of them (the rest, expressions and
# decltype mostly, go to c++filt); and names cut, altered and spliced at
# random must not crash it (built with ASan and UBSan here).
ROOT=${UKASAN_ROOT:-$(pwd)}
T=${UKASAN_TEST_TMP:-/tmp}/demangle
rm -rf "$T"
mkdir -p "$T"
unset LD_PRELOAD UKASAN_OPTIONS

if ! command -v c++filt >/dev/null; then
	echo "ok demangle # skipped: no c++filt"
	exit 0
fi
if ! gcc -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -I"$ROOT/src/symbolize" \
	-o "$T/dm" "$ROOT/tests/tools/_demangle.c" "$ROOT/src/symbolize/demangle.c" \
	"$ROOT/src/symbolize/demangle_print.c" "$ROOT/src/symbolize/demangle_type.c" 2>"$T/cc.log"; then
	echo "not ok demangle: build - $(head -3 "$T/cc.log")"
	exit 0
fi
g++ -std=c++17 -O0 -o "$T/names" "$ROOT/tests/tools/_demangle_names.cc" 2>"$T/cc.log" ||
	echo "not ok demangle: C++ program build - $(head -3 "$T/cc.log")"

syms() { nm "$@" 2>/dev/null | awk '{print $NF}' | sed 's/@.*//' | grep '^_Z' | sort -u; }
syms -D --defined-only /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /usr/lib/aarch64-linux-gnu/libstdc++.so.6 >"$T/stdcxx"
syms "$T/names" >"$T/prog"
llvm=$(ls /usr/lib/x86_64-linux-gnu/libLLVM-1*.so.1 /usr/lib/aarch64-linux-gnu/libLLVM-1*.so.1 2>/dev/null | tail -1)
if [ -n "$llvm" ]; then syms -D --defined-only "$llvm" | awk 'NR % 4 == 0' >"$T/llvm"; else : >"$T/llvm"; fi

# compare NAME FILE MIN-PERCENT
compare() {
	n=$(wc -l <"$2")
	if [ "$n" = 0 ]; then
		echo "ok demangle $1 # skipped: no symbols"
		return
	fi
	if ! "$T/dm" <"$2" >"$2.ours" 2>"$2.err"; then
		echo "not ok demangle $1 - crashed: $(head -3 "$2.err")"
		return
	fi
	c++filt <"$2" >"$2.ref"
	paste -d '\t' "$2" "$2.ours" "$2.ref" | awk -F '\t' -v name="$1" -v min="$3" '
		substr($2, 1, 1) == "?" { gave_up++; next }
		$2 != $3 { if (!bad++) first = $1 " -> " $2 " (c++filt: " $3 ")"; next }
		{ ok++ }
		END {
			total = ok + bad + gave_up
			rate = 100 * (ok + bad) / total
			if (bad)
				printf "not ok demangle %s - %d of %d differ from c++filt, first: %s\n", name, bad, total, first
			else if (rate < min)
				printf "not ok demangle %s - answered %.1f%% of %d, under %d%%\n", name, rate, total, min
			else
				printf "ok demangle %s: %d of %d answered (%.1f%%), all as c++filt\n", name, ok, total, rate
		}'
}
compare "libstdc++ exports" "$T/stdcxx" 98
compare "a C++ program's symbols" "$T/prog" 95
compare "libLLVM exports (1 in 4)" "$T/llvm" 98

# Names damaged at random (seeded): no crash, no sanitizer report.
cat "$T/stdcxx" "$T/prog" "$T/llvm" | python3 -c '
import random, sys
random.seed(23)
names = [l.strip() for l in sys.stdin if l.strip()]
alpha = "_0123456789ABCDEFIJKLMNOPRSTUVXYZabcdefghijlmnorstuvwxyz."
for _ in range(20000):
    s = random.choice(names)
    j = random.randrange(2, len(s))
    k = random.randrange(4)
    if k == 0: s = s[:j]
    elif k == 1: s = s[:j] + random.choice(alpha) + s[j + 1:]
    elif k == 2: s = s[:j] + s[j + 1:]
    else: s = s[:j] + "".join(random.choice(alpha) for _ in range(random.randrange(1, 9))) + s[j:]
    print(s)
print("_Z" + "P" * 5000 + "i")
print("_Z1f" + "N1a" * 3000 + "E")
print("_Z1fI" + "S_" * 3000 + "E")
' >"$T/damaged"
if "$T/dm" <"$T/damaged" >"$T/damaged.ours" 2>"$T/damaged.err"; then
	echo "ok demangle: $(wc -l <"$T/damaged") damaged names, no crash"
else
	echo "not ok demangle: damaged names - $(head -5 "$T/damaged.err")"
fi

# End to end: a C++ report's frames are demangled with no c++filt started
# (by default), and by c++filt alone with ukasan.symbolizer=external.
B=${UKASAN_BUILD:-build}
if ! command -v strace >/dev/null; then
	echo "ok demangle: report without c++filt # skipped: no strace"
	exit 0
fi
if ! "$B/bin/ukasan-c++" -g -O0 -o "$T/report" "$ROOT/tests/tools/_demangle_report.cc" 2>"$T/cc.log"; then
	echo "not ok demangle: report program build - $(head -3 "$T/cc.log")"
	exit 0
fi
# The title names the function without its parameter list, which
# syzkaller's parser takes for the kernel's function name.
SYZ=${UKASAN_SYZKALLER_TITLES:-$ROOT/../shared/tools/syzkaller-titles}
UKASAN_OPTIONS="kasan.fault=panic kmemleak=0" "$T/report" >/dev/null 2>"$T/err.title"
if ! grep -q '^BUG: KASAN: slab-out-of-bounds in ns::K::get+0x[0-9a-f]*/0x[0-9a-f]*$' "$T/err.title"; then
	echo "not ok demangle: C++ title without parameters - $(grep -m1 '^BUG' "$T/err.title")"
elif [ ! -x "$SYZ" ]; then
	echo "ok demangle: C++ title without parameters # syzkaller-titles not found"
elif [ "$("$SYZ" <"$T/err.title")" = "TITLE: KASAN: slab-out-of-bounds in ns::K::get" ]; then
	echo "ok demangle: C++ title without parameters, as syzkaller titles it"
else
	echo "not ok demangle: C++ title - syzkaller: $("$SYZ" <"$T/err.title")"
fi
for mode in auto external; do
	UKASAN_OPTIONS="kasan.fault=panic ukasan.symbolizer=$mode" \
		strace -f -qq -e trace=execve -o "$T/trace.$mode" "$T/report" >/dev/null 2>"$T/err.$mode"
	started=$(grep -c 'c++filt' "$T/trace.$mode")
	if ! grep -q '^ \(\[<[0-9a-f]*>\] \)\?ns::K::get(char\*, int)+0x[0-9a-f]*/0x[0-9a-f]* ' "$T/err.$mode" ||
		! grep -q '^ \(\[<[0-9a-f]*>\] \)\?main::{lambda(int)#1}::operator()(int) const+0x' "$T/err.$mode"; then
		echo "not ok demangle: report's C++ frames [$mode] - not demangled (stderr: $T/err.$mode)"
	elif [ $mode = auto ] && [ "$started" != 0 ]; then
		echo "not ok demangle: report's C++ frames [$mode] - c++filt started $started times"
	elif [ $mode = external ] && [ "$started" = 0 ]; then
		echo "not ok demangle: report's C++ frames [$mode] - c++filt not started"
	else
		echo "ok demangle: report's C++ frames [$mode], c++filt started $started times"
	fi
done
