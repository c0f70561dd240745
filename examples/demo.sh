#!/bin/sh
# Shows each kind of report on the small programs in examples/: KFENCE's on
# unchanged programs, then generic KASAN's on programs built with ukasan-cc.
# kfence.sample_rate=1 guards every allocation: the default samples one
# allocation per 100 ms, which suits production, not a ten-line demo.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/examples"
mkdir -p "$out"
show() {
	printf '\n\033[1m$ ukasan run -o kfence.sample_rate=1 -- build/examples/%s\033[0m\n' "$1"
	(cd "$root" && build/bin/ukasan run -o kfence.sample_rate=1 -- "build/examples/$1") 2>&1 || true
}
for ex in kfence_oob kfence_uaf kfence_double_free kfence_corruption; do
	gcc -g -O0 -o "$out/$ex" "$root/examples/$ex.c"
done
for ex in kfence_oob kfence_uaf kfence_double_free kfence_corruption; do
	show $ex
done

# Generic KASAN: every access checked, nothing left to chance.
for ex in kasan_heap_oob kasan_uaf kasan_stack_oob kasan_global_oob; do
	"$root/build/bin/ukasan-cc" -g -O1 -o "$out/$ex" "$root/examples/$ex.c"
	printf '\n\033[1m$ build/bin/ukasan-cc -g -O1 -o build/examples/%s examples/%s.c && build/examples/%s\033[0m\n' \
		"$ex" "$ex" "$ex"
	(cd "$root" && "build/examples/$ex") 2>&1 || true
done
