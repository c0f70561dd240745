#!/bin/sh
# make demo's programs: each gives its report and then runs on to its end,
# as report mode promises (the global example once handed printf a pointer
# read from the redzone and the demo ended in a segfault). The KASAN ones
# then exit 1 (ukasan.exitcode: a run with a report fails); the KFENCE
# preload keeps the program's 0.
R=$UKASAN_ROOT
B=$UKASAN_BUILD
T=$UKASAN_TEST_TMP/examples
mkdir -p "$T"
check() { # name, expected title, expected status, command...
	name=$1 title=$2 want=$3
	shift 3
	"$@" >"$T/$name.out" 2>"$T/$name.err"
	st=$?
	if [ $st -ne "$want" ]; then
		echo "not ok $name - exit status $st after the report, not $want: $(tail -c 300 "$T/$name.err")"
	elif ! grep -q "$title" "$T/$name.err"; then
		echo "not ok $name - no '$title' report: $(head -c 300 "$T/$name.err")"
	elif ! grep -q "^ukasan: 1 report in this run" "$T/$name.err"; then
		echo "not ok $name - no summary line at exit: $(tail -c 300 "$T/$name.err")"
	else
		echo "ok $name: reported, then ran to its end with status $want"
	fi
}
for ex in kasan_heap_oob:slab-out-of-bounds kasan_uaf:slab-use-after-free \
	kasan_stack_oob:stack-out-of-bounds kasan_global_oob:global-out-of-bounds; do
	name=${ex%%:*}
	"$B/bin/ukasan-cc" -g -O1 -o "$T/$name" "$R/examples/$name.c" 2>"$T/$name.cc" ||
		{ echo "not ok $name - build: $(head -c 300 "$T/$name.cc")"; continue; }
	check "$name" "BUG: KASAN: ${ex#*:}" 1 "$T/$name"
done
for ex in kfence_uaf:use-after-free kfence_double_free:invalid\ free \
	kfence_corruption:memory\ corruption; do
	name=${ex%%:*}
	gcc -g -O0 -o "$T/$name" "$R/examples/$name.c" || { echo "not ok $name - build"; continue; }
	check "$name" "BUG: KFENCE: ${ex#*:}" 0 "$B/bin/ukasan" run -o kfence.sample_rate=1 -- "$T/$name"
done
# The first example make demo shows: reported on every run, wherever KFENCE
# placed the object in its page (the old off-by-one read was caught only
# from the page end, and the demo ran it again until it was).
gcc -g -O0 -o "$T/kfence_oob" "$R/examples/kfence_oob.c" || echo "not ok kfence_oob - build"
for run in 1 2 3 4 5 6 7 8; do
	check "kfence_oob run $run" "BUG: KFENCE: out-of-bounds read" 0 \
		"$B/bin/ukasan" run -o kfence.sample_rate=1 -- "$T/kfence_oob"
done
exit 0
