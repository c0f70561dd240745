#!/bin/sh
# Each build-and-test tool with ukasan-cc, as a project would use it with
# ASan, run with default options: a tiny project of ours is built twice,
# clean and with a heap overflow in its native code (-DBUG / UKASAN_BUG=1),
# and the tool's own test run must pass on the clean one, with no report,
# and fail on the buggy one, showing the KASAN report. One line per tool:
#   ctest        CMake, -fsanitize=address in CMAKE_C_FLAGS
#   meson        meson setup -Db_sanitize=address, meson test
#   autotools    ./configure CC=ukasan-cc, make check (report in
#                test-suite.log, where automake puts a failed test's output)
#   pytest       a Python C extension built with CC=ukasan-cc by setuptools,
#                pytest under `ukasan run --kasan` (--capture=sys: the
#                report, written to descriptor 2, is shown)
#   cargo        a crate whose C part the cc crate builds, CC=ukasan-cc and
#                RUSTFLAGS="-C linker=ukasan-cc"; the cc crate comes from
#                crates.io at test time (skipped, saying so, when it cannot)
#   node         a Node-API addon built by node-gyp (npm's own copy) with
#                CC=ukasan-cc CXX=ukasan-c++, node --test under
#                `ukasan run --kasan`
# Sources: tests/projects/native/ (C), pyext/, cargo/, node/. A tool that is
# not installed (tools/deps.sh installs them for make test) is skipped with
# the reason.
set -u
ROOT=${UKASAN_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${UKASAN_BUILD:-$ROOT/build}
TMP=${UKASAN_TEST_TMP:-$(mktemp -d)}
BIN=$BUILD/bin
SRC=$ROOT/tests/projects
WORK=$TMP/buildtools
REPORT='BUG: KASAN: slab-out-of-bounds'
rm -rf "$WORK"
mkdir -p "$WORK"

note() { echo "check_buildtools: $*" >&2; }

if [ ! -x "$BIN/ukasan-cc" ]; then
	echo "not ok buildtools - $BIN/ukasan-cc missing: run make first"
	exit 0
fi

# A fresh copy of a project: the tool's files and the shared C sources.
project() {
	d=$WORK/$1-$2
	mkdir -p "$d"
	cp -r "$SRC/$3"/. "$d"/
	[ -n "${4:-}" ] && cp "$SRC"/native/*.c "$SRC"/native/*.h "$d"/
	echo "$d"
}

# verdict TOOL VARIANT BUILD_RC TEST_RC LOGS...: "" when the variant did
# what it must, else why not.
verdict() {
	v=$2 brc=$3 trc=$4
	shift 4
	if [ "$brc" != 0 ]; then
		echo "$v variant did not build (log: $1)"
		return
	fi
	shift # built: the test's log and the tool's come next
	seen=$(grep -l -F "$REPORT" "$@" 2>/dev/null | head -1)
	if [ "$v" = clean ]; then
		[ "$trc" = 0 ] || { echo "clean variant's tests failed, status $trc (log: $1)"; return; }
		bug=$(grep -h -m1 -E 'BUG: (KASAN|KFENCE)' "$@" 2>/dev/null | head -1)
		[ -z "$bug" ] || echo "clean variant reported '$bug' (log: $1)"
	else
		[ "$trc" != 0 ] || { echo "buggy variant's tests passed (status 0)${seen:+ after a report} (log: $1)"; return; }
		[ -n "$seen" ] || { echo "buggy variant failed (status $trc) without '$REPORT' in its output (log: $1)"; return; }
		# It ran on to its end and failed by its exit status, as the
		# summary line says, rather than crashing after the report.
		grep -q -E "reports? in this run" "$@" 2>/dev/null ||
			echo "buggy variant did not run to its end after the report (no summary line; log: $1)"
	fi
}

# run_tool NAME: calls NAME_build DIR VARIANT and NAME_test DIR (their
# output in DIR/build.log and DIR/test.log), for both variants, and prints
# the tool's line. NAME_logs may name more files, in the project's
# directory, where the tool keeps the tests' output.
run_tool() {
	t=$1 why=""
	for v in clean bug; do
		d=$(project "$t" "$v" "$2" "${3:-}")
		bug=0
		[ $v = bug ] && bug=1
		(cd "$d" && "${t}_build" "$bug") >"$d/build.log" 2>&1
		brc=$?
		trc=1
		if [ $brc = 0 ]; then
			(cd "$d" && "${t}_test") >"$d/test.log" 2>&1
			trc=$?
		fi
		r=$(verdict "$t" "$v" "$brc" "$trc" "$d/build.log" "$d/test.log" $("${t}_logs" 2>/dev/null | sed "s|^|$d/|"))
		[ -n "$r" ] && why="${why:+$why; }$r"
		note "$t $v: build $brc, tests $trc"
	done
	if [ -z "$why" ]; then
		echo "ok $t: fails on the heap overflow with the KASAN report, passes clean"
	else
		echo "not ok $t - $why"
	fi
}

skip() { echo "ok $1 # skip: $2"; }

# Bounded: each step of a tool gets this long.
T="timeout 300"

# --- CMake and ctest -------------------------------------------------------
ctest_build() {
	b=OFF
	[ "$1" = 1 ] && b=ON
	$T cmake -S . -B build -G Ninja -DCMAKE_C_COMPILER="$BIN/ukasan-cc" \
		-DCMAKE_C_FLAGS=-fsanitize=address -DBUG=$b && $T cmake --build build
}
ctest_test() { $T ctest --test-dir build --output-on-failure; }
if command -v cmake >/dev/null && command -v ninja >/dev/null; then
	run_tool ctest native/cmake native
else
	skip ctest "cmake or ninja not installed (tools/deps.sh test)"
fi

# --- meson -------------------------------------------------------------------
meson_build() {
	b=false
	[ "$1" = 1 ] && b=true
	CC="$BIN/ukasan-cc" $T meson setup build -Db_sanitize=address -Dbug=$b &&
		$T meson compile -C build
}
meson_test() { $T meson test -C build --print-errorlogs; }
meson_logs() { echo build/meson-logs/testlog.txt; }
if command -v meson >/dev/null && command -v ninja >/dev/null; then
	run_tool meson native/meson native
else
	skip meson "meson not installed (tools/deps.sh test)"
fi

# --- autotools -----------------------------------------------------------------
autotools_build() {
	f=
	[ "$1" = 1 ] && f=-DBUG
	$T autoreconf -fi && $T ./configure CC="$BIN/ukasan-cc" CPPFLAGS="$f" && $T make
}
autotools_test() { $T make check; }
autotools_logs() { echo test-suite.log; }
if command -v autoreconf >/dev/null && command -v automake >/dev/null; then
	run_tool autotools native/autotools native
else
	skip autotools "autoconf/automake not installed (tools/deps.sh test)"
fi

# --- pytest of a Python C extension -------------------------------------------------
pytest_build() {
	UKASAN_BUG=$1 CC="$BIN/ukasan-cc" $T python3 setup.py build_ext --inplace
}
pytest_test() { $T "$BIN/ukasan" run --kasan python3 -m pytest -p no:cacheprovider --capture=sys; }
if python3 -c 'import pytest, setuptools, sysconfig, os, sys
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null; then
	run_tool pytest pyext
else
	skip pytest "python3's pytest, setuptools or Python.h missing (tools/deps.sh test)"
fi

# --- cargo test of a crate with C --------------------------------------------------
# One target directory for both variants: only the C part is built again.
export CARGO_TARGET_DIR="$WORK/cargo-target"
cargo_build() {
	echo "$1" >bug
	UKASAN_BUG=$1 CC="$BIN/ukasan-cc" RUSTFLAGS="-C linker=$BIN/ukasan-cc" $T cargo test --no-run
}
cargo_test() {
	UKASAN_BUG=$(cat bug) CC="$BIN/ukasan-cc" RUSTFLAGS="-C linker=$BIN/ukasan-cc" $T cargo test
}
if ! command -v cargo >/dev/null; then
	skip cargo "cargo not installed"
elif ! (cd "$(project cargo fetch cargo)" && $T cargo fetch) >"$WORK/cargo-fetch.log" 2>&1; then
	skip cargo "the cc crate could not be fetched from crates.io (offline?): $(grep -m1 -i -E 'error|warning' "$WORK/cargo-fetch.log")"
else
	run_tool cargo cargo
fi
unset CARGO_TARGET_DIR

# --- a Node-API addon built by node-gyp ------------------------------------------
GYP=$(npm root -g 2>/dev/null)/npm/node_modules/node-gyp/bin/node-gyp.js
[ -f "$GYP" ] || GYP=$(command -v node-gyp)
node_build() {
	# --nodedir: node's own headers, installed with it; nothing downloaded.
	UKASAN_BUG=$1 CC="$BIN/ukasan-cc" CXX="$BIN/ukasan-c++" $T node "$GYP" rebuild --nodedir=/usr
}
node_test() { $T "$BIN/ukasan" run --kasan node --test test.js; }
if command -v node >/dev/null && [ -n "$GYP" ] && [ -f /usr/include/node/node_api.h ]; then
	run_tool node node
else
	skip node "node, node-gyp or node's headers (/usr/include/node) missing"
fi
exit 0
