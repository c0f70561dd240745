#!/bin/sh
# The fuzz target of the runtime's readers of untrusted bytes (ELF section
# headers, notes and symbols; DWARF line tables and inlined functions;
# zlib; .eh_frame and the check of what libgcc reads; the demangler): built
# from their sources with clang-16's libFuzzer, ASan and UBSan, run over the
# committed seeds, then fuzzed for 60 s from them. A crash, a sanitizer
# report or a timeout is a failure; its input is kept in $UKASAN_TEST_TMP.
# docs/design.md (Hostile images): how to run it longer.
ROOT=${UKASAN_ROOT:-$(pwd)}
D=$ROOT/tests/fuzz/readers
S=$ROOT/src/stack
Y=$ROOT/src/symbolize
T=${UKASAN_TEST_TMP:-/tmp}/readers_fuzz
SECONDS_=${READERS_FUZZ_SECONDS:-60}
# the corpus is kept: a longer run by hand goes on from the last one
rm -rf "$T/crashes"
mkdir -p "$T/corpus" "$T/crashes"
unset LD_PRELOAD UKASAN_OPTIONS

if ! command -v clang-16 >/dev/null; then
	echo "not ok readers fuzz: build - clang-16 is missing (make deps)"
	exit 0
fi
if ! clang-16 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$S" -o "$T/fuzz" "$D/_fuzz_readers.c" "$D/_stubs.c" "$Y/elf_image.c" "$Y/dwarf_line.c" \
	"$Y/dwarf_sections.c" "$Y/dwarf_form.c" "$Y/dwarf_info.c" "$Y/dwarf_ranges.c" "$Y/inflate.c" "$S/eh_frame.c" \
	"$S/eh_check.c" "$S/cfi.c" "$Y/demangle.c" "$Y/demangle_print.c" "$Y/demangle_type.c" \
	"$ROOT/src/platform/mem.c" 2>"$T/cc.log"; then
	echo "not ok readers fuzz: build - $(head -c 600 "$T/cc.log")"
	exit 0
fi

# why LOG: the first line of the sanitizer's or libFuzzer's complaint
why() {
	grep -m1 -E 'ERROR: |runtime error|SUMMARY|libFuzzer: (deadly|timeout|out-of-memory)' "$1" |
		cut -c1-300
}

if "$T/fuzz" -runs=0 "$D/seeds" >"$T/seeds.log" 2>&1; then
	echo "ok readers fuzz: every seed ($(ls "$D/seeds" | wc -l) inputs)"
else
	echo "not ok readers fuzz: seeds - $(why "$T/seeds.log")"
fi

cp "$D"/seeds/* "$T/corpus/"
if "$T/fuzz" -max_total_time="$SECONDS_" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$T/crashes/" "$T/corpus" >"$T/fuzz.log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T/fuzz.log")
	cov=$(grep -E '^#[0-9]+' "$T/fuzz.log" | tail -1 | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	echo "ok readers fuzz: $SECONDS_ s, $runs inputs, coverage $cov, no crash"
else
	echo "not ok readers fuzz: $SECONDS_ s - $(why "$T/fuzz.log") (input: $(ls "$T/crashes" | head -1) in $T/crashes)"
fi
