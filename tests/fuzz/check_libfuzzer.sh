#!/bin/sh
# libFuzzer finds, saves and deduplicates the bugs ukasan reports: the
# docs/fuzzing.md's libFuzzer recipe, run as written, on targets with
# a planted heap overflow, use after free and double free; the crash file
# reproduces the report and status; DEDUP_TOKEN is stable and tells bugs
# apart; -fork, -jobs, -minimize_crash and -merge work; a strcmp-guarded
# bug is found through the comparison hooks; a clean target gives no
# crash; the link-line variants (fuzzer-no-link, -fsanitize-coverage=)
# build and read UKASAN_OPTIONS. Each fuzzing run is bounded to seconds.
R=$UKASAN_ROOT
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/libfuzzer
rm -rf "$T"
mkdir -p "$T"
CC=$B/bin/ukasan-cc
D=$R/tests/fuzz
unset UKASAN_RECOVER UKASAN_INSTRUMENT UKASAN_MODE UKASAN_OPTIONS ASAN_OPTIONS FUZZ_BUG
# The recipe's runs with the defaults, KFENCE on: a sample could take the
# buggy object (one allocation in 100 ms of some hundred thousand), and
# the title be KFENCE's; the token is the same (KASAN's bug type).

ok() { echo "ok $1"; }
# Fuzzer logs hold the inputs' raw bytes: printable text only.
notok() { printf 'not ok %s - %s\n' "$1" "$(printf '%s' "$2" | tr -cd '[:print:]\n')"; }

if ! command -v clang-16 >/dev/null; then
	notok "libFuzzer with ukasan-cc" "clang-16 not installed"
	exit 0
fi
export UKASAN_CC=clang-16

# The recipe's build line, for each target.
for t in planted strcmp clean leak; do
	name="recipe build: ukasan-cc -fsanitize=fuzzer ($t)"
	if "$CC" -g -O1 -fsanitize=fuzzer "$D/_$t.c" -o "$T/$t" >"$T/$t.err" 2>&1; then
		ok "$name"
	else
		notok "$name" "$(head -c 400 "$T/$t.err")"
	fi
done

title() { grep -a -m1 '^BUG: ' "$1"; }
token() { grep -a -m1 '^DEDUP_TOKEN: ' "$1"; }

# fuzz DIR ARGS...: the target's run in DIR (fresh), as the recipe has it;
# output in DIR/out, status in st, crash the crash file written.
fuzz() {
	dir=$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir/corpus"
	(cd "$dir" && timeout 120 "$@" >out 2>&1)
	st=$?
	crash=$(ls "$dir"/crash-* 2>/dev/null | head -1)
}

tokens=
for bug in O:slab-out-of-bounds U:slab-use-after-free D:double-free; do
	letter=${bug%%:*} kind=${bug#*:}
	export FUZZ_BUG=$letter
	fuzz "$T/run_$letter" ../planted -max_total_time=30 corpus
	want="BUG: KASAN: $kind in LLVMFuzzerTestOneInput"
	name="fuzzing finds the planted $kind, the report complete before the abort"
	case "$(title "$T/run_$letter/out")" in
	"$want"*) if [ $st = 134 ] && grep -aq '^DEDUP_TOKEN: ' "$T/run_$letter/out" &&
		grep -aq '^====' "$T/run_$letter/out"; then ok "$name"
		else notok "$name" "status $st: $(tail -c 600 "$T/run_$letter/out")"; fi ;;
	*) notok "$name" "status $st: $(tail -c 600 "$T/run_$letter/out")" ;;
	esac
	name="libFuzzer saves the $kind's input (crash-* file)"
	if [ -n "$crash" ] && grep -aq "Test unit written to ./crash-" "$T/run_$letter/out"; then
		ok "$name"
	else
		notok "$name" "no crash file; status $st: $(tail -c 400 "$T/run_$letter/out")"
		continue
	fi
	# Reproducing: the recipe's line, twice, KFENCE off: the replay's
	# start is short, and on a loaded machine its first 100 ms can end
	# just before the buggy allocation, which KFENCE then samples (a
	# KFENCE title, seen in 2 of 4 runs at load 17).
	for i in 1 2; do
		(cd "$T/run_$letter" && UKASAN_OPTIONS=kfence.sample_interval=0 timeout 60 \
			../planted "$crash" >rep$i 2>&1)
		eval "st$i=\$?"
	done
	a=$T/run_$letter/out r1=$T/run_$letter/rep1 r2=$T/run_$letter/rep2
	name="the $kind's crash file reproduces the report's title and status"
	if [ -n "$(title "$r1")" ] && [ "$(title "$r1")" = "$(title "$a")" ] && [ "$st1" = "$st" ]; then
		ok "$name"
	else
		notok "$name" "fuzzing: '$(title "$a")' status $st; replay: '$(title "$r1")' status $st1"
	fi
	name="DEDUP_TOKEN of the $kind stable across runs, fuzzing and replay"
	if [ -n "$(token "$r1")" ] && [ "$(token "$r1")" = "$(token "$r2")" ] &&
		[ "$(token "$r1")" = "$(token "$a")" ]; then
		ok "$name"
	else
		notok "$name" "'$(token "$a")', '$(token "$r1")', '$(token "$r2")'"
	fi
	tokens="$tokens$(token "$r1")
"
done
unset FUZZ_BUG
# From here KFENCE is off, so that reports are KASAN's.
export UKASAN_OPTIONS=kfence.sample_interval=0
name="DEDUP_TOKEN differs between the three bugs"
n=$(printf '%s' "$tokens" | grep -c .)
u=$(printf '%s' "$tokens" | sort -u | grep -c .)
if [ "$n" = 3 ] && [ "$u" = 3 ]; then ok "$name"; else notok "$name" "$tokens"; fi

# -fork=2, crashes ignored: the parent counts them from the children's
# status, and they keep coming.
export FUZZ_BUG=U
fuzz "$T/fork" env UKASAN_OPTIONS="kfence.sample_interval=0 ukasan.symbolize=0" \
	../planted -fork=2 -ignore_crashes=1 -max_total_time=6 corpus
n=$(grep -a 'oom/timeout/crash:' "$T/fork/out" | tail -1 | sed 's|.*oom/timeout/crash: [0-9]*/[0-9]*/\([0-9]*\).*|\1|')
name="-fork=2 counts the crashes"
if [ "${n:-0}" -gt 0 ] 2>/dev/null && [ -n "$crash" ]; then ok "$name ($n)"; else
	notok "$name" "status $st: $(tail -c 600 "$T/fork/out")"; fi

# -jobs=2: each job's log has the report, and its input is saved. Two
# jobs may find the same input ("BUU"), and so write one crash file, whose
# name is the input's hash: each log must name a file that is there.
fuzz "$T/jobs" ../planted -jobs=2 -workers=2 -max_total_time=20 corpus
name="-jobs=2: each job reports and saves its input"
saved=0
for log in "$T"/jobs/fuzz-0.log "$T"/jobs/fuzz-1.log; do
	f=$(grep -ao 'Test unit written to ./crash-[0-9a-f]*' "$log" 2>/dev/null | tail -n 1 | sed 's|.*\./||')
	if grep -aq '^BUG: KASAN: slab-use-after-free' "$log" 2>/dev/null && [ -n "$f" ] &&
		[ -s "$T/jobs/$f" ]; then saved=$((saved + 1)); fi
done
if [ $saved = 2 ]; then ok "$name"; else
	notok "$name" "$saved of 2 jobs; status $st: $(tail -c 400 "$T"/jobs/fuzz-0.log)"; fi

# -minimize_crash=1: the children's DEDUP_TOKENs agree, and the input
# shrinks to what the bug needs ("BUU").
big=$T/minimize/big
mkdir -p "$T/minimize"
printf 'BUUxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' >"$big"
(cd "$T/minimize" && timeout 120 env UKASAN_OPTIONS="kfence.sample_interval=0 ukasan.symbolize=0" \
	../planted -minimize_crash=1 -runs=3000 -exact_artifact_path=min big >out 2>&1)
st=$?
name="-minimize_crash=1 shrinks the crash with matching DEDUP_TOKENs"
if [ $st = 0 ] && [ -f "$T/minimize/min" ] && [ "$(wc -c <"$T/minimize/min")" -lt 34 ] &&
	grep -aq 'CRASH_MIN: DedupToken2: DEDUP_TOKEN: slab-use-after-free' "$T/minimize/out" &&
	! grep -aq 'mismatch in dedup tokens' "$T/minimize/out"; then
	ok "$name ($(wc -c <"$T/minimize/min") bytes)"
else
	notok "$name" "status $st: $(grep -a 'CRASH_MIN\|ERROR' "$T/minimize/out" | tail -5)"
fi
unset FUZZ_BUG

# The value profile: the strcmp's operands lead to the bug.
fuzz "$T/run_strcmp" ../strcmp -max_total_time=30 corpus
name="a strcmp-guarded bug is found (libFuzzer's comparison hooks)"
case "$(title "$T/run_strcmp/out")" in
"BUG: KASAN: slab-out-of-bounds in LLVMFuzzerTestOneInput"*) [ -n "$crash" ] && ok "$name" ||
	notok "$name" "no crash file" ;;
*) notok "$name" "status $st: $(tail -c 400 "$T/run_strcmp/out")" ;;
esac

# A clean target: no report, no crash file, status 0; then -merge=1 of its
# corpus into a new one.
fuzz "$T/run_clean" ../clean -max_total_time=5 corpus
name="a clean target gives no crash in a bounded run"
if [ $st = 0 ] && [ -z "$crash" ] && ! grep -aq '^BUG\|ukasan:' "$T/run_clean/out"; then ok "$name"; else
	notok "$name" "status $st: $(tail -c 400 "$T/run_clean/out")"; fi
mkdir -p "$T/run_clean/merged"
(cd "$T/run_clean" && timeout 60 ../clean -merge=1 merged corpus >merge.out 2>&1)
st=$?
name="-merge=1 of the clean target's corpus"
if [ $st = 0 ] && [ -n "$(ls "$T/run_clean/merged")" ] && grep -aq 'MERGE-OUTER: .* new files' "$T/run_clean/merge.out"; then
	ok "$name"; else notok "$name" "status $st: $(tail -c 400 "$T/run_clean/merge.out")"; fi

# A leak in one input: kmemleak's report, then libFuzzer's leak-* file.
fuzz "$T/run_leak" ../leak -max_total_time=30 corpus
name="a leak in one input is reported and its input saved (leak-*)"
if [ $st != 0 ] && ls "$T"/run_leak/leak-* >/dev/null 2>&1 &&
	grep -aq '^BUG: memory leak' "$T/run_leak/out"; then ok "$name"; else
	notok "$name" "status $st: $(tail -c 400 "$T/run_leak/out")"; fi

# Link-line variants: clang's driver would add its UBSan runtime, whose
# death callback and options stand for ukasan's.
O=$T/run_O
crash=$(ls "$O"/crash-* 2>/dev/null | head -1)
"$CC" -g -O1 -fsanitize=fuzzer-no-link -c "$D/_planted.c" -o "$T/planted.o" >"$T/v.err" 2>&1
for v in "nolink:-fsanitize=fuzzer-no-link -fsanitize=fuzzer" \
	"cov:-fsanitize-coverage=inline-8bit-counters,trace-cmp -fsanitize=fuzzer -lstdc++"; do
	vn=${v%%:*} flags=${v#*:}
	name="link line $flags: builds, reproduces, reads UKASAN_OPTIONS"
	# shellcheck disable=SC2086
	if ! "$CC" $flags "$T/planted.o" -o "$T/v_$vn" >>"$T/v.err" 2>&1; then
		notok "$name" "$(tail -c 400 "$T/v.err")"
		continue
	fi
	out=$(cd "$O" && FUZZ_BUG=O timeout 60 "$T/v_$vn" "$crash" 2>&1)
	s1=$?
	out0=$(cd "$O" && FUZZ_BUG=O UKASAN_OPTIONS="kfence.sample_interval=0 ukasan.dedup_token_length=0" \
		timeout 60 "$T/v_$vn" "$crash" 2>&1)
	case "$out" in
	*"BUG: KASAN: slab-out-of-bounds in LLVMFuzzerTestOneInput"*DEDUP_TOKEN:*)
		if [ $s1 = 134 ] && [ -n "$crash" ] && ! printf '%s' "$out0" | grep -q DEDUP_TOKEN &&
			! nm "$T/v_$vn" | grep -q __ubsan; then ok "$name"
		else notok "$name" "status $s1; with dedup_token_length=0: $(printf '%s' "$out0" | grep -c DEDUP)"; fi ;;
	*) notok "$name" "status $s1: $(printf '%s' "$out" | tail -c 400)" ;;
	esac
done

# -fsanitize=address,undefined,fuzzer: clang's UBSan runtime comes along,
# and its own __sanitizer_set_death_callback took libFuzzer's callback
# (a KASAN report then left no crash file). Both kinds of report save
# their input, and the crash files reproduce them.
for t in planted:U:"BUG: KASAN: slab-use-after-free in LLVMFuzzerTestOneInput":134 \
	ubsan::"_ubsan.c:11:11: runtime error: shift exponent":1; do
	src=${t%%:*} rest=${t#*:}
	bug=${rest%%:*} rest=${rest#*:}
	want=${rest%:*} wst=${rest##*:}
	name="-fsanitize=address,undefined,fuzzer: the $src target's report saves its input, which reproduces it"
	if ! "$CC" -g -O1 -fsanitize=address,undefined,fuzzer -fno-sanitize-recover=undefined \
		"$D/_$src.c" -o "$T/ub_$src" >"$T/ub.err" 2>&1; then
		notok "$name" "build: $(tail -c 400 "$T/ub.err")"
		continue
	fi
	FUZZ_BUG=$bug fuzz "$T/ub_run_$src" "../ub_$src" -max_total_time=30 corpus
	if [ -z "$crash" ]; then
		notok "$name" "no crash file; status $st: $(tail -c 400 "$T/ub_run_$src/out")"
		continue
	fi
	out=$(cd "$T/ub_run_$src" && FUZZ_BUG=$bug timeout 60 "../ub_$src" "$crash" 2>&1)
	s1=$?
	case "$out" in
	*"$want"*) if [ $s1 = "$wst" ] && [ $st = "$wst" ]; then ok "$name"; else
		notok "$name" "status $st fuzzing, $s1 replaying, not $wst"; fi ;;
	*) notok "$name" "replay status $s1: $(printf '%s' "$out" | tail -c 400)" ;;
	esac
done
