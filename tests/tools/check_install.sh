#!/bin/sh
# make install: the installed tree works on its own. It is installed from a
# copy of the sources (built afresh there), and the copy is deleted before
# the installed tools are used, so nothing can lean on a source or build
# tree unnoticed; the real tree's build/ stays (other checks run beside this
# one), so the installed files must not name it either.
T=$UKASAN_TEST_TMP/install
rm -rf "$T"
mkdir -p "$T/src"
unset LD_PRELOAD UKASAN_OPTIONS UKASAN_CC UKASAN_CXX UKASAN_INSTRUMENT UKASAN_RECOVER

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

# DESTDIR as a package build uses it: the files land in $stage/opt/..., and
# are used from there, a place they were never told about.
src=$T/src stage=$T/stage prefix=/opt/ukasan-test
cp -R "$UKASAN_ROOT/Makefile" "$UKASAN_ROOT/src" "$UKASAN_ROOT/include" "$UKASAN_ROOT/tools" \
	"$UKASAN_ROOT/man" "$src/"
# A jobserver of the make that runs the tests is not ours to use.
if ! MAKEFLAGS= make -C "$src" -j2 install DESTDIR="$stage" PREFIX="$prefix" >"$T/make.log" 2>&1; then
	notok "make install" "$(tail -20 "$T/make.log")"
	exit 0
fi
rm -rf "$src"
P=$stage$prefix

files=$(cd "$P" && find . ! -type d | sort | tr '\n' ' ')
# Every page of man/ in its section's directory (man1, man7).
want=$({ printf '%s\n' ./bin/ukasan ./bin/ukasan-c++ ./bin/ukasan-cc ./bin/ukasan-leaks ./bin/ukasan-symbolize \
	./include/ukasan.h ./lib/libukasan.so ./lib/ukasan/clang_reports.h ./lib/ukasan/libukasan_static.a \
	./lib/ukasan/libukasan_syscall_hooks.a ./lib/ukasan/ukasan_arch ./lib/ukasan/ukasan_exports ./lib/ukasan/ukasan_marker.o \
	./lib/ukasan/ukasan_marker_sw_tags.o ./lib/ukasan/ukasan_ubsan.a
	for m in "$UKASAN_ROOT"/man/*.[1-8]; do echo "./share/man/man${m##*.}/${m##*/}"; done; } |
	sort | tr '\n' ' ')
case "$want" in *share/man/man1/ukasan.1*) ;; *) notok "make install layout" "no man/ukasan.1 in the tree" ;; esac
[ "$files" = "$want" ] && ok "make install layout" || notok "make install layout" "installed: $files"

# The installed pages are found by man(1) through the installed tree.
if command -v man >/dev/null; then
	for page in ukasan ukasan-cc ukasan-symbolize; do
		if MANPATH="$P/share/man" man -w "$page" 2>/dev/null | grep -q "^$P/share/man/man1/$page.1"; then
			ok "man $page finds the installed page"
		else
			notok "man $page finds the installed page" "man -w: $(MANPATH="$P/share/man" man -w "$page" 2>&1)"
		fi
	done
fi

# The scripts and headers must not name the source tree, its copy or the
# staging directory; the ELF files must not find libraries through them
# (their debug information does name the sources: that is for file:line).
refs=$(grep -l -e "$UKASAN_ROOT" -e "$src" -e "$stage" $(ls "$P/bin/"* | grep -v '/ukasan-leaks$') \
	"$P/include/ukasan.h" "$P/lib/ukasan/clang_reports.h")
for f in "$P/lib/libukasan.so" "$P/lib/ukasan/ukasan_marker.o" "$P/bin/ukasan-leaks"; do
	readelf -d "$f" 2>/dev/null | grep -q -e "$UKASAN_ROOT" -e "$src" -e "$stage" && refs="$refs $f"
done
[ -z "$refs" ] && ok "installed files do not name the source tree" ||
	notok "installed files do not name the source tree" "in: $refs"

# The man page as man reads it: from the installed tree, without a warning.
if command -v groff >/dev/null; then
	w=$(MANPATH="$P/share/man" man -w ukasan-options 2>&1)
	warn=$(groff -man -Tutf8 -ww -z "$w" 2>&1)
	[ "$w" = "$P/share/man/man7/ukasan-options.7" ] && [ -z "$warn" ] &&
		ok "installed ukasan-options(7) is found by man and renders" ||
		notok "installed ukasan-options(7) is found by man and renders" "man -w: $w; $warn"
fi

lib=$("$P/bin/ukasan" lib)
[ "$lib" = "$(cd "$P/lib" && pwd)/libukasan.so" ] && ok "ukasan lib prints the installed library" ||
	notok "ukasan lib prints the installed library" "printed '$lib'"

# grep, run under the preload, reads its own memory map: the library loaded
# is the installed one, and its statistics come out at exit.
out=$("$P/bin/ukasan" run -o kfence.sample_rate=1 -o kfence.stats=1 -- \
	grep -m1 -o '/[^ ]*libukasan\.so$' /proc/self/maps 2>"$T/err")
if [ "$out" = "$lib" ] && grep -q "^total allocations: [1-9]" "$T/err"; then
	ok "installed ukasan run loads the installed library"
else
	notok "installed ukasan run loads the installed library" "mapped '$out'; stderr: $(cat "$T/err")"
fi

# The installed header, and a KFENCE report through the installed tools.
if gcc -g -O0 -I"$P/include" -o "$T/prog" "$UKASAN_ROOT/tests/tools/_prog.c" 2>"$T/err"; then
	out=$("$P/bin/ukasan" run -o kfence.sample_rate=1 -- "$T/prog" oob 2>&1)
	case "$out" in *"BUG: KFENCE: out-of-bounds write in main+0x"*ran*)
		ok "installed ukasan.h and ukasan run report" ;;
	*) notok "installed ukasan.h and ukasan run report" "$out" ;; esac
else
	notok "installed ukasan.h and ukasan run report" "$(cat "$T/err")"
fi

cat >"$T/oob.c" <<'EOF'
#include <stdlib.h>
/* volatile: gcc drops a plain store to an object freed right after. */
int main(void)
{
	volatile char *p = malloc(10);
	p[10] = 1;
	free((void *)p);
	return 0;
}
EOF
cat >"$T/oob.cc" <<'EOF'
#include <string>
#include <vector>
int main()
{
	std::vector<std::string> v{"a", "b"};
	volatile int *p = new int[4];
	p[v.size() + 2] = 1;
	delete[] p;
	return 0;
}
EOF

# A program built by an installed ukasan-cc or ukasan-c++ (the compiler in
# UKASAN_CC/UKASAN_CXX) finds the installed library at run time, and its
# heap overflow is reported. KFENCE off: its first sample could otherwise
# take the object on a loaded machine.
kasan() { # NAME TOOL COMPILER SOURCE
	exe=$T/$1
	if ! UKASAN_CC=$3 UKASAN_CXX=$3 "$P/bin/$2" -g -O1 -o "$exe" "$4" >"$T/err" 2>&1; then
		notok "$1" "build failed: $(cat "$T/err")"
		return
	fi
	runpath=$(readelf -d "$exe" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p')
	found=$(ldd "$exe" | sed -n 's/.*libukasan\.so => \([^ ]*\) .*/\1/p')
	out=$(UKASAN_OPTIONS=kfence.sample_interval=0 "$exe" 2>&1)
	if [ "$runpath" != "$(cd "$P/lib" && pwd)" ] || [ "$found" != "$lib" ]; then
		notok "$1" "RUNPATH '$runpath', libukasan.so from '$found'"
	else
		case "$out" in *"BUG: KASAN: slab-out-of-bounds in main"*"Write of size "*)
			ok "$1" ;;
		*) notok "$1" "no report: $out" ;; esac
	fi
}
kasan "installed ukasan-cc (gcc) builds and reports" ukasan-cc gcc "$T/oob.c"
kasan "installed ukasan-c++ (g++) builds and reports" ukasan-c++ g++ "$T/oob.cc"
# clang-16 also takes clang_reports.h from the private directory.
if command -v clang-16 >/dev/null; then
	kasan "installed ukasan-cc (clang-16) builds and reports" ukasan-cc clang-16 "$T/oob.c"
else
	notok "installed ukasan-cc (clang-16) builds and reports" "clang-16 not installed"
fi

MAKEFLAGS= make -s -C "$UKASAN_ROOT" uninstall DESTDIR="$stage" PREFIX="$prefix" >"$T/err" 2>&1
left=$(find "$stage" ! -type d)
[ -z "$left" ] && ok "make uninstall removes every file" ||
	notok "make uninstall removes every file" "left: $left $(cat "$T/err")"
rm -rf "$stage"
