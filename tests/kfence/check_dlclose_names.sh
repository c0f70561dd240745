#!/bin/sh
# A library unloaded by dlclose and another loaded at its addresses: the
# second report names the second library and its function, not what was
# known of the first.
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/dlclose_names
S=$UKASAN_ROOT/tests/kfence
mkdir -p "$T"
name="dlclose: a report names the library loaded now"
if ! gcc -g -O1 -fPIC -shared -DNAME=a_touch -o "$T/liba.so" "$S/_dl_touch.c" ||
	! gcc -g -O1 -fPIC -shared -DNAME=b_touch -o "$T/libb.so" "$S/_dl_touch.c" ||
	! gcc -g -O1 -I"$UKASAN_ROOT/include" -I"$UKASAN_ROOT/tests" -o "$T/reload" "$S/_dl_reload.c"; then
	echo "not ok $name - build failed"
	exit 0
fi
UKASAN_OPTIONS=kfence.sample_rate=1 LD_PRELOAD=$B/lib/libukasan.so "$T/reload" "$T/liba.so" "$T/libb.so" \
	>"$T/out" 2>"$T/err"
if ! grep -q 'same address: yes' "$T/out"; then
	echo "not ok $name - libb.so was not loaded where liba.so was: $(cat "$T/out")"
elif grep -q '^BUG: KFENCE: use-after-free read in a_touch+0x' "$T/err" &&
	grep -q '^BUG: KFENCE: use-after-free read in b_touch+0x' "$T/err" &&
	grep -qE '^ \[<[0-9a-f]+>\] b_touch\+0x[0-9a-f]+/0x[0-9a-f]+ .*_dl_touch\.c:[0-9]+ \[libb\.so\]$' "$T/err"; then
	echo "ok $name"
else
	echo "not ok $name - $(grep -E '^(BUG| [ab]_touch)' "$T/err" | tr '\n' '|')"
fi
