#!/bin/sh
# honggfuzz with ukasan, by the documented recipe (docs/fuzzing.md, "honggfuzz",
# its two sh blocks run as they are; only honggfuzz's run is bounded): a
# harness with three planted bugs (_bugs.c) is fuzzed in persistent mode
# from inputs one bit away from each; each bug must be found and saved once
# (one crash file per bug, though it crashes again and again), and the
# saved input must reproduce the report's title. Then the same under KFENCE
# alone (an uninstrumented build, the preload): no SIGSEGV file, one file
# per bug. A clean harness gives no crash. honggfuzz is built from source
# first (tests/fuzz/honggfuzz.sh): if that fails the test says so.
R=$UKASAN_ROOT
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/honggfuzz
rm -rf "$T"
mkdir -p "$T"
secs=${HONGGFUZZ_SECS:-8}

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

if ! command -v clang-16 >/dev/null; then
	notok "honggfuzz" "clang-16 not installed (the recipe builds with it)"
	exit 0
fi
if ! err=$(sh "$R/tests/fuzz/honggfuzz.sh" "$B" 2>&1 >/dev/null); then
	echo "not ok honggfuzz could not be built: $err"
	exit 0
fi

# The sh blocks of docs/fuzzing.md's section: the first sets HF and PATH (run
# from the tree's root), the second builds and fuzzes (run in a work dir).
awk '/^## honggfuzz/ { on = 1; next } on && /^## / { exit }
	on && /^```sh/ { n++; inb = 1; next } on && /^```/ { inb = 0; next }
	on && inb { print > (dir "/block" n ".sh") }' dir="$T" "$R/docs/fuzzing.md"
if [ ! -s "$T/block1.sh" ] || [ ! -s "$T/block2.sh" ]; then
	notok "honggfuzz recipe" "no two sh blocks under '## honggfuzz' in docs/fuzzing.md"
	exit 0
fi

# recipe DIR SOURCE: the recipe in DIR on SOURCE as harness.c, honggfuzz
# bounded to $secs seconds; its log in DIR/fuzz.log.
recipe() {
	d=$1
	mkdir -p "$d/corpus"
	cp "$2" "$d/harness.c"
	(
		cd "$R" && . "$T/block1.sh"
		cd "$d" || exit 1
		honggfuzz() { command honggfuzz --run_time "$secs" -n 1 -t 10 "$@"; }
		. "$T/block2.sh"
	) >"$d/fuzz.log" 2>&1
}

# saved DIR BUG: the crash files whose input starts with BUG's byte.
saved() {
	for f in "$1"/out/SIG*; do
		[ -f "$f" ] && [ "$(head -c 1 "$f")" = "$2" ] && echo "$f"
	done
}

# check NAME DIR TOOL BUGS ENV...: each of BUGS (IN:KIND ...) saved in one
# file, which reproduces the report's title.
check() {
	name=$1 d=$2 tool=$3 bugs=$4
	shift 4
	if [ ! -x "$d/harness" ]; then
		notok "$name: the recipe builds the harness" "$(tail -n 3 "$d/fuzz.log")"
		return
	fi
	segv=$(ls "$d/out" 2>/dev/null | grep -c '^SIGSEGV')
	[ "$segv" = 0 ] && ok "$name: no SIGSEGV crash file" ||
		notok "$name: no SIGSEGV crash file" "$segv of them"
	for bug in $bugs; do
		in=${bug%%:*} kind=$(echo "${bug#*:}" | tr _ " ")
		files=$(saved "$d" "$in")
		n=$(echo "$files" | grep -c .)
		if [ "$n" != 1 ]; then
			notok "$name: $in saved once" "$n files: $(ls "$d/out" | grep "^SIG" | tr '\n' ' ')"
			continue
		fi
		ok "$name: $in saved once"
		title=$(env ASAN_OPTIONS=abort_on_error=1 UKASAN_OPTIONS=ukasan.symbolize=0 "$@" \
			"$d/harness" <"$files" 2>&1 | grep -m1 '^BUG: ')
		case "$title" in
		"BUG: $tool: "*"$kind"*" in LLVMFuzzerTestOneInput"*)
			if grep -qF "$(echo "$title" | sed 's/+0x.*//')" "$d"/out/HF.sanitizer.log.*; then
				ok "$name: $in's input reproduces the report's title"
			else
				notok "$name: $in's input reproduces the report's title" \
					"'$title' in no report of the run"
			fi ;;
		*) notok "$name: $in's input reproduces the report's title" "got '$title'" ;;
		esac
	done
	crashes=$(grep -o 'crashes_count:[0-9]*' "$d/fuzz.log" | tail -n 1)
	echo "# $name: $crashes, $(ls "$d/out" | grep -c '^SIG') files"
}

# The bugs found from inputs that have none, each one bit away from one
# bug's first byte (N/O, T/U, E/D), then hit again and again. From "hello"
# alone the first byte had to be guessed: in CI, under load, 20 s found
# two of the three.
d=$T/kasan
mkdir -p "$d/corpus"
printf Nhello >"$d/corpus/a"
printf Thello >"$d/corpus/b"
printf Ehello >"$d/corpus/c"
secs=$((secs * 5 / 2)) UKASAN_OPTIONS=ukasan.symbolize=0 recipe "$d" "$R/tests/fuzz/_bugs.c"
check "honggfuzz kasan" "$d" KASAN "O:slab-out-of-bounds U:use-after-free D:double-free"

# KFENCE alone: the harness built without ukasan-cc, the runtime preloaded,
# every allocation guarded; the recipe's honggfuzz line with the preload,
# from the bugs' own inputs: each crashes at once and again on every
# mutation that keeps its first byte, and must be saved once. Not the
# overflow: a read past a 16-byte object is caught only when KFENCE put
# the object against its right guard page, half the time.
d=$T/kfence
mkdir -p "$d/corpus"
printf UAF >"$d/corpus/b"
printf DBL >"$d/corpus/c"
(
	cd "$R" && . "$T/block1.sh"
	cd "$d" && clang-16 -g -O1 -fsanitize-coverage=trace-pc-guard,trace-cmp,indirect-calls \
		-Wl,-u,LIBHFUZZ_module_instrument -Wl,-u,LIBHFUZZ_module_memorycmp \
		"$R/tests/fuzz/_bugs.c" "$HF/libhfuzz.a" "$HF/libhfcommon.a" -lpthread -ldl -lrt \
		-o harness &&
		honggfuzz --run_time "$secs" -n 1 -t 10 -S -P --env LD_PRELOAD="$B/lib/libukasan.so" \
			--env UKASAN_OPTIONS="kfence.sample_rate=1 ukasan.symbolize=0" -i corpus -W out \
			-- ./harness
) >"$d/fuzz.log" 2>&1
check "honggfuzz kfence" "$d" KFENCE "U:use-after-free D:invalid_free" \
	LD_PRELOAD="$B/lib/libukasan.so" UKASAN_OPTIONS="kfence.sample_rate=1 ukasan.symbolize=0"

# A clean harness: no crash in a bounded run.
d=$T/clean
mkdir -p "$d/corpus"
printf OVF >"$d/corpus/a"
printf UAF >"$d/corpus/b"
printf DBL >"$d/corpus/c"
sed 's/if (n < 1)/if (n > 0)/' "$R/tests/fuzz/_bugs.c" >"$T/clean.c"
UKASAN_OPTIONS=ukasan.symbolize=0 recipe "$d" "$T/clean.c"
if [ ! -x "$d/harness" ]; then
	notok "honggfuzz clean: the recipe builds the harness" "$(tail -n 3 "$d/fuzz.log")"
elif ! grep -q 'Summary iterations:[1-9]' "$d/fuzz.log"; then
	notok "honggfuzz clean: no crash" "no run summary: $(tail -n 2 "$d/fuzz.log")"
elif ls "$d/out" | grep -q '^SIG'; then
	notok "honggfuzz clean: no crash" "$(ls "$d/out" | grep '^SIG' | tr '\n' ' ')"
else
	ok "honggfuzz clean: no crash ($(grep -o 'Summary iterations:[0-9]*' "$d/fuzz.log"))"
fi
