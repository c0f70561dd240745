#!/bin/sh
# syzkaller's parser (../shared/tools/syzkaller-titles) on a report inside
# other programs' output. libFuzzer: replaying a crash input prints
# libFuzzer's "INFO: ..." lines before the report, and syzkaller takes any
# line with "INFO:" for the start of a kernel report (the kernel's "INFO:
# task hung", "INFO: rcu detected stall"), so those come first among its
# titles, even with -verbosity=0; that is syzkaller's rule, nothing ukasan
# prints. The report itself keeps its title there, ukasan's lines add none,
# and the report written to its own file (ukasan.log_path, docs/reports.md's
# recipe) is titled alone. Test harnesses: the report under ctest -V's
# "N: " prefix and in pytest's captured-output section keeps its title.
# Skipped, saying why, without the parser or clang-16.
B=${UKASAN_BUILD:-build}
ROOT=${UKASAN_ROOT:-$(pwd)}
T=${UKASAN_TEST_TMP:-/tmp}/syz_fuzz
SYZ=${UKASAN_SYZKALLER_TITLES:-$ROOT/../shared/tools/syzkaller-titles}
rm -rf "$T"
mkdir -p "$T"
unset LD_PRELOAD UKASAN_OPTIONS ASAN_OPTIONS UKASAN_RECOVER FUZZ_BUG

if [ ! -x "$SYZ" ]; then
	echo "ok syzkaller titles in fuzzer and harness output # skipped: syzkaller-titles not found (set UKASAN_SYZKALLER_TITLES)"
	exit 0
fi
if ! command -v clang-16 >/dev/null; then
	echo "ok syzkaller titles in fuzzer and harness output # skipped: clang-16 (libFuzzer) not installed"
	exit 0
fi
want="TITLE: KASAN: slab-out-of-bounds Write in LLVMFuzzerTestOneInput"
ok() { echo "ok $1"; }
notok() { printf 'not ok %s - %s\n' "$1" "$(printf '%s' "$2" | tr -cd '[:print:]\n' | tr '\n' '|')"; }

if ! UKASAN_CC=clang-16 "$B/bin/ukasan-cc" -g -O1 -fsanitize=fuzzer "$ROOT/tests/fuzz/_planted.c" \
	-o "$T/planted" >"$T/cc.log" 2>&1; then
	notok "syzkaller titles: build the fuzz target" "$(head -c 300 "$T/cc.log")"
	exit 0
fi
# The input that reaches the planted heap overflow (FUZZ_BUG=O).
printf 'BUO' >"$T/crash-input"
(cd "$T" && FUZZ_BUG=O UKASAN_OPTIONS="ukasan.log_path=$T/report" timeout 60 ./planted crash-input \
	>out 2>err) 2>/dev/null # (the shell's own "Aborted" line)
st=$?
report=$(ls "$T"/report.* 2>/dev/null | head -1)
if [ $st = 0 ] || [ -z "$report" ]; then
	notok "syzkaller titles: the crash input is reported" "status $st, report file '$report': $(tail -c 300 "$T/err")"
	exit 0
fi

name="syzkaller titles the report in its own file (ukasan.log_path) alone"
got=$("$SYZ" <"$report")
[ "$got" = "$want" ] && ok "$name" || notok "$name" "titles '$got'"

# libFuzzer's stderr, with the report copied in where it went to stderr
# before: libFuzzer's lines, then the report, then libFuzzer's own end.
cat "$T/err" "$report" >"$T/mixed"
name="syzkaller titles the report inside libFuzzer's output; the other titles are libFuzzer's INFO lines"
"$SYZ" <"$T/mixed" >"$T/titles"
last=$(tail -n 1 "$T/titles")
others=$(head -n -1 "$T/titles" | grep -v '^TITLE: INFO: ')
if [ "$last" = "$want" ] && [ -z "$others" ] && [ "$(grep -c "$want" "$T/titles")" = 1 ]; then
	ok "$name"
else
	notok "$name" "titles: $(cat "$T/titles")"
fi
# ...which syzkaller gives nothing else when libFuzzer's INFO lines are
# left out, as docs/reports.md's recipe does for a mixed log.
name="syzkaller titles the report alone in libFuzzer's output without its INFO lines"
got=$(grep -v '^INFO: ' "$T/mixed" | "$SYZ")
[ "$got" = "$want" ] && ok "$name" || notok "$name" "titles '$got'"

# Harnesses: ctest -V prefixes each line of a test's output with "N: ".
name="syzkaller titles the report under ctest -V's 'N: ' prefix"
got=$(sed 's/^/3: /' "$report" | "$SYZ")
[ "$got" = "$want" ] && ok "$name" || notok "$name" "titles '$got'"
# pytest prints a failed test's stderr after a header and its own lines.
name="syzkaller titles the report in pytest's captured stderr"
{
	echo "=================================== FAILURES ==================================="
	echo "__________________________________ test_parse __________________________________"
	echo "E       AssertionError: exit status 1"
	echo "----------------------------- Captured stderr call -----------------------------"
	cat "$report"
	echo "=========================== short test summary info ============================"
	echo "FAILED test_fuzz.py::test_parse - AssertionError: exit status 1"
} | "$SYZ" >"$T/pytest_titles"
got=$(cat "$T/pytest_titles")
[ "$got" = "$want" ] && ok "$name" || notok "$name" "titles '$got'"
