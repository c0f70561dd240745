#!/bin/sh
# SQLite, built with ukasan-cc (generic KASAN) by gcc and by clang-16 from
# Debian's source package as one translation unit (the amalgamation,
# sqlite3.c), with Debian's compile flags (debian/rules) at -O2: its own
# test programs must run to their end, exit 0 and print no KASAN or KFENCE
# report. (Issue 31: gcc -O2 folds sqlite3.c's two function-local tables
# aiOff, equal in contents, into one object; ukasan took their two
# descriptors of one address for two definitions and printed an
# odr-violation at start.)
#
# What runs, per compiler, one line each:
#   builds with ukasan-cc        sqlite3.c, shell.c, test/speedtest1.c and
#                                mptest/mptest.c; sqlite3.o registers its
#                                globals and checks accesses (__asan_register_
#                                globals, __asan_report_* or __asan_load*), and
#                                the programs link libukasan.so
#   the two aiOff are one object (gcc only)  nm shows both at one address:
#                                the case of issue 31 is really exercised
#   speedtest1 on disk           test/speedtest1 --size 5, testsets main, cte,
#                                fp and orm, a database file (not trigger:
#                                this version's stops at its first step, "no
#                                such table: t1", in a plain build too)
#   speedtest1 --memdb           the same in memory
#   speedtest1 rtree: only its own leak   testset rtree (--memdb): it never
#                                frees its aCheck array; exactly that leak,
#                                10000 bytes, must be reported, nothing else
#   mptest: 0 errors, only its own leak   SQLite's multi-process tester on
#                                its own scripts, as `make mptest` runs them
#                                but with --repeat 1: crash01.test with
#                                --journalmode DELETE, multiwrite01.test with
#                                WAL; it must print "0 errors", and the only
#                                reports allowed are its clients' leak of
#                                each task's script (startScript's
#                                sqlite3_malloc, never freed), found at least
#                                once
#   the shell on SQL scripts     the sqlite3 shell reads the tree's SQL files
#                                ext/wasm/sql/000-mandelbrot.sql and
#                                001-sudoku.sql; the sudoku's solution is
#                                checked
# SQLite's TCL test suite (test/*.test through testfixture) is
# check_sqlite_tcl.sh's: a bounded part of it.
#
# The amalgamation is made once with SQLite's own `make sqlite3.c shell.c`
# (needs tclsh) into $BUILD/third_party/sqlite3/amalgamation
# (_sqlite_amalg.sh). The
# instrumented sqlite3.o and shell.o (sqlite3.c alone: 166 s of CPU and
# 0.9 GB with gcc, 134 s and 1.2 GB with clang-16) are kept in $BUILD/third_party/sqlite3/obj/ under a key of everything that
# makes them (the sources, ukasan-cc, clang_reports.h, the compiler's
# version, the flags, UKASAN_INSTRUMENT); the programs are linked and run
# every time. UKASAN_SQLITE_REBUILD=1 compiles again regardless.
#
# UKASAN_CC_GCC / UKASAN_CC_CLANG name the real compilers (gcc, clang-16).
set -u
ROOT=${UKASAN_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${UKASAN_BUILD:-$ROOT/build}
TMP=${UKASAN_TEST_TMP:-$(mktemp -d)}
WRAP=$BUILD/bin/ukasan-cc
WORK=$TMP/sqlite
BUGS='BUG: (KASAN|KFENCE|memory leak)|ERROR: AddressSanitizer'
# Every report of a run is printed, not only the first.
OPTS="kasan_multi_shot ${UKASAN_OPTIONS:-}"

mkdir -p "$WORK" "$BUILD/third_party"

note() { echo "# $*"; echo "check_sqlite: $*" >&2; }
say() { # NAME STATUS REASON
	if [ "$2" = 0 ]; then echo "ok $1"; else echo "not ok $1 - $3"; fi
}
first_bug() {
	grep -h -m1 -E "$BUGS" "$@" 2>/dev/null | head -1
}

if [ ! -x "$WRAP" ]; then
	echo "not ok sqlite - $WRAP missing: run make first"
	exit 0
fi
. "$ROOT/tests/projects/_debsrc.sh"
SRC=$(debsrc_get sqlite3 configure test/speedtest1.c mptest/mptest.c ext/wasm/sql/001-sudoku.sql) ||
	{ echo "$SRC"; exit 0; }
note "sqlite source: $SRC"

# --- the amalgamation ----------------------------------------------------

. "$ROOT/tests/projects/_sqlite_amalg.sh"
if ! why=$(sqlite_amalgamation "$SRC"); then
	echo "not ok sqlite amalgamation - $why"
	exit 0
fi
note "amalgamation: $AMALG ($(grep -c '' "$AMALG/sqlite3.c") lines)"

# Debian's CFLAGS for sqlite3 (debian/rules, bookworm's 3.40.1) and what
# its configure options add, with dpkg-buildflags' -O2 -g and fortify.
DEBIAN_FLAGS="-O2 -g -D_FORTIFY_SOURCE=2 -fno-strict-aliasing
-DSQLITE_SECURE_DELETE -DSQLITE_ENABLE_COLUMN_METADATA
-DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS
-DSQLITE_ENABLE_RTREE=1 -DSQLITE_SOUNDEX=1 -DSQLITE_ENABLE_UNLOCK_NOTIFY
-DSQLITE_OMIT_LOOKASIDE=1 -DSQLITE_ENABLE_DBSTAT_VTAB
-DSQLITE_ALLOW_ROWID_IN_VIEW -DSQLITE_ENABLE_UPDATE_DELETE_LIMIT=1
-DSQLITE_ENABLE_LOAD_EXTENSION -DSQLITE_ENABLE_JSON1
-DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_THREADSAFE=1
-DSQLITE_ENABLE_FTS3_TOKENIZER=1 -DSQLITE_USE_URI=1
-DSQLITE_MAX_SCHEMA_RETRY=25 -DSQLITE_ENABLE_PREUPDATE_HOOK
-DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_STMTVTAB
-DSQLITE_MAX_VARIABLE_NUMBER=250000
-DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_MATH_FUNCTIONS
-DSQLITE_HAVE_ZLIB=1 -DNDEBUG -D_HAVE_SQLITE_CONFIG_H -I$AMALG"
DEBIAN_FLAGS=$(echo $DEBIAN_FLAGS)
LIBS="-lm -lz -lpthread -ldl"

# --- per compiler ----------------------------------------------------------

# The cache key of one compiler's objects.
obj_key() {
	cc=$1
	{
		cat "$AMALG/sqlite3.c" "$AMALG/shell.c" "$AMALG/sqlite_cfg.h" "$WRAP"
		cat "$BUILD/lib/ukasan/clang_reports.h" 2>/dev/null
		"$cc" --version 2>&1
		echo "$DEBIAN_FLAGS ${UKASAN_INSTRUMENT:-}"
	} | sha256sum | cut -c1-16
}

# Compiles sqlite3.o and shell.o into $objs (or finds them there).
compile_objects() {
	cc=$1 log=$2
	if [ -s "$objs/sqlite3.o" ] && [ -s "$objs/shell.o" ] && [ "${UKASAN_SQLITE_REBUILD:-0}" != 1 ]; then
		note "$cc: sqlite3.o and shell.o from $objs"
		return 0
	fi
	stage=$objs.partial.$$
	rm -rf "$stage"
	mkdir -p "$stage"
	for f in sqlite3 shell; do
		# $DEBIAN_FLAGS unquoted: one word per flag.
		# shellcheck disable=SC2086
		if ! UKASAN_CC=$cc timeout 900 "$WRAP" $DEBIAN_FLAGS -c "$AMALG/$f.c" -o "$stage/$f.o" >>"$log" 2>&1; then
			rm -rf "$stage"
			return 1
		fi
	done
	rm -rf "$objs" && mv "$stage" "$objs"
}

check_instrumented() {
	why=
	nm "$objs/sqlite3.o" 2>/dev/null | grep -q ' U __asan_register_globals' ||
		why="$why sqlite3.o registers no globals;"
	nm "$objs/sqlite3.o" 2>/dev/null | grep -qE ' U __asan_(report_|load|store)' ||
		why="$why sqlite3.o: no __asan_report_/load/store calls;"
	for p in speedtest1 mptester sqlite3; do
		readelf -d "$dir/$p" 2>/dev/null | grep -q 'NEEDED.*libukasan' || why="$why $p does not link libukasan.so;"
	done
	[ -z "$why" ] && return 0
	echo "$why"
	return 1
}

# Runs a program under $OPTS in $dir/run, its output in LOG and its exit
# status in $rc. Through a pipe: the log is complete only when every process
# that holds it has exited, and mptest's clients, who report their leaks at
# their exit, may outlive the parent.
run_logged() { # LOG PROGRAM ARGS...
	log=$1
	shift
	{
		(cd "$dir/run" && UKASAN_OPTIONS=$OPTS timeout 300 "$@")
		echo $? >"$log.rc"
	} 2>&1 | timeout 360 cat >"$log"
	rc=$(cat "$log.rc" 2>/dev/null || echo "none")
}

# Runs a program under $OPTS in $dir/run: exit 0, no report, and the given
# text in its output. Prints the reason on failure.
run_clean() { # LOG WANT PROGRAM ARGS...
	log=$1 want=$2
	shift 2
	run_logged "$log" "$@"
	bug=$(first_bug "$log")
	if [ -n "$bug" ]; then
		echo "report: '$bug', exit $rc (log: $log)"
		return 1
	fi
	if [ $rc != 0 ]; then
		echo "exited $rc: $(grep -m1 -iE 'error|abort|fault' "$log") (log: $log)"
		return 1
	fi
	if ! grep -qE -- "$want" "$log"; then
		echo "no '$want' in its output (log: $log)"
		return 1
	fi
	return 0
}

# Every report in LOG is a memory leak whose stack has a frame matching
# the regex PAT: prints how many there were, else the reports that were not
# (and fails).
only_leaks_from() { # LOG PAT
	awk -v pat="$2" '
	function fail(what) { if (nbad++ < 3) bad = bad " " what ";" }
	function done_block() { if (inblk && !seen) fail("a leak with no frame matching " pat); inblk = 0 }
	/BUG: |ERROR: AddressSanitizer/ {
		done_block()
		if ($0 !~ /BUG: memory leak/) { sub(/^.*BUG: /, "BUG: "); fail($0); next }
		inblk = 1; seen = 0; n++; next
	}
	inblk && $0 ~ pat { seen = 1 }
	/^signature:/ { done_block() }
	END {
		done_block()
		if (nbad > 3) bad = bad " and " nbad - 3 " more;"
		if (nbad) { print bad; exit 1 }
		print n + 0
	}' "$1"
}

# Runs a program of SQLite's own tests that leaks by itself: exit 0, or 1
# for its leak reports (ukasan.exitcode); WANT in its output; every report
# a leak from PAT, and at least one. Prints the reason on failure.
run_own_leak() { # LOG WANT PAT PROGRAM ARGS...
	log=$1 want=$2 pat=$3
	shift 3
	run_logged "$log" "$@"
	if ! n=$(only_leaks_from "$log" "$pat"); then
		echo "reports other than its own leak:$n exit $rc (log: $log)"
		return 1
	fi
	if [ $rc != 0 ] && { [ $rc != 1 ] || ! grep -q '(ukasan.exitcode)' "$log"; }; then
		echo "exited $rc: $(grep -m1 -iE 'error|abort|fault' "$log") (log: $log)"
		return 1
	fi
	if ! grep -qE -- "$want" "$log"; then
		echo "no '$want' in its output (log: $log)"
		return 1
	fi
	if [ "$n" = 0 ]; then
		echo "its own leak (a frame matching $pat) was not reported (log: $log)"
		return 1
	fi
	return 0
}

one_compiler() {
	tag=$1 cc=$2
	t="sqlite [$tag]"
	if ! command -v "$cc" >/dev/null; then
		echo "not ok $t - $cc not found (command -v $cc failed)"
		return
	fi
	start=$(date +%s)
	dir=$WORK/$tag
	rm -rf "$dir"
	mkdir -p "$dir/run" "$BUILD/third_party/sqlite3/obj"
	objs=$BUILD/third_party/sqlite3/obj/$tag-$(obj_key "$cc")
	log=$dir/build.log
	built=0
	if compile_objects "$cc" "$log" &&
		UKASAN_CC=$cc "$WRAP" $DEBIAN_FLAGS -o "$dir/speedtest1" "$SRC/test/speedtest1.c" \
			"$objs/sqlite3.o" $LIBS >>"$log" 2>&1 &&
		UKASAN_CC=$cc "$WRAP" $DEBIAN_FLAGS -o "$dir/mptester" "$SRC/mptest/mptest.c" \
			"$objs/sqlite3.o" $LIBS >>"$log" 2>&1 &&
		UKASAN_CC=$cc "$WRAP" $DEBIAN_FLAGS -o "$dir/sqlite3" "$objs/shell.o" "$objs/sqlite3.o" \
			$LIBS >>"$log" 2>&1; then
		built=1
	fi
	if [ $built = 0 ]; then
		say "$t builds with ukasan-cc" 1 "$(grep -m1 -iE 'error|abort' "$log") (log: $log)"
		for g in "speedtest1 on disk" "speedtest1 --memdb" \
			"speedtest1 rtree: only its own leak (testset_rtree's aCheck)" \
			"mptest: 0 errors, only its own leak (the clients' task scripts)" \
			"the shell on SQL scripts"; do
			say "$t $g" 1 "not built"
		done
		return
	fi
	why=$(check_instrumented)
	say "$t builds with ukasan-cc" $? "$why"

	# Both tables are local symbols aiOff.N; gcc -O2 gives them one address.
	n=$(nm "$dir/speedtest1" | grep -cE ' ([[:alnum:]_]+\.)?aiOff(\.[0-9]+)?$')
	a=$(nm "$dir/speedtest1" | awk '$3 ~ /^([[:alnum:]_]+\.)?aiOff(\.[0-9]+)?$/ { print $1 }' | sort -u | wc -l)
	if [ "$tag" = gcc ]; then
		[ "$n" = 2 ] && [ "$a" = 1 ]
		say "$t the two aiOff are one object (gcc -O2 folds them)" $? \
			"nm shows $n aiOff symbols at $a addresses: the case of issue 31 is not exercised"
	else
		note "$tag: $n aiOff symbols at $a addresses"
	fi

	why=$(run_clean "$dir/speedtest1-disk.log" '^ +TOTAL' ./../speedtest1 --size 5 \
		--testset main,cte,fp,orm "$dir/run/speedtest1.db")
	say "$t speedtest1 on disk" $? "$why"
	why=$(run_clean "$dir/speedtest1-memdb.log" '^ +TOTAL' ./../speedtest1 --memdb --size 5 \
		--testset main,cte,fp,orm)
	say "$t speedtest1 --memdb" $? "$why"
	# testset_rtree never frees aCheck: 4 * 500 * size bytes.
	why=$(run_own_leak "$dir/speedtest1-rtree.log" '^ +TOTAL' 'speedtest1\.c:1487|testset_rtree' \
		./../speedtest1 --memdb --size 5 --testset rtree) &&
		{ grep -q 'unreferenced object 0x[0-9a-f]* (size 10000)' "$dir/speedtest1-rtree.log" ||
			why="the leak is not aCheck's 10000 bytes (log: $dir/speedtest1-rtree.log)"; }
	say "$t speedtest1 rtree: only its own leak (testset_rtree's aCheck)" $? "$why"

	# A client never frees a task's script (startScript's sqlite3_malloc,
	# mptest.c:586): each client process reports it at its exit.
	pat='mptest\.c:58[0-9]|startScript'
	why=$(run_own_leak "$dir/mptest-crash01.log" 'Summary: 0 errors' "$pat" ./../mptester mptest.db \
		"$SRC/mptest/crash01.test" --repeat 1 --journalmode DELETE) &&
		why=$(run_own_leak "$dir/mptest-multiwrite01.log" 'Summary: 0 errors' "$pat" ./../mptester \
			mptest.db "$SRC/mptest/multiwrite01.test" --repeat 1 --journalmode WAL)
	say "$t mptest: 0 errors, only its own leak (the clients' task scripts)" $? "$why"

	# The sudoku's first row, solved (the script prints the solution).
	why=$(run_clean "$dir/shell-mandelbrot.log" '.' ./../sqlite3 :memory: \
		".read $SRC/ext/wasm/sql/000-mandelbrot.sql") &&
		why=$(run_clean "$dir/shell-sudoku.log" '534678912' ./../sqlite3 :memory: \
			".read $SRC/ext/wasm/sql/001-sudoku.sql")
	say "$t the shell on SQL scripts" $? "$why"
	note "$tag: $(($(date +%s) - start))s in $dir"
}

one_compiler gcc "${UKASAN_CC_GCC:-gcc}"
one_compiler clang "${UKASAN_CC_CLANG:-clang-16}"
exit 0
