#!/bin/sh
# Install what a fresh Debian 12 machine lacks for the given target, saying
# first, one line a group, what and why; or say exactly what to install
# when not root. Targets: (none) build and demo; core (make test-core);
# test (make test); bench (make bench).
groups=""
# group NAME WHY PACKAGES...: wanted for this target.
group() {
	name=$1 why=$2
	shift 2
	eval "pkgs_$name=\"$*\" why_$name=\"$why\""
	groups="$groups $name"
}
group build "building ukasan" gcc make python3 binutils
# clang-16 builds the generic-mode tests a second time; llvm-16 brings
# llvm-symbolizer (file:line); KFENCE must guard programs that link another
# allocator.
core() {
	group compilers "the core tests: each generic-mode test is built by gcc and by clang, and \
llvm-symbolizer gives reports their file:line; libFuzzer for -fsanitize=fuzzer" g++ clang-16 \
		llvm-16 libclang-rt-16-dev
	group reports "the JSON report test validates every line against docs/report.schema.json" \
		python3-jsonschema
	group manpages "the manual pages' test renders each page with groff and man \
(tests/tools/check_man.py)" groff-base man-db
	group allocators "the core KFENCE tests of programs linked with jemalloc, tcmalloc and \
mimalloc" libjemalloc-dev libgoogle-perftools-dev libmimalloc-dev
}
# Real software the KFENCE preload must keep working (tests/real/): a Rust
# program, the JVM, redis (built on jemalloc) and its benchmark, nginx under
# wrk, programs linked against tcmalloc and mimalloc, PostgreSQL under
# pgbench, and OpenSSH's sshd (a sandboxed daemon: tests/real/check_sshd.py
# runs a server of its own, never the system's service; none of these
# services is started as a system service by the tests).
real() {
	group real "real software the preload must keep working (tests/real/: a Rust program, \
the JVM, redis, nginx, PostgreSQL, sshd)" ripgrep openjdk-17-jdk-headless redis-server \
		redis-tools nginx-light wrk libgoogle-perftools-dev libmimalloc-dev libjemalloc-dev \
		postgresql-15 postgresql-client-15 openssh-server
}
# arm64, built with the cross compilers and run under qemu-aarch64 (make
# test runs both architectures; make bench measures the emulated cost).
# Debian's arm64 builds of a few programs and allocators are fetched at
# test time into build/third_party/arm64 (tests/real/check_arm64_real.py),
# never installed: the archive keyring checks them.
# The build-and-test tools a project uses ukasan-cc under
# (tests/projects/check_buildtools.sh: ctest, meson test, an autotools make
# check, pytest of a Python C extension, cargo test of a crate with C, a
# node-gyp addon's test). Node and Rust only when the machine has none
# already: a newer node from elsewhere brings its own headers and node-gyp,
# and Debian's would conflict with it.
buildtools() {
	extra=""
	command -v node >/dev/null 2>&1 || extra="$extra nodejs npm node-gyp libnode-dev"
	command -v cargo >/dev/null 2>&1 || extra="$extra cargo"
	group buildtools "the build-and-test tools projects use ukasan-cc under (CMake, meson, \
autotools, pytest, cargo, node-gyp)" ninja-build meson autoconf automake python3-dev \
		python3-pytest python3-setuptools $extra
}
arm64() {
	group arm64 "the arm64 runs: cross compilers and qemu-user, to test the arm64 runtime on \
this machine" gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross \
		binutils-aarch64-linux-gnu qemu-user qemu-user-binfmt lld-16 debian-archive-keyring
}
# honggfuzz, built from the C sources its Rust crate carries (Debian 12 has
# no package): tests/fuzz/honggfuzz.sh fetches the crate with cargo.
fuzz() {
	extra=""
	command -v cargo >/dev/null 2>&1 || extra="cargo"
	group fuzz "honggfuzz, built from source for the fuzzer tests and benchmark \
(tests/fuzz/honggfuzz.sh)" binutils-dev libunwind-dev libblocksruntime-dev liblzma-dev $extra
}
# AFL++ fuzzing ukasan-built targets (tests/fuzz/check_afl.sh,
# bench/run_fuzz_afl.py); lld-14 is the linker of afl-clang-lto's LLVM.
afl() {
	group afl "fuzzing with AFL++ (tests/fuzz/, bench/run_fuzz_afl.py): its PCGUARD, CLASSIC \
and LTO modes" afl++ lld-14
}
# The fleet pipeline (tests/fleet/check_pipeline.py, deploy/): rsyslog and
# its PostgreSQL output into PostgreSQL, each run privately by the test;
# systemd's journald and journalctl (tests/fleet/check_journald.py).
fleet() {
	group fleet "the fleet pipeline tests (tests/fleet/, deploy/): rsyslog with its PostgreSQL \
output, into PostgreSQL, and systemd's journald" rsyslog rsyslog-pgsql postgresql-15 \
		postgresql-client-15 systemd
}
# ClusterFuzz's stack parser (tests/tools/check_clusterfuzz.py) is a PyPI
# package: into a virtual environment under build/, which the test uses
# when the Python running it lacks the package.
VENV=build/venv
pypi=""
case "${1:-}" in
core) core; pypi=1 ;;
# dpkg-dev lets the zlib, libyaml and SQLite checks use apt-get source; cmake
# builds libyaml, a CMake project; tcl makes SQLite's amalgamation and
# zlib1g-dev is for its shell (tests/projects/check_sqlite.sh); tcl-dev
# builds its test program testfixture (tests/projects/check_sqlite_tcl.sh);
# libbrotli-dev for woff2's decoder (tests/projects/check_realbugs.py, whose
# libxml2 2.9.0 comes from an npm package: npm, from buildtools).
# firefox-esr: headless screenshots with and
# without the preload (tests/real/check_firefox.py; about 130 MB, 30 s to
# install).
test)
	core
	group projects "tests of real projects built with ukasan-cc (zlib, libyaml and SQLite from \
Debian's sources, with cmake and tcl; woff2, libarchive's and libxml2's bugs, with libbrotli-dev) and Firefox \
under the preload" dpkg-dev cmake tcl tcl-dev zlib1g-dev libbrotli-dev firefox-esr
	buildtools
	fuzz
	afl
	real
	fleet
	arm64
	pypi=1
	;;
# The benchmarks build SQLite's speedtest1 from its source package (tcl
# makes the amalgamation; zlib1g-dev for its link line), and compare with
# Electric Fence, DUMA, Scudo with GWP-ASan (libclang-rt-16-dev) and
# LeakSanitizer preloaded (liblsan0); sqlite3's shell is one of the preload's
# real programs (bench/run_preload.py); gnuplot draws the charts (bench/charts.py).
bench)
	group bench "the benchmarks: the other detectors compared (Electric Fence, DUMA, Scudo with \
GWP-ASan, LeakSanitizer), SQLite's speedtest1 built from its source package, sqlite3's shell, and \
gnuplot for the charts" g++ clang-16 \
		electric-fence duma perl git dpkg-dev tcl zlib1g-dev gnuplot-nox libclang-rt-16-dev \
		liblsan0 sqlite3
	fuzz
	afl
	real
	arm64
	;;
esac
missing=""
for name in $groups; do
	eval "pkgs=\$pkgs_$name why=\$why_$name"
	m=""
	for pkg in $pkgs; do
		case " $missing$m " in *" $pkg "*) continue ;; esac # named by an earlier group
		dpkg -s "$pkg" >/dev/null 2>&1 || m="$m $pkg"
	done
	[ -z "$m" ] && continue
	echo "ukasan: for $why:$m"
	missing="$missing$m"
done
# clusterfuzz==2.6.0 into $VENV (python3 -m venv: Debian's python3-venv)
pip_deps() {
	[ -n "$pypi" ] || return 0
	"$VENV/bin/python3" -c 'import clusterfuzz' 2>/dev/null && return 0
	python3 -c 'import clusterfuzz' 2>/dev/null && return 0
	echo "ukasan: for ClusterFuzz's stack parser (tests/tools/check_clusterfuzz.py): pip install clusterfuzz==2.6.0 into $VENV"
	{ python3 -m venv "$VENV" && "$VENV/bin/pip" install -q clusterfuzz==2.6.0; } >/dev/null 2>&1 ||
		echo "ukasan: could not install clusterfuzz into $VENV; check_clusterfuzz.py will skip" >&2
}
if [ -n "$pypi" ] && ! python3 -c 'import ensurepip' 2>/dev/null; then
	echo "ukasan: for Python's venv (ClusterFuzz's package): python3-venv"
	missing="$missing python3-venv"
fi
if [ -z "$missing" ]; then
	pip_deps
	exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "ukasan: installing$missing"
	# rsyslog-pgsql would otherwise ask dbconfig-common to set up a
	# database of its own; ukasan's pipeline brings its schema.
	echo "rsyslog-pgsql rsyslog-pgsql/dbconfig-install boolean false" |
		debconf-set-selections 2>/dev/null || true
	apt-get update -q >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null || {
		echo "ukasan: apt-get install$missing failed" >&2; exit 1; }
	pip_deps
else
	echo "ukasan: missing packages:$missing; run: sudo apt-get install -y$missing" >&2
	exit 1
fi
