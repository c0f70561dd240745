#!/bin/sh
# AFL++ on targets built with docs/fuzzing.md's recipe (AFL_CC=ukasan-cc
# CC=afl-clang-fast), in each of its LLVM modes that Debian's afl++ has:
# PCGUARD (the default), CLASSIC (AFL_LLVM_INSTRUMENT=CLASSIC) and LTO
# (afl-clang-lto, when ld.lld is there). afl-fuzz gets no -m, no
# ASAN_OPTIONS: its own defaults, as a user would run it. Per mode:
#   builds with the recipe          the target carries ukasan's checks
#   zeros follow the coverage guards    (PCGUARD) what lies at
#                                   __stop___sancov_guards reads as 0, as in
#                                   a plain or ASan build: PCGUARD computes
#                                   guard addresses up to there
#                                   (_after_guards.py)
#   finds KIND                      for each planted bug (_afl_bugs.c:
#                                   overflow, uaf, double), a run bounded by
#                                   AFL_BENCH_UNTIL_CRASH and -V saves a
#                                   crash under crashes/, by SIGABRT (sig:06:
#                                   the report ended the run, as ASan's
#                                   abort_on_error=1 does)
#   reproduces KIND                 the saved input, run alone, prints the
#                                   bug's title line and ends non-zero
#   afl-tmin                        minimises the overflow's crash to an
#                                   input that still reproduces it
#   afl-cmin                        keeps at least one input of the queue
# and one clean target, libyaml's parser (Debian's source package,
# tests/projects/_debsrc.sh), built the same way in PCGUARD mode:
#   libyaml: no crash in N s        UKASAN_AFL_CLEAN_SECONDS (default 60)
# UKASAN_AFL_SECONDS bounds each bug's run (default 60; they take seconds).
set -u
ROOT=${UKASAN_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${UKASAN_BUILD:-$ROOT/build}
TMP=${UKASAN_TEST_TMP:-$(mktemp -d)}
WRAP=$BUILD/bin/ukasan-cc
WORK=$TMP/afl
HERE=$ROOT/tests/fuzz
BUG_SECONDS=${UKASAN_AFL_SECONDS:-60}
CLEAN_SECONDS=${UKASAN_AFL_CLEAN_SECONDS:-60}
mkdir -p "$WORK"

if [ ! -x "$WRAP" ]; then
	echo "not ok afl - $WRAP missing: run make first"
	exit 0
fi
if ! command -v afl-fuzz >/dev/null || ! command -v afl-clang-fast >/dev/null; then
	echo "not ok afl - AFL++ is not installed (tools/deps.sh test installs afl++)"
	exit 0
fi
# Bounded, quiet runs on a shared machine: no screen, no CPU binding, and
# no refusal over the system's core_pattern or CPU governor.
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
unset ASAN_OPTIONS UKASAN_OPTIONS AFL_USE_ASAN

# fuzz OUT SECONDS TARGET ARGS...: afl-fuzz over $WORK/seeds-$SEEDS.
fuzz() {
	out=$1 secs=$2
	shift 2
	rm -rf "$out"
	timeout $((secs + 60)) afl-fuzz -i "$SEEDS" -o "$out" -V "$secs" -- "$@" >"$out.log" 2>&1
}

stat_of() {
	sed -n "s/^$2 *: *//p" "$1/default/fuzzer_stats" 2>/dev/null
}

SEEDS=$WORK/seeds-bugs
mkdir -p "$SEEDS"
printf 'AAAAAAAA' >"$SEEDS/a"

modes="pcguard classic"
if command -v afl-clang-lto >/dev/null && afl-cc -h 2>&1 | grep -q 'LTO:.*AVAILABLE'; then
	modes="$modes lto"
else
	echo "ok afl [lto] # skipped: afl-clang-lto has no LTO here (ld.lld of its LLVM: lld-14)"
fi

for mode in $modes; do
	t="afl [$mode]"
	case $mode in
	pcguard) drv=afl-clang-fast env= ;;
	classic) drv=afl-clang-fast env=AFL_LLVM_INSTRUMENT=CLASSIC ;;
	lto) drv=afl-clang-lto env= ;;
	esac
	bin=$WORK/bugs-$mode
	rm -f "$bin"
	# The documented recipe, with the compiler called directly.
	if ! env $env AFL_CC="$WRAP" "$drv" -g -O1 "$HERE/_afl_bugs.c" -o "$bin" \
		>"$bin.log" 2>&1 || ! nm "$bin" | grep -q __afl_area_ptr ||
		! objdump -d "$bin" | grep -q 'call.*<__asan_report_'; then
		echo "not ok $t builds with the recipe - no instrumented target (log: $bin.log)"
		continue
	fi
	echo "ok $t builds with the recipe"
	if [ $mode = pcguard ]; then
		after=$(python3 "$HERE/_after_guards.py" "$bin")
		case "$after" in
		*" 0x0") echo "ok $t zeros follow the coverage guards" ;;
		*) echo "not ok $t zeros follow the coverage guards - $after at __stop___sancov_guards: a guard read one past the end indexes the map out of bounds" ;;
		esac
	fi
	for kind in overflow uaf double; do
		case $kind in
		overflow) title='BUG: KASAN: slab-out-of-bounds in heap_overflow' ;;
		uaf) title='BUG: KASAN: slab-use-after-free in use_after_free' ;;
		double) title='BUG: KASAN: double-free in double_free' ;;
		esac
		out=$WORK/out-$mode-$kind
		AFL_BENCH_UNTIL_CRASH=1 fuzz "$out" "$BUG_SECONDS" "$bin" $kind @@
		crash=$(ls "$out"/default/crashes/id:* 2>/dev/null | head -1)
		if [ -z "$crash" ]; then
			echo "not ok $t finds $kind - no crash saved in ${BUG_SECONDS}s (log: $out.log)"
			continue
		fi
		case "$crash" in
		*,sig:06,*) echo "ok $t finds $kind" ;;
		*) echo "not ok $t finds $kind - the crash was not SIGABRT: $(basename "$crash")" ;;
		esac
		"$bin" $kind "$crash" >"$out.repro" 2>&1
		st=$?
		if [ $st != 0 ] && grep -q "^$title" "$out.repro"; then
			echo "ok $t reproduces $kind"
		else
			echo "not ok $t reproduces $kind - status $st, $(grep -m1 '^BUG' "$out.repro" || echo no report) (log: $out.repro)"
		fi
		[ $kind = overflow ] || continue
		min=$WORK/min-$mode
		rm -f "$min"
		if afl-tmin -i "$crash" -o "$min" -- "$bin" $kind @@ >"$min.log" 2>&1 &&
			[ -s "$min" ] && [ "$(wc -c <"$min")" -le "$(wc -c <"$crash")" ] &&
			! "$bin" $kind "$min" >"$min.repro" 2>&1 && grep -q "^$title" "$min.repro"; then
			echo "ok $t afl-tmin"
		else
			echo "not ok $t afl-tmin - no smaller input that reproduces (log: $min.log)"
		fi
		cmin=$WORK/cmin-$mode
		rm -rf "$cmin"
		# afl-cmin refuses /tmp, where the tests' files are, unless told.
		if AFL_ALLOW_TMP=1 afl-cmin -i "$out/default/queue" -o "$cmin" -- "$bin" $kind @@ >"$cmin.log" 2>&1 &&
			[ -n "$(ls "$cmin" 2>/dev/null)" ]; then
			echo "ok $t afl-cmin"
		else
			echo "not ok $t afl-cmin - nothing kept (log: $cmin.log)"
		fi
	done
done

# The clean target.
t="afl [pcguard] libyaml"
. "$ROOT/tests/projects/_debsrc.sh"
SRC=$(debsrc_get libyaml CMakeLists.txt include/yaml.h src/parser.c) || {
	echo "$SRC"
	exit 0
}
bin=$WORK/yaml-pcguard
rm -f "$bin"
if ! AFL_CC="$WRAP" afl-clang-fast -g -O2 -DYAML_VERSION_MAJOR=0 -DYAML_VERSION_MINOR=2 \
	-DYAML_VERSION_PATCH=5 -DYAML_VERSION_STRING='"0.2.5"' -I"$SRC/include" \
	"$HERE/_afl_yaml.c" "$SRC"/src/*.c -o "$bin" >"$bin.log" 2>&1; then
	echo "not ok $t builds with the recipe (log: $bin.log)"
	exit 0
fi
SEEDS=$WORK/seeds-yaml
mkdir -p "$SEEDS"
cp "$SRC"/examples/*.yaml "$SEEDS"/
out=$WORK/out-yaml
fuzz "$out" "$CLEAN_SECONDS" "$bin" @@
crashes=$(stat_of "$out" saved_crashes) execs=$(stat_of "$out" execs_done)
if [ "$crashes" = 0 ] && [ "${execs:-0}" -gt 0 ]; then
	echo "ok $t: no crash in ${CLEAN_SECONDS}s ($execs runs)"
else
	echo "not ok $t: no crash in ${CLEAN_SECONDS}s - ${crashes:-?} crashes in ${execs:-?} runs (log: $out.log; $out/default/crashes)"
fi
