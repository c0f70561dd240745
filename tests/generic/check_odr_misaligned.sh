#!/bin/sh
# LLVM's Linux/odr_c_test.c: built without private aliases
# (-asan-use-private-alias=0), one library's instrumented `int ZZZ` has its
# descriptor bound to another library's C common symbol `char ZZZ[100]`
# (-fcommon: no redzone, not instrumented), which the linker chose, at an
# address that is not 8-aligned. As ASan, ukasan takes the misaligned
# descriptor for an ODR violation (odr-violation, exit status 1), and
# marks nothing there (the redzone would be the other library's data).
# With private aliases the descriptor names the library's own copy: clean.
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/odr_misaligned
mkdir -p "$T"
cc=${UKASAN_CC_CLANG:-clang-16}
if ! command -v "$cc" >/dev/null; then
	echo "not ok odr misaligned - $cc not found"
	exit 0
fi
cat >"$T/odr.c" <<'END'
#if defined(FILE1)
__attribute__((aligned(8))) int x;
__attribute__((aligned(1))) char y;
/* Puts ZZZ at an odd address of the common area. */
__attribute__((aligned(1))) char Displace[105];
__attribute__((aligned(1))) char ZZZ[100];
#elif defined(FILE2)
int ZZZ = 1;
#else
extern int ZZZ;
int main(void)
{
	return ZZZ;
}
#endif
END
for alias in 0 1; do
	t="odr misaligned [clang, -asan-use-private-alias=$alias]"
	if ! UKASAN_CC=$cc "$B/bin/ukasan-cc" -fcommon -fPIC -shared -mllvm \
		-asan-use-private-alias=$alias -DFILE1 -o "$T/lib1_$alias.so" "$T/odr.c" \
		>"$T/build.log" 2>&1 ||
		! UKASAN_CC=$cc "$B/bin/ukasan-cc" -fcommon -fPIC -shared -mllvm \
			-asan-use-private-alias=$alias -DFILE2 -o "$T/lib2_$alias.so" "$T/odr.c" \
			>>"$T/build.log" 2>&1 ||
		! UKASAN_CC=$cc "$B/bin/ukasan-cc" -fcommon -fPIE -o "$T/main$alias" "$T/odr.c" \
			"$T/lib1_$alias.so" "$T/lib2_$alias.so" -Wl,-rpath,"$T" >>"$T/build.log" 2>&1; then
		echo "not ok $t - build failed: $(head -3 "$T/build.log")"
		continue
	fi
	UKASAN_OPTIONS=kfence.sample_interval=0 "$T/main$alias" >"$T/out" 2>"$T/err"
	st=$?
	if [ $alias = 0 ]; then
		if grep -q "^BUG: KASAN: odr-violation in ZZZ$" "$T/err" &&
			grep -qE "^Global 'ZZZ' at addr [0-9a-f]+ is not aligned to 8 bytes" "$T/err" &&
			grep -qE "^ \[1\] size=4 'ZZZ' .*lib2_0.so$" "$T/err" && [ $st = 1 ]; then
			echo "ok $t: odr-violation of the misaligned descriptor, status 1"
		else
			echo "not ok $t - status $st: $(head -5 "$T/err")"
		fi
	elif [ -s "$T/err" ] || [ $st != 0 ]; then
		# main returns ZZZ: the first bytes of the common array, zero
		echo "not ok $t - status $st: $(head -5 "$T/err")"
	else
		echo "ok $t: clean"
	fi
done
