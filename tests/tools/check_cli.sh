#!/bin/sh
# The ukasan command, the log destination, statistics, secure-execution
# programs and initialisation before any constructor.
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/cli
mkdir -p "$T"
LIB=$B/lib/libukasan.so
gcc -g -O0 -I"$UKASAN_ROOT/include" -o "$T/prog" "$UKASAN_ROOT/tests/tools/_prog.c" || exit 1

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

# ukasan run preloads the library and passes -o options.
out=$("$B/bin/ukasan" run -o kfence.sample_rate=1 -- "$T/prog" oob 2>&1)
case "$out" in *"BUG: KFENCE: out-of-bounds write in main+0x"*ran*) ok "ukasan run -o" ;;
*) notok "ukasan run -o" "no report: $out" ;; esac

# A value with UKASAN_OPTIONS's separators in it (':', ','), given to -o as
# it is, names the file it says: ukasan run quotes it.
rm -f "$T"/run:log,1.*
err=$("$B/bin/ukasan" run -o kfence.sample_rate=1 -o "ukasan.log_path=$T/run:log,1" -- "$T/prog" oob 2>&1 >/dev/null)
log=$(ls "$T"/run:log,1.* 2>/dev/null | head -1)
if [ -n "$log" ] && grep -q "BUG: KFENCE: out-of-bounds write" "$log" && [ -z "$err" ]; then
	ok "ukasan run -o quotes a value holding ':' and ','"
else
	notok "ukasan run -o quotes a value holding ':' and ','" "log=$log stderr=$err"
fi

"$B/bin/ukasan" run >/dev/null 2>&1
[ $? -eq 2 ] && ok "ukasan run without a program exits 2" || notok "ukasan run usage" "wrong status"

# ukasan.log_path: the report goes to PATH.PID, not stderr.
rm -f "$T"/log.*
err=$(UKASAN_OPTIONS="kfence.sample_rate=1 ukasan.log_path=$T/log" LD_PRELOAD=$LIB "$T/prog" oob 2>&1 >/dev/null)
log=$(ls "$T"/log.* 2>/dev/null | head -1)
if [ -n "$log" ] && grep -q "BUG: KFENCE: out-of-bounds write" "$log" && [ -z "$err" ]; then
	case "$log" in *.[0-9]*) ok "ukasan.log_path writes PATH.PID" ;; *) notok "ukasan.log_path" "name $log" ;; esac
else
	notok "ukasan.log_path" "log=$log stderr=$err"
fi
err=$(UKASAN_OPTIONS="kfence.sample_rate=1 ukasan.log_path=/nonexistent/dir/log" LD_PRELOAD=$LIB "$T/prog" oob 2>&1)
case "$err" in *"ukasan: cannot open log file /nonexistent/dir/log."*"BUG: KFENCE"*ran*) ok "unwritable log path falls back to stderr" ;;
*) notok "unwritable log path" "$err" ;; esac

# kfence.stats prints the kernel's debugfs counters at exit.
err=$(UKASAN_OPTIONS="kfence.sample_rate=1 kfence.stats=1" LD_PRELOAD=$LIB "$T/prog" oob 2>&1 >/dev/null)
if echo "$err" | grep -q "^total bugs: 1$" && echo "$err" | grep -q "^total allocations: [1-9]"; then
	ok "kfence.stats counters"
else
	notok "kfence.stats counters" "$err"
fi

# kfence.sample_interval=0 disables KFENCE: nothing is guarded.
err=$(UKASAN_OPTIONS="kfence.sample_interval=0 kfence.stats=1" LD_PRELOAD=$LIB "$T/prog" oob 2>&1 >/dev/null)
echo "$err" | grep -q "^enabled: 0$" && echo "$err" | grep -q "^total allocations: 0$" &&
	ok "kfence.sample_interval=0 disables" || notok "kfence.sample_interval=0" "$err"

# The default interval guards at most one of a process's first allocations
# (a random one: kfence/check_first_sample.py), then one per 100 ms.
err=$(UKASAN_OPTIONS="kfence.stats=1" LD_PRELOAD=$LIB "$T/prog" 2>&1 >/dev/null)
echo "$err" | grep -q "^total allocations: [012]$" && ok "default interval samples at most once at start" ||
	notok "default interval" "$err"

# An allocation in a constructor that runs before ukasan's own: the loader
# runs preloaded objects' initialisers last-listed first, so libearly.so
# (listed after libukasan.so) runs first, as LD_DEBUG=files shows.
gcc -shared -fPIC -o "$T/libearly.so" "$UKASAN_ROOT/tests/tools/_early_lib.c"
gcc -g -O0 -I"$UKASAN_ROOT/include" -o "$T/prog_early" "$UKASAN_ROOT/tests/tools/_prog.c" -L"$T" -learly -Wl,-rpath,"$T"
out=$(UKASAN_OPTIONS="kfence.sample_rate=1" LD_DEBUG=files LD_PRELOAD="$LIB $T/libearly.so" "$T/prog_early" early 2>&1)
order=$(echo "$out" | sed -n 's/.*calling init: .*\/\(lib[a-z]*\)\.so.*/\1/p' | grep -E 'libearly|libukasan' | tr '\n' ' ')
case "$order:$out" in "libearly libukasan :"*"early guarded 1"*ran*) ok "allocation before ukasan's constructor is guarded" ;;
*) notok "early allocation" "order '$order': $out" ;; esac

# Secure execution (set-group-ID here): UKASAN_OPTIONS is ignored, as glibc
# ignores its tunables, so no option can make the program write a log file.
if [ "$(id -u)" = 0 ] && getent group nogroup >/dev/null; then
	gcc -g -O0 -I"$UKASAN_ROOT/include" -o "$T/prog_sgid" "$UKASAN_ROOT/tests/tools/_prog.c" \
		-L"$B/lib" -lukasan -Wl,-rpath,"$B/lib"
	chgrp nogroup "$T/prog_sgid" && chmod g+s "$T/prog_sgid"
	rm -f "$T"/sgidlog.*
	out=$(UKASAN_OPTIONS="kfence.sample_rate=banana ukasan.log_path=$T/sgidlog" "$T/prog_sgid" 2>&1)
	case "$out" in *"ukasan: UKASAN_OPTIONS ignored in a set-user-ID or set-group-ID program"*ran*)
		if ls "$T"/sgidlog.* >/dev/null 2>&1 || echo "$out" | grep -q banana; then
			notok "set-group-ID ignores UKASAN_OPTIONS" "options were applied"
		else
			ok "set-group-ID ignores UKASAN_OPTIONS"
		fi ;;
	*) notok "set-group-ID ignores UKASAN_OPTIONS" "$out" ;; esac
else
	notok "set-group-ID ignores UKASAN_OPTIONS" "needs root to make a set-group-ID file"
fi
