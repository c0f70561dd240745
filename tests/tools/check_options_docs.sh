#!/bin/sh
# The options table (src/config/options.inc) is the one description of the
# options: docs/options.md and man/ukasan-options.7 are what
# tools/gen_options_docs.py makes of it, help=1 lists every row, and the man
# page renders without a warning.
R=$UKASAN_ROOT
T=$UKASAN_TEST_TMP/options_docs
mkdir -p "$T"
unset UKASAN_OPTIONS ASAN_OPTIONS LSAN_OPTIONS

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

if python3 "$R/tools/gen_options_docs.py" --check >"$T/diff" 2>&1; then
	ok "docs/options.md and man/ukasan-options.7 are what options.inc makes"
else
	notok "docs/options.md and man/ukasan-options.7 are what options.inc makes" \
		"stale, run python3 tools/gen_options_docs.py: $(head -c 1500 "$T/diff")"
fi

# The sinks' words are report/'s (src/report/sinks.inc, CHOICES_FROM): a
# sink added there and not to the documents makes them stale too.
C=$T/copy
rm -rf "$C" && mkdir -p "$C/tools" "$C/src/config" "$C/src/report" "$C/docs" "$C/man"
cp "$R/tools/gen_options_docs.py" "$C/tools/" && cp "$R/src/config/options.inc" "$C/src/config/" &&
	cp "$R/src/report/sinks.inc" "$C/src/report/" && cp "$R/docs/options.md" "$C/docs/" &&
	cp "$R/man/ukasan-options.7" "$C/man/"
echo 'SINK(SINK_PIGEON, "pigeon", "a bird")' >>"$C/src/report/sinks.inc"
if python3 "$C/tools/gen_options_docs.py" --check >"$T/diff2" 2>&1; then
	notok "a sink added to src/report/sinks.inc makes the documents stale" "--check passed"
elif grep -q "pigeon (a bird)" "$T/diff2"; then
	ok "a sink added to src/report/sinks.inc makes the documents stale"
else
	notok "a sink added to src/report/sinks.inc makes the documents stale" "$(head -c 600 "$T/diff2")"
fi

# help=1: each option once, NAME=DEFAULT as the table has it (every default
# parsed at start without a complaint), then each ASan key.
python3 "$R/tools/gen_options_docs.py" --list >"$T/list" || { notok "gen_options_docs.py --list" "$(cat "$T/list")"; exit 0; }
UKASAN_OPTIONS=help=1 LD_PRELOAD="$UKASAN_BUILD/lib/libukasan.so" /bin/true 2>"$T/help"
missing=
while read -r kind word; do
	case $kind in
	option) n=$(awk -v w="  $word " 'substr($0, 1, length(w)) == w' "$T/help" | wc -l)
		[ "$n" -eq 1 ] || missing="$missing $word" ;;
	asan) grep -q -E "^  $word +[^ ]" "$T/help" || missing="$missing $word" ;;
	esac
done <"$T/list"
want=$(grep -c "^option " "$T/list")
got=$(sed -n '/^ukasan: options,/,/^ukasan: ASAN_OPTIONS/p' "$T/help" | grep -c "^  ")
if [ -z "$missing" ] && [ "$want" = "$got" ] && ! grep -q "options.inc's default" "$T/help"; then
	ok "help=1 lists every option of the table with its default, and every ASan key"
else
	notok "help=1 lists every option of the table with its default, and every ASan key" \
		"missing:$missing; $got option lines for $want options; $(grep "options.inc's default" "$T/help" | head -3)"
fi

if command -v groff >/dev/null; then
	groff -man -Tutf8 -ww -z "$R/man/ukasan-options.7" >"$T/groff" 2>&1
	[ -s "$T/groff" ] && notok "ukasan-options.7 renders without warnings" "$(head -5 "$T/groff")" ||
		ok "ukasan-options.7 renders without warnings"
else
	ok "ukasan-options.7 renders without warnings # skipped: no groff"
fi
