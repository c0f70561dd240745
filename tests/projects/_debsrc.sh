# Debian source packages for the real-project checks (check_*.sh here),
# fetched at test time with `apt-get source` into $BUILD/third_party/PKG
# (git-ignored; a second run reuses it). Third-party code is never committed.
# When no deb-src entry exists, one is added as its own file,
# /etc/apt/sources.list.d/ukasan-src.sources (the system's own entries are
# left as they are), and `apt-get update` is run: that needs root.
#
#   . tests/projects/_debsrc.sh
#   SRC=$(debsrc_get PKG FILE...) || exit 0
#
# debsrc_get prints the source tree (the first PKG-*/ directory holding every
# FILE), fetching it first if needed. On failure it prints "not ok PKG - why"
# instead and fails: the caller echoes what it got and stops. Needs BUILD and
# WORK set.

debsrc_tree() {
	pkg=$1
	shift
	for d in "$BUILD/third_party/$pkg/$pkg"-*/; do
		[ -d "$d" ] || continue
		all=1
		for f in "$@"; do
			[ -e "$d/$f" ] || all=0
		done
		[ $all = 1 ] && { echo "${d%/}"; return 0; }
	done
	return 1
}

debsrc_have_entry() {
	grep -qsE '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
	grep -qsiE '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources && return 0
	return 1
}

debsrc_add_entry() {
	codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || codename=bookworm
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		echo "# Added by ukasan's tests/projects: source packages for apt-get source."
		echo "Types: deb-src"
		echo "URIs: http://deb.debian.org/debian"
		echo "Suites: $codename"
		echo "Components: main"
		[ -f "$key" ] && echo "Signed-By: $key"
	} >/etc/apt/sources.list.d/ukasan-src.sources
}

debsrc_fail() {
	echo "not ok $1 - $2" >&4
	return 1
}

debsrc_fetch() {
	pkg=$1
	shift
	cache=$BUILD/third_party/$pkg
	log=$WORK/fetch.log
	: >"$log"
	command -v apt-get >/dev/null ||
		{ debsrc_fail "$pkg" "no apt-get: cannot fetch Debian's $pkg source package"; return 1; }
	if ! apt-cache showsrc "$pkg" 2>/dev/null | grep -q '^Version:'; then
		[ "$(id -u)" = 0 ] ||
			{ debsrc_fail "$pkg" "needs root to apt-get source (no deb-src entry or no source lists; run as root once)"; return 1; }
		debsrc_have_entry || debsrc_add_entry
		if ! apt-get update >>"$log" 2>&1 ||
			! apt-cache showsrc "$pkg" 2>/dev/null | grep -q '^Version:'; then
			debsrc_fail "$pkg" "apt-get update gave no source for $pkg (see $log)"
			return 1
		fi
	fi
	if ! command -v dpkg-source >/dev/null; then
		[ "$(id -u)" = 0 ] ||
			{ debsrc_fail "$pkg" "needs root to apt-get source (dpkg-dev, for dpkg-source, is not installed)"; return 1; }
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q dpkg-dev >>"$log" 2>&1
	fi
	stage=$cache.partial.$$
	rm -rf "$stage"
	mkdir -p "$stage"
	# As root, apt downloads as the _apt user, who cannot write into build/.
	if ! (cd "$stage" && apt-get -o APT::Sandbox::User=root source "$pkg") >>"$log" 2>&1; then
		rm -rf "$stage"
		debsrc_fail "$pkg" "apt-get source $pkg failed: $(tail -n 1 "$log")"
		return 1
	fi
	rm -rf "$cache"
	mv "$stage" "$cache"
}

debsrc_get() {
	pkg=$1
	shift
	mkdir -p "$BUILD/third_party" "$WORK"
	# One run at a time may fetch (apt's own locks would make a second fail).
	if command -v flock >/dev/null; then
		exec 9>"$BUILD/third_party/.$pkg.lock"
		flock -w 600 9
	fi
	{ debsrc_tree "$pkg" "$@" >/dev/null || debsrc_fetch "$pkg" "$@"; } 4>&1 >&2 || return 1
	debsrc_tree "$pkg" "$@" || {
		echo "not ok $pkg - apt-get source $pkg gave no source tree in $BUILD/third_party/$pkg"
		return 1
	}
}
