#!/bin/sh
# Install what a fresh Debian 12 machine lacks for the given target, or say
# exactly what to install when not root.
want="gcc make python3 binutils"
# Real software the KFENCE preload must keep working (tests/real/): a Rust
# program, the JVM, redis (built on jemalloc) and its benchmark, nginx under
# wrk, programs linked against tcmalloc and mimalloc, PostgreSQL under
# pgbench, and OpenSSH's sshd (a sandboxed daemon: tests/real/check_sshd.py
# runs a server of its own, never the system's service).
real="ripgrep openjdk-17-jdk-headless redis-server redis-tools nginx-light wrk \
libgoogle-perftools-dev libmimalloc-dev libjemalloc-dev postgresql-15 postgresql-client-15 \
openssh-server"
# arm64, built with the cross compilers and run under qemu-aarch64 (make
# test runs both architectures; make bench measures the emulated cost).
# Debian's arm64 builds of a few programs and allocators are fetched at
# test time into build/third_party/arm64 (tests/real/check_arm64_real.py),
# never installed: the archive keyring checks them.
arm64="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross \
binutils-aarch64-linux-gnu qemu-user qemu-user-binfmt lld-16 debian-archive-keyring"
# The build-and-test tools a project uses ukasan-cc under
# (tests/projects/check_buildtools.sh: ctest, meson test, an autotools make
# check, pytest of a Python C extension, cargo test of a crate with C, a
# node-gyp addon's test): ninja for CMake and meson, autoconf and automake,
# Python's headers, pytest and setuptools for the extension. Node and Rust
# only when the machine has none already (a newer node from elsewhere
# brings its own headers and node-gyp, and Debian's would conflict with it).
tools="ninja-build meson autoconf automake python3-dev python3-pytest python3-setuptools"
command -v node >/dev/null 2>&1 || tools="$tools nodejs npm node-gyp libnode-dev"
command -v cargo >/dev/null 2>&1 || tools="$tools cargo"
case "${1:-}" in
# clang-16 builds the generic-mode tests a second time; llvm-16 brings
# llvm-symbolizer (file:line); dpkg-dev lets the zlib and libyaml checks use
# apt-get source; cmake builds libyaml, a CMake project. The benchmarks
# build SQLite's speedtest1 from its source package (tcl makes the
# amalgamation; zlib1g-dev for its link line). firefox-esr: headless
# screenshots with and without the preload (tests/real/check_firefox.py;
# about 130 MB, 30 s to install).
test) want="$want g++ clang-16 llvm-16 dpkg-dev cmake firefox-esr $tools $real $arm64" ;;
bench) want="$want g++ clang-16 electric-fence duma perl git dpkg-dev tcl zlib1g-dev $real $arm64" ;;
esac
missing=""
for pkg in $want; do
	dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "ukasan: installing$missing"
	apt-get update -q >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null || {
		echo "ukasan: apt-get install$missing failed" >&2; exit 1; }
else
	echo "ukasan: missing packages:$missing; run: sudo apt-get install -y$missing" >&2
	exit 1
fi
