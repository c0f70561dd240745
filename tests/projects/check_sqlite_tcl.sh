#!/bin/sh
# SQLite's own TCL test suite, a bounded part of it: testfixture (tclsqlite.c,
# the amalgamation sqlite3.c and SQLite's test*.c helpers, with the flags of
# SQLite's Makefile for `make testfixture`) built from Debian's source package
# (3.40.1) with ukasan-cc by gcc, and once more by plain gcc. Test files that
# cover the library's parts run under both: under KASAN each must print no
# KASAN or KFENCE report and end with the plain build's "N errors out of M
# tests" (the same N and M: a test that fails without ukasan is not blamed
# on it, one more failure or a test file cut short is).
#
# What runs, one line each:
#   builds with ukasan-cc        testfixture's 88 files; sqlite3.o registers
#                                its globals and checks accesses, and
#                                testfixture links libukasan.so; the plain
#                                one is built with gcc alone
#   FILE.test                    testfixture FILE.test under ukasan
#                                (kasan_multi_shot: every report printed),
#                                from its own empty directory: no report, and
#                                the plain build's N errors out of M tests
#                                and the same failed tests (as root,
#                                delete.test's 6 and wal2.test's 8 tests of
#                                read-only files fail in both)
# The files ($TESTS below), chosen for what they exercise and for time
# (2m45s in all, cached, on 2 cores under a load of 15): SQL (select,
# join, expr, window functions, CTEs, printf, dates), the b-tree and pager
# on disk (savepoints, autovacuum, WAL, incremental blob I/O, shared
# cache), corrupt database files and fuzzed SQL, FTS3/4/5, JSON and
# zipfile. Not chosen: R-Tree's and the session extension's tests (not
# compiled in: `make testfixture`'s configure defaults leave them out; they
# run one test), the crash*.test files, whose child processes end with
# exit(-1) inside SQLite's crash VFS (src/test6.c) with memory still held:
# cfClose never frees a file's copy (zData, Tcl_Alloc'd), a real leak that
# LeakSanitizer reports too (8 leaks in crash8.test), and attach.test,
# which stops when run as root.
#
# By hand (not here: 53 minutes under a load of 15-20, 18 plain), SQLite's
# veryquick suite (test/veryquick.test, 1110 files) ran under this
# testfixture as a user that is not root: 1 error out of 295192 tests, the
# plain build's one (io-5.5, a file system's sector size), and no report
# but the crash tests' leaks above. Plain runs 295208: gcc defines
# __SANITIZE_ADDRESS__ for ukasan's instrumentation too, and SQLite then
# skips its 20 tests that misuse freed handles or recurse deeply
# (clang_sanitize_address: capi3*, misuse-4/5, oserror-1.1, select7-6),
# while two fault-injection loops (fts3expr-malloc, fts3expr3-fault) run 4
# steps more (another count of mallocs).
#
# Skipped (ok ... # skip) without tcl.h (tcl-dev) or tclConfig.sh. The
# amalgamation is check_sqlite.sh's (tests/projects/_sqlite_amalg.sh). The
# objects are kept in $BUILD/third_party/sqlite3/obj/testfixture-* under a key
# of everything that makes them (the sources and headers, ukasan-cc,
# clang_reports.h, the compiler's version, the flags, UKASAN_INSTRUMENT);
# testfixture is linked every time. Compiling them costs about 4 minutes
# of CPU once (sqlite3.c with the test hooks, most of it).
# UKASAN_SQLITE_REBUILD=1 compiles again regardless; UKASAN_SQLITE_TESTS
# names other test files to run (paths under the source tree, e.g.
# "test/select1.test ext/fts5/test/fts5aa.test").
#
# UKASAN_CC_GCC names the real compiler (gcc).
set -u
ROOT=${UKASAN_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${UKASAN_BUILD:-$ROOT/build}
TMP=${UKASAN_TEST_TMP:-$(mktemp -d)}
WRAP=$BUILD/bin/ukasan-cc
WORK=$TMP/sqlite_tcl
BUGS='BUG: (KASAN|KFENCE|memory leak)|ERROR: AddressSanitizer'
OPTS="kasan_multi_shot ${UKASAN_OPTIONS:-}"
CC_GCC=${UKASAN_CC_GCC:-gcc}
TAG="sqlite tcl [gcc]"

TESTS=${UKASAN_SQLITE_TESTS:-"test/select1.test test/select4.test test/join.test test/expr.test
test/func.test test/printf.test test/e_select.test test/like.test
test/date.test test/misc1.test test/insert.test test/delete.test
test/index.test test/alter.test test/window1.test test/with2.test
test/savepoint.test test/autovacuum.test test/btree01.test test/incrblob.test
test/bigrow.test test/shared.test test/wal2.test test/walmode.test test/corrupt2.test
test/corruptD.test test/corruptJ.test test/corruptK.test test/corruptL.test
test/fuzz-oss1.test test/fuzz2.test test/fts3aa.test test/fts3ac.test
test/fts4aa.test ext/fts5/test/fts5aa.test test/json101.test
test/json102.test test/zipfile.test"}

mkdir -p "$WORK"

note() { echo "# $*"; echo "check_sqlite_tcl: $*" >&2; }
say() { # NAME STATUS REASON
	if [ "$2" = 0 ]; then echo "ok $1"; else echo "not ok $1 - $3"; fi
}
skip() { echo "ok $1 # skip: $2"; }

if [ ! -x "$WRAP" ]; then
	echo "not ok $TAG - $WRAP missing: run make first"
	exit 0
fi
if ! command -v "$CC_GCC" >/dev/null; then
	echo "not ok $TAG - $CC_GCC not found (command -v $CC_GCC failed)"
	exit 0
fi

# Tcl's headers and library, as SQLite's configure finds them: tclConfig.sh.
TCLCONFIG=
for d in /usr/lib/tcl8.6 /usr/lib/*/tcl8.6 /usr/lib64/tcl8.6 /usr/local/lib/tcl8.6 /usr/local/lib; do
	[ -f "$d/tclConfig.sh" ] && { TCLCONFIG=$d/tclConfig.sh; break; }
done
if [ -z "$TCLCONFIG" ]; then
	skip "$TAG" "no tclConfig.sh (apt-get install tcl-dev; tools/deps.sh test)"
	exit 0
fi
TCL_INCLUDE_SPEC= TCL_LIB_SPEC=
# shellcheck disable=SC1090
. "$TCLCONFIG"
TCL_H=
for f in $TCL_INCLUDE_SPEC /usr/include; do
	d=${f#-I}
	[ -f "$d/tcl.h" ] && { TCL_H=$d; break; }
done
if [ -z "$TCL_H" ] || [ -z "$TCL_LIB_SPEC" ]; then
	skip "$TAG" "no tcl.h or no Tcl library in $TCLCONFIG (apt-get install tcl-dev)"
	exit 0
fi
command -v tclsh >/dev/null || {
	skip "$TAG" "no tclsh (apt-get install tcl): the amalgamation needs it"
	exit 0
}

. "$ROOT/tests/projects/_debsrc.sh"
SRC=$(debsrc_get sqlite3 configure src/tclsqlite.c test/tester.tcl) ||
	{ echo "$SRC"; exit 0; }
note "sqlite source: $SRC"
. "$ROOT/tests/projects/_sqlite_amalg.sh"
if ! why=$(sqlite_amalgamation "$SRC"); then
	echo "not ok $TAG amalgamation - $why"
	exit 0
fi

# --- testfixture's sources and flags ---------------------------------------

# TESTSRC, the extensions' test files and tclsqlite.c, as Makefile.in lists
# them for testfixture (3.40.1), with the amalgamation last.
FILES="src/test1.c src/test2.c src/test3.c src/test4.c src/test5.c src/test6.c
src/test7.c src/test8.c src/test9.c src/test_autoext.c src/test_async.c
src/test_backup.c src/test_bestindex.c src/test_blob.c src/test_btree.c
src/test_config.c src/test_delete.c src/test_demovfs.c src/test_devsym.c
src/test_fs.c src/test_func.c src/test_hexio.c src/test_init.c
src/test_intarray.c src/test_journal.c src/test_malloc.c src/test_md5.c
src/test_multiplex.c src/test_mutex.c src/test_onefile.c src/test_osinst.c
src/test_pcache.c src/test_quota.c src/test_rtree.c src/test_schema.c
src/test_server.c src/test_superlock.c src/test_syscall.c src/test_tclsh.c
src/test_tclvar.c src/test_thread.c src/test_vdbecov.c src/test_vfs.c
src/test_windirent.c src/test_window.c src/test_wsd.c ext/fts3/fts3_term.c
ext/fts3/fts3_test.c ext/session/test_session.c ext/recover/sqlite3recover.c
ext/recover/dbdata.c ext/recover/test_recover.c ext/rbu/test_rbu.c
ext/expert/sqlite3expert.c ext/expert/test_expert.c ext/misc/amatch.c
ext/misc/appendvfs.c ext/misc/carray.c ext/misc/cksumvfs.c ext/misc/closure.c
ext/misc/csv.c ext/misc/decimal.c ext/misc/eval.c ext/misc/explain.c
ext/misc/fileio.c ext/misc/fuzzer.c ext/fts5/fts5_tcl.c ext/fts5/fts5_test_mi.c
ext/fts5/fts5_test_tok.c ext/misc/ieee754.c ext/misc/mmapwarm.c
ext/misc/nextchar.c ext/misc/normalize.c ext/misc/percentile.c
ext/misc/prefixes.c ext/misc/qpvtab.c ext/misc/regexp.c ext/misc/remember.c
ext/misc/series.c ext/misc/spellfix.c ext/misc/totype.c ext/misc/unionvtab.c
ext/misc/wholenumber.c ext/misc/zipfile.c ext/userauth/userauth.c
ext/rtree/test_rtreedoc.c src/tclsqlite.c"

# configure's CFLAGS and options (Debian's: --enable-threadsafe, -fts4,
# -fts5, -json, -load-extension) and Makefile.in's TESTFIXTURE_FLAGS and
# TEMP_STORE, as `make testfixture` passes them.
FLAGS="-g -O2 -DSQLITE_OS_UNIX=1 -I$AMALG -I$SRC/src -I$SRC/ext/rtree
-I$SRC/ext/icu -I$SRC/ext/fts3 -I$SRC/ext/async -I$SRC/ext/session
-I$SRC/ext/userauth -D_HAVE_SQLITE_CONFIG_H -DBUILD_sqlite -DNDEBUG -I$TCL_H
-DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_FTS4
-DSQLITE_ENABLE_FTS5 -DSQLITE_HAVE_ZLIB=1 -DSQLITE_NO_SYNC=1
-DSQLITE_TEMP_STORE=1 -DSQLITE_TEST=1 -DSQLITE_CRASH_TEST=1
-DTCLSH_INIT_PROC=sqlite3TestInit -DSQLITE_SERVER=1 -DSQLITE_PRIVATE=
-DSQLITE_CORE -DSQLITE_SERIES_CONSTRAINT_VERIFY=1
-DSQLITE_DEFAULT_PAGE_SIZE=1024 -DSQLITE_ENABLE_STMTVTAB
-DSQLITE_ENABLE_DBPAGE_VTAB -DSQLITE_ENABLE_BYTECODE_VTAB
-DSQLITE_CKSUMVFS_STATIC"
FLAGS=$(echo $FLAGS)
LIBS="$TCL_LIB_SPEC -lm -lz -lpthread -ldl"

# The cache key of one build's objects.
obj_key() { # COMPILER-COMMAND
	{
		for f in $FILES; do cat "$SRC/$f"; done
		cat "$SRC"/src/*.h "$AMALG/sqlite3.c" "$AMALG/sqlite_cfg.h" "$AMALG/parse.h" \
			"$AMALG/opcodes.h" "$TCL_H/tcl.h" "$WRAP"
		cat "$BUILD/lib/ukasan/clang_reports.h" 2>/dev/null
		"$CC_GCC" --version 2>&1
		echo "$1 $FLAGS ${UKASAN_INSTRUMENT:-}"
	} | sha256sum | cut -c1-16
}

# Compiles every file into $objs (or finds them there), one at a time:
# sqlite3.c takes some 1 GB to compile under KASAN.
compile_objects() { # LOG COMPILER-COMMAND...
	log=$1
	shift
	if [ -f "$objs/testfixture.done" ] && [ "${UKASAN_SQLITE_REBUILD:-0}" != 1 ]; then
		note "objects from $objs"
		return 0
	fi
	stage=$objs.partial.$$
	rm -rf "$stage"
	mkdir -p "$stage"
	for f in $FILES "$AMALG/sqlite3.c"; do
		case $f in /*) path=$f ;; *) path=$SRC/$f ;; esac
		# One name per file, from its path under the tree.
		o=$(echo "${f#"$AMALG"/}" | tr / _ | sed 's/\.c$/.o/')
		# shellcheck disable=SC2086
		if ! timeout 900 "$@" $FLAGS -c "$path" -o "$stage/$o" >>"$log" 2>&1; then
			echo "compiling $f failed" >>"$log"
			rm -rf "$stage"
			return 1
		fi
	done
	: >"$stage/testfixture.done"
	rm -rf "$objs" && mv "$stage" "$objs"
}

# Links testfixture into $dir from $objs.
build() { # NAME COMPILER-COMMAND...
	name=$1
	shift
	dir=$WORK/$name
	rm -rf "$dir"
	mkdir -p "$dir" "$BUILD/third_party/sqlite3/obj"
	objs=$BUILD/third_party/sqlite3/obj/testfixture-$name-$(obj_key "$*")
	log=$dir/build.log
	# shellcheck disable=SC2086
	compile_objects "$log" "$@" &&
		"$@" $FLAGS -o "$dir/testfixture" "$objs"/*.o $LIBS >>"$log" 2>&1
}

start=$(date +%s)
ok=1
build plain "$CC_GCC" || {
	say "$TAG builds with gcc (the plain one)" 1 "$(grep -m1 -iE 'error|failed' "$log") (log: $log)"
	ok=0
}
PLAIN=$WORK/plain/testfixture
if build ukasan env UKASAN_CC="$CC_GCC" "$WRAP"; then
	why=
	o=$objs/sqlite3.o
	nm "$o" | grep -q ' U __asan_register_globals' || why="$why sqlite3.o registers no globals;"
	nm "$o" | grep -qE ' U __asan_(report_|load|store)' ||
		why="$why sqlite3.o: no __asan_report_/load/store calls;"
	readelf -d "$dir/testfixture" | grep -q 'NEEDED.*libukasan' ||
		why="$why testfixture does not link libukasan.so;"
	[ -z "$why" ]
	say "$TAG builds with ukasan-cc" $? "$why"
else
	say "$TAG builds with ukasan-cc" 1 "$(grep -m1 -iE 'error|failed' "$log") (log: $log)"
	ok=0
fi
UK=$WORK/ukasan/testfixture
note "built in $(($(date +%s) - start))s"

# --- the tests ---------------------------------------------------------------

# The last "N errors out of M tests" line of LOG, and the failed tests'
# names after it (tester.tcl's "!Failures on these tests:"), on one line.
counts() {
	n=$(sed -n 's/^\([0-9][0-9]*\) errors* out of \([0-9][0-9]*\) tests.*/\1 errors out of \2 tests/p' "$1" | tail -n 1)
	[ -n "$n" ] || return 0
	f=$(sed -n 's/^!Failures on these tests: *//p' "$1" | tail -n 1)
	echo "$n${f:+ (failed: $f)}"
}

# Runs one test file with testfixture PROGRAM in its own directory; LOG
# gets stdout and stderr.
run_test() { # PROGRAM LOG TEST [UKASAN_OPTIONS]
	rdir=$2.d
	rm -rf "$rdir"
	mkdir -p "$rdir"
	(cd "$rdir" && UKASAN_OPTIONS=${4:-} timeout 900 "$1" "$SRC/$3") >"$2" 2>&1
	echo $? >"$2.rc"
	rm -rf "$rdir"
}

for t in $TESTS; do
	name=$(basename "$t")
	if [ $ok = 0 ]; then
		say "$TAG $name" 1 "not built"
		continue
	fi
	if [ ! -f "$SRC/$t" ]; then
		say "$TAG $name" 1 "no $t in $SRC"
		continue
	fi
	s=$(date +%s)
	run_test "$PLAIN" "$WORK/plain-$name.log" "$t"
	want=$(counts "$WORK/plain-$name.log")
	p=$(date +%s)
	run_test "$UK" "$WORK/ukasan-$name.log" "$t" "$OPTS"
	got=$(counts "$WORK/ukasan-$name.log")
	log=$WORK/ukasan-$name.log
	bug=$(grep -h -m1 -E "$BUGS" "$log" | head -1)
	note "$name: plain: ${want:-no count} in $((p - s))s; ukasan: ${got:-no count} in $(($(date +%s) - p))s"
	if [ -n "$bug" ]; then
		say "$TAG $name" 1 "report: '$bug' (log: $log)"
	elif [ -z "$want" ]; then
		say "$TAG $name" 1 "the plain testfixture printed no 'N errors out of M tests' (log: $WORK/plain-$name.log)"
	elif [ "$got" != "$want" ]; then
		say "$TAG $name" 1 "under ukasan '${got:-no count}', plain '$want' (log: $log)"
	else
		say "$TAG $name" 0
	fi
done
note "$(($(date +%s) - start))s in all, in $WORK"
exit 0
