#!/bin/sh
# eh_check.c decides whether libgcc may read an FDE; the unwinders end the
# stack at one it refuses. Every FDE of real code must pass: the C and C++
# runtimes, libgcc's own, and libLLVM's (100 000 FDEs, clang's output) when
# installed. One test per object.
ROOT=${UKASAN_ROOT:-$(pwd)}
T=${UKASAN_TEST_TMP:-/tmp}/eh_check
rm -rf "$T"
mkdir -p "$T"
unset LD_PRELOAD UKASAN_OPTIONS
if ! gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -o "$T/fde_all" \
	"$ROOT/tests/unwind/_fde_all.c" "$ROOT/src/stack/eh_check.c" "$ROOT/src/stack/eh_frame.c" \
	-ldl 2>"$T/cc.log"; then
	echo "not ok eh_check: build - $(head -c 400 "$T/cc.log")"
	exit 0
fi
llvm=$(ls /usr/lib/x86_64-linux-gnu/libLLVM-1*.so.1 /usr/lib/aarch64-linux-gnu/libLLVM-1*.so.1 2>/dev/null | tail -1)
"$T/fde_all" libstdc++.so.6 libm.so.6 libgcc_s.so.1 $llvm >"$T/out" 2>&1
st=$?
if [ $st -ne 0 ] || ! grep -q 'libc.so.6: ' "$T/out"; then
	echo "not ok eh_check: run - status $st: $(head -c 400 "$T/out")"
	exit 0
fi
grep ': [0-9]* FDEs, ' "$T/out" | while IFS= read -r line; do
	name=${line%%: *}
	case "$line" in
	*", 0 refused") echo "ok eh_check: every FDE of $(basename "$name") accepted (${line#*: })" ;;
	*) echo "not ok eh_check: $(basename "$name") - $line $(grep -A3 -F "$name" "$T/out" | grep 'bad fde' | head -2 | tr '\n' ' ')" ;;
	esac
done
