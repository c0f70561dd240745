#!/bin/sh
# Fetch and build honggfuzz into $BUILD/third_party/honggfuzz (Debian 12 has
# no package): the honggfuzz crate on crates.io (honggfuzz-rs) carries
# honggfuzz's C sources, and cargo, the registry's own client, fetches it.
# Nothing of honggfuzz is committed. Builds the fuzzer and the libraries a
# harness links (libhfuzz.a, libhfcommon.a); the crate has no hfuzz-cc, so
# harnesses are built with ukasan-cc directly (docs/fuzzing.md,
# honggfuzz). Idempotent; prints the directory last. Fails saying why.
#
#   tests/fuzz/honggfuzz.sh [BUILD]      BUILD: ukasan's build tree (build/)
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-${UKASAN_BUILD:-$root/build}}
out=$build/third_party/honggfuzz
# honggfuzz 2.6's sources; a newer crate may carry another honggfuzz.
crate=0.5.58
fail() { echo "honggfuzz: $*" >&2; exit 1; }

if [ -x "$out/honggfuzz" ] && [ -f "$out/libhfuzz.a" ] && [ -f "$out/libhfcommon.a" ]; then
	echo "$out"
	exit 0
fi
# Build dependencies: headers of binutils (bfd, opcodes), libunwind and
# liblzma; installed as root, else named.
missing=""
for p in binutils-dev libunwind-dev libblocksruntime-dev liblzma-dev make gcc; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
command -v cargo >/dev/null 2>&1 || missing="$missing cargo"
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null ||
		fail "missing packages:$missing (sudo apt-get install -y$missing)"
	(apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing) \
		>"$build/third_party/honggfuzz-apt.log" 2>&1 ||
		fail "apt-get install$missing failed: $(tail -n 1 "$build/third_party/honggfuzz-apt.log")"
fi
mkdir -p "$build/third_party"
# One build at a time: tests and the benchmark may ask together.
exec 9>"$build/third_party/honggfuzz.lock"
flock 9 2>/dev/null || true
[ -x "$out/honggfuzz" ] && [ -f "$out/libhfuzz.a" ] && { echo "$out"; exit 0; }

fetch=$build/third_party/honggfuzz-fetch
mkdir -p "$fetch/src"
cat >"$fetch/Cargo.toml" <<TOML
[package]
name = "ukasan-honggfuzz-fetch"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
honggfuzz = "=$crate"
TOML
echo 'fn main() {}' >"$fetch/src/main.rs"
(cd "$fetch" && cargo fetch -q) >"$fetch/fetch.log" 2>&1 ||
	fail "cargo fetch of the honggfuzz crate $crate failed: $(tail -n 1 "$fetch/fetch.log")"
src=$(cd "$fetch" && cargo metadata --format-version 1 -q 2>/dev/null |
	python3 -c 'import json,sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "honggfuzz":
        import os; print(os.path.join(os.path.dirname(p["manifest_path"]), "honggfuzz"))')
[ -f "$src/honggfuzz.c" ] || fail "no honggfuzz sources in the crate (looked in '$src')"

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp -r "$src" "$out.tmp/src"
(cd "$out.tmp/src" && make -j2 honggfuzz libhfuzz/libhfuzz.a libhfcommon/libhfcommon.a) \
	>"$out.tmp/build.log" 2>&1 || fail "make failed: $(grep -m1 -i error "$out.tmp/build.log")"
cp "$out.tmp/src/honggfuzz" "$out.tmp/src/libhfuzz/libhfuzz.a" \
	"$out.tmp/src/libhfcommon/libhfcommon.a" "$out.tmp/"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
