#!/bin/sh
# tests/generic/fortify_oob.c is only a test of the fortified interceptors if
# its build calls them: each compiler, at -O2 -D_FORTIFY_SOURCE=2 (and =3),
# must call the __*_chk entry points listed for it (clang turns some of the
# others back into plain calls, which their plain interceptors check).
R=$UKASAN_ROOT
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/fortify
mkdir -p "$T"
common="__memcpy_chk __memmove_chk __memset_chk __strcpy_chk __stpcpy_chk __strncpy_chk
	__strcat_chk __strncat_chk __wmemcpy_chk __wmemmove_chk __fread_chk __snprintf_chk
	__sprintf_chk __vsnprintf_chk __vsprintf_chk"
gcc_only="__wmemset_chk __wcscpy_chk __wcscat_chk __wcsncpy_chk __wcsncat_chk __read_chk __pread_chk __recv_chk
	__recvfrom_chk __fgets_chk"
for level in 2 3; do
	for cc in gcc clang-16; do
		name="$cc _FORTIFY_SOURCE=$level"
		bin="$T/fortify_$cc$level"
		want=$common
		[ $cc = gcc ] && want="$common $gcc_only"
		UKASAN_CC=$cc "$B/bin/ukasan-cc" -g -O2 -D_FORTIFY_SOURCE=$level -I"$R/tests" \
			-I"$R/include" -o "$bin" "$R/tests/generic/fortify_oob.c" 2>"$bin.cc" ||
			{ echo "not ok $name - build: $(head -c 300 "$bin.cc")"; continue; }
		objdump -d "$bin" >"$bin.dis"
		missing=
		for f in $want; do
			grep -q "call.*<$f>" "$bin.dis" || missing="$missing $f"
		done
		if [ -n "$missing" ]; then
			echo "not ok $name - fortify_oob.c does not call:$missing"
		else
			echo "ok $name: fortify_oob.c calls the fortified entry points"
		fi
	done
done
