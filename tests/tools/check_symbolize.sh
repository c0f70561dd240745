#!/bin/sh
# ukasan symbolize: frames [NAME+0xOFF BUILDID] get file:line offline, from
# a debug file found by build-id, as from the unstripped binary. The reports
# are written here by hand from a real program's symbols, then (end to end)
# taken from the runtime.
B=${UKASAN_BUILD:-build}
ROOT=${UKASAN_ROOT:-$(pwd)}
T=${UKASAN_TEST_TMP:-/tmp}/symbolize
rm -rf "$T"
mkdir -p "$T/dbg" "$T/tree"
unset LD_PRELOAD UKASAN_OPTIONS
SYM="$(cd "$B/bin" && pwd)/ukasan symbolize"

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

gcc -g -O1 -o "$T/prog" "$ROOT/tests/tools/_symbolize.c" || { notok "symbolize: build" "gcc failed"; exit 0; }
objcopy --only-keep-debug "$T/prog" "$T/prog.debug"
strip -o "$T/prog.stripped" "$T/prog"
bid=$(readelf -n "$T/prog" | sed -n 's/^ *Build ID: *//p')
sbid=$(readelf -n "$T/prog.stripped" | sed -n 's/^ *Build ID: *//p')
if [ -z "$bid" ] || [ "$bid" != "$sbid" ]; then
	notok "symbolize: build-id" "prog '$bid', stripped '$sbid'"
	exit 0
fi
cp "$T/prog.debug" "$T/dbg/"
mkdir -p "$T/tree/.build-id/$(echo "$bid" | cut -c1-2)"
cp "$T/prog.debug" "$T/tree/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"

# The reference: llvm-symbolizer (else addr2line) on the unstripped binary,
# one "function file:line" line per frame, innermost first, paths shown as
# the runtime shows them (relative to the current directory under it).
LLVM=
for l in /usr/bin/llvm-symbolizer /usr/lib/llvm-16/bin/llvm-symbolizer \
	/usr/lib/llvm-15/bin/llvm-symbolizer /usr/lib/llvm-14/bin/llvm-symbolizer; do
	[ -x "$l" ] && { LLVM=$l; break; }
done
ref() { # ADDR (hex, 0x...)
	if [ -n "$LLVM" ]; then
		"$LLVM" --obj="$T/prog" --inlines --functions=linkage --demangle --output-style=GNU "$1"
	else
		addr2line -f -i -C -e "$T/prog" "$1"
	fi | sed -e '/^$/d' -e 's/ (discriminator [0-9]*)$//' -e "s|^$(pwd)/||" | paste - - | tr '\t' ' '
}
sym_value() { readelf -Ws "$T/prog" | awk -v n="$1" '$8 == n && $4 == "FUNC" { print $2, $3 }'; }

set -- $(sym_value outer)
outer=$((0x$1)) outer_size=$2
set -- $(sym_value main)
main=$((0x$1))
# An address of outer() inside the inlined scale(): the first whose
# reference has two frames.
d=0 in_scale=
while [ $d -lt "$outer_size" ]; do
	if [ "$(ref "$(printf 0x%x $((outer + d)))" | wc -l)" -ge 2 ]; then
		in_scale=$d
		break
	fi
	d=$((d + 1))
done
if [ -z "$in_scale" ]; then
	notok "symbolize: inlined code in outer()" "no address of outer() is in scale()"
	exit 0
fi
# Offsets as the runtime prints them: OFF-1 lies in the instruction.
off_o=$(printf %x $((outer + in_scale + 1)))
off_m=$(printf %x $((main + 4 + 1)))
ref_o=$(ref "$(printf 0x%x $((outer + in_scale)))")
ref_m=$(ref "$(printf 0x%x $((main + 4)))")
inl=$(echo "$ref_o" | head -1)    # scale FILE:LINE
phys_o=$(echo "$ref_o" | tail -1)  # outer FILE:LINE
line_o=${phys_o#* }
line_m=$(echo "$ref_m" | tail -1)
line_m=${line_m#* }

# A report: a title, frames, an object line, headers, a dump, and lines
# that are not frames of a module with a build-id.
bare=" 0x55d1c0a0$off_o [prog.stripped+0x$off_o $bid]"
f_o=" outer+0x$(printf %x $((in_scale + 1)))/0x$(printf %x $((outer_size))) [prog.stripped+0x$off_o $bid]"
f_m=" main+0x5/0x40 [prog.stripped+0x$off_m $bid]"
unknown=" lib_fn+0x10/0x40 [libother.so+0x1130 0123456789abcdef0123456789abcdef01234567]"
nobid=" main+0x5/0x40 [prog+0x$off_m]"
head="==================================================================
BUG: KFENCE: use-after-free read in outer+0x5/0x20

Use-after-free read at 0x7f9d41402fd0 (in kfence-#0):"
rest=" fn+0x1b/0x60 src/lib.c:7 [libfoo.so]
$unknown
 __libc_start_call_main+0x7a/0xac ./csu/../sysdeps/nptl/libc_start_call_main.h:58 [libc.so.6]

kfence-#0: 0x7f9d41402fd0-0x7f9d41402ff3, size=36, cache=malloc
Corrupted memory at 0x7f9d41402ff4 [ 0x42 . 0x43 ]   
allocated by task 6550 on cpu 1 at 917.866598s:
app[12]: [prog.stripped+0x10]
CPU: 1 UID: 0 PID: 6550 Comm: prog
=================================================================="
printf '%s\n%s\n%s\n%s\n%s\n' "$head" "$bare" "$f_o" "$f_m" "$rest" >"$T/report"
printf '%s\n%s' "$head" "$rest" >"$T/plain"
printf '\r\n' >>"$T/plain"

out=$($SYM --debug-dir "$T/dbg" "$T/report" 2>"$T/err")
st=$?
if [ $st -ne 0 ] || [ -s "$T/err" ]; then
	notok "symbolize: runs" "status $st: $(cat "$T/err")"
else
	ok "symbolize: runs"
fi

# The physical frames: file:line as llvm-symbolizer gives it for OFF-1 on
# the unstripped binary, before the bracket, func+off/size kept.
want_o="$(echo "$f_o" | sed 's/ \[.*//') $line_o [prog.stripped+0x$off_o $bid]"
want_m="$(echo "$f_m" | sed 's/ \[.*//') $line_m [prog.stripped+0x$off_m $bid]"
echo "$out" | grep -qxF -- "$want_m" && ok "symbolize: file:line of main from the debug file" ||
	notok "symbolize: file:line of main from the debug file" "want '$want_m' in: $out"
echo "$out" | grep -qxF -- "$want_o" && ok "symbolize: file:line of outer from the debug file" ||
	notok "symbolize: file:line of outer from the debug file" "want '$want_o' in: $out"
case "$line_o" in *_symbolize.c:[0-9]*) ;; *) notok "symbolize: reference" "llvm-symbolizer gave '$line_o'" ;; esac

# The inlined frame first, as decode_stacktrace.sh prints it.
want_i=" $inl [inline]"
if echo "$out" | grep -xF -A1 -- "$want_i" | tail -1 | grep -qxF -- "$want_o"; then
	ok "symbolize: inlined frame printed before its caller"
else
	notok "symbolize: inlined frame printed before its caller" "want '$want_i' then '$want_o' in: $out"
fi
case "$inl" in "scale "*) ;; *) notok "symbolize: reference inline" "'$inl'" ;; esac

# A bare address becomes func+0xOFF/0xSIZE from the debug file's symbols.
want_b=" outer+0x$(printf %x $((in_scale + 1)))/0x$(printf %x "$outer_size") $line_o [prog.stripped+0x$off_o $bid]"
[ "$(echo "$out" | grep -c -xF -- "$want_b")" = 2 ] && ok "symbolize: bare address gets function+offset/size" ||
	notok "symbolize: bare address gets function+offset/size" "want '$want_b' twice in: $out"

# Everything that is not a frame with a known build-id, byte for byte: the
# report's lines, and a file of them alone (no final newline, CRLF).
[ "$(echo "$out" | head -4)" = "$head" ] && [ "$(echo "$out" | tail -n "$(echo "$rest" | wc -l)")" = "$rest" ] &&
	ok "symbolize: other lines of the report unchanged" ||
	notok "symbolize: other lines of the report unchanged" "$out"
$SYM --debug-dir "$T/dbg" <"$T/plain" >"$T/plain.out" 2>"$T/err"
cmp -s "$T/plain" "$T/plain.out" && ok "symbolize: input without frames passes byte for byte" ||
	notok "symbolize: input without frames passes byte for byte" "$(od -c "$T/plain.out" | tail -5)"
echo "$out" | grep -qxF -- "$unknown" && ok "symbolize: frame of an unknown build-id unchanged" ||
	notok "symbolize: frame of an unknown build-id unchanged" "$out"

# The same from the unstripped binary (--exe), from a build-id tree, and
# again over its own output (nothing left to do).
out_exe=$($SYM --exe "$T/prog" "$T/report" 2>&1)
[ "$out_exe" = "$out" ] && ok "symbolize: stripped + debug file as the unstripped binary" ||
	notok "symbolize: stripped + debug file as the unstripped binary" "--exe gave: $out_exe"
out_tree=$($SYM --debug-dir "$T/tree" <"$T/report" 2>&1)
[ "$out_tree" = "$out" ] && ok "symbolize: build-id tree" || notok "symbolize: build-id tree" "$out_tree"
again=$(echo "$out" | $SYM --debug-dir "$T/dbg" 2>&1)
[ "$again" = "$out" ] && ok "symbolize: output is left as it is" || notok "symbolize: output is left as it is" "$again"
# No build-id: found by its file name among the --exe files.
out_nb=$(echo "$nobid" | $SYM --exe "$T/prog" 2>&1)
[ "$out_nb" = " main+0x5/0x40 $line_m [prog+0x$off_m]" ] && ok "symbolize: module without build-id, by name" ||
	notok "symbolize: module without build-id, by name" "'$out_nb'"

# No flags: the program itself, in the current directory, by its build-id;
# and not a rebuilt program of the same name (another build-id).
here=$(cd "$T" && echo " main+0x5/0x40 [prog+0x$off_m $bid]" | $SYM 2>&1)
# (the source is not under the current directory now: its path is whole)
case "$here" in
" main+0x5/0x40 /"*"/${line_m##*/} [prog+0x$off_m $bid]") ok "symbolize: the binary itself in the current directory" ;;
*) notok "symbolize: the binary itself in the current directory" "'$here'" ;;
esac
other=$(cd "$T" && echo " main+0x5/0x40 [prog+0x$off_m 0123456789abcdef0123456789abcdef01234567]" | $SYM 2>&1)
[ "$other" = " main+0x5/0x40 [prog+0x$off_m 0123456789abcdef0123456789abcdef01234567]" ] &&
	ok "symbolize: not a binary of the same name with another build-id" ||
	notok "symbolize: not a binary of the same name with another build-id" "'$other'"

# Errors: one line, status 2.
err=$($SYM --bogus <"$T/report" 2>&1 >/dev/null)
st=$?
if [ $st -eq 2 ] && [ "$(echo "$err" | wc -l)" = 1 ]; then
	case "$err" in "ukasan: "*) ok "symbolize: unknown flag" ;; *) notok "symbolize: unknown flag" "'$err'" ;; esac
else
	notok "symbolize: unknown flag" "status $st: '$err'"
fi
err=$($SYM "$T/no-such-report" 2>&1 >/dev/null)
st=$?
if [ $st -eq 2 ] && [ "$(echo "$err" | wc -l)" = 1 ]; then
	case "$err" in "ukasan: "*) ok "symbolize: unreadable report" ;; *) notok "symbolize: unreadable report" "'$err'" ;; esac
else
	notok "symbolize: unreadable report" "status $st: '$err'"
fi

# Module names come from the report, which anyone may write: a name with
# "../" or an absolute path must not lead out of the debug directory (nor
# the current directory), whatever lies there.
mkdir -p "$T/dd/inner" "$T/outside"
cp "$T/prog" "$T/outside/prog"
esc_rel=" main+0x5/0x40 [../outside/prog+0x$off_m]"
esc_abs=" main+0x5/0x40 [$T/outside/prog+0x$off_m]"
esc_bid=" main+0x5/0x40 [../outside/prog+0x$off_m $bid]"
esc=$(printf '%s\n%s\n' "$esc_rel" "$esc_abs" | $SYM --debug-dir "$T/dd" 2>&1)
esc2=$(cd "$T/dd" && echo "$esc_bid" | $SYM 2>&1)
if [ "$esc" = "$(printf '%s\n%s' "$esc_rel" "$esc_abs")" ] && [ "$esc2" = "$esc_bid" ]; then
	ok "symbolize: module names with ../ or / open nothing outside"
else
	notok "symbolize: module names with ../ or / open nothing outside" "got '$esc' and '$esc2'"
fi

# Linear in its input: a 1 MB line made to move every word of its prefix
# into a C++ name (an unmatched ')') took minutes when each move recounted
# the name; it takes about as long as a 100 KB one now. The bound is loose:
# the machine is shared.
python3 - "$T" "$bid" "$off_m" <<'PY'
import sys
t, bid, off = sys.argv[1:]
for n in (100_000, 1_000_000):
    open("%s/long%d" % (t, n), "w").write("x " * (n // 2) + "y )+0x1/0x2 [prog+0x%s %s]\n" % (off, bid))
PY
s0=$(date +%s%N)
timeout 60 $SYM --exe "$T/prog" "$T/long100000" >"$T/long.out" 2>&1
s1=$(date +%s%N)
timeout 60 $SYM --exe "$T/prog" "$T/long1000000" >"$T/long.out" 2>&1
st=$?
s2=$(date +%s%N)
small=$(((s1 - s0) / 1000000)) big=$(((s2 - s1) / 1000000))
if [ $st -eq 0 ] && [ "$big" -lt 8000 ] && [ "$(wc -c <"$T/long.out")" -ge 1000000 ]; then
	ok "symbolize: a 1 MB line in ${big} ms (100 KB: ${small} ms)"
else
	notok "symbolize: a 1 MB line in time" "status $st, ${big} ms (100 KB: ${small} ms)"
fi

# Streaming: a frame is written (and flushed) as soon as its line is read,
# while the writer of the report is still running.
if python3 - "$SYM" "$T/prog" "$f_m" "$want_m" <<'PY'
import select, subprocess, sys
sym, exe, frame, want = sys.argv[1:]
p = subprocess.Popen(sym.split() + ["--debug-dir", exe.rsplit("/", 1)[0] + "/dbg"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
p.stdin.write((frame + "\n").encode())
p.stdin.flush()
ready, _, _ = select.select([p.stdout], [], [], 30)
got = p.stdout.readline().decode().rstrip("\n") if ready else None
p.stdin.close()
p.wait()
if got != want:
    print("before the input's end: %r" % got)
    sys.exit(1)
PY
then
	ok "symbolize: each line written as it is read"
else
	notok "symbolize: each line written as it is read" "no answer before the input ended"
fi

# End to end: a stripped program's KFENCE report without symbolization,
# completed from its debug file, names the same lines as the unstripped
# program's report symbolized by the runtime. Needs the runtime to print
# [NAME+0xOFF BUILDID] in frames.
LIB=$B/lib/libukasan.so
src=tests/kfence/use_after_free.c
if (cd "$ROOT" && gcc -g -O0 -Iinclude -Itests -o "$T/uaf" "$src"); then
	objcopy --only-keep-debug "$T/uaf" "$T/uaf.debug"
	strip -o "$T/uaf.stripped" "$T/uaf"
	mkdir -p "$T/uafdbg" && cp "$T/uaf.debug" "$T/uafdbg/"
	lines() { grep -o 'use_after_free\.c:[0-9]*' | tr '\n' ' '; }
	full=$(cd "$ROOT" && UKASAN_OPTIONS=kfence.sample_rate=1 LD_PRELOAD=$LIB "$T/uaf" 2>&1 >/dev/null)
	raw=$(cd "$ROOT" && UKASAN_OPTIONS="kfence.sample_rate=1 ukasan.symbolize=0" LD_PRELOAD=$LIB "$T/uaf.stripped" 2>&1 >/dev/null)
	fixed=$(cd "$ROOT" && echo "$raw" | $SYM --debug-dir "$T/uafdbg" 2>&1)
	want=$(echo "$full" | lines) got=$(echo "$fixed" | lines)
	ubid=$(readelf -n "$T/uaf" | sed -n 's/^ *Build ID: *//p')
	if ! echo "$raw" | grep -q " \[uaf\.stripped+0x[0-9a-f]* $ubid\]$"; then
		notok "symbolize: end to end, stripped KFENCE report" "the runtime does not print [uaf.stripped+0xOFF $ubid] in frames yet (first frame:$(echo "$raw" | grep -m1 '^ '))"
	elif [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "symbolize: end to end, stripped KFENCE report"
	else
		notok "symbolize: end to end, stripped KFENCE report" "want '$want', got '$got': $fixed"
	fi
else
	notok "symbolize: end to end, stripped KFENCE report" "gcc failed"
fi
