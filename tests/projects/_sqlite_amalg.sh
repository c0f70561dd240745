# SQLite's amalgamation for the SQLite checks (check_sqlite.sh,
# check_sqlite_tcl.sh), made once with SQLite's own `make sqlite3.c
# shell.c` (needs tclsh) into $BUILD/third_party/sqlite3/amalgamation: the
# amalgamation and shell, sqlite3.h, sqlite3ext.h and sqlite_cfg.h, and the
# two generated headers that SQLite's test sources (testfixture's, which
# include sqliteInt.h) need besides, parse.h and opcodes.h.
#
#   . tests/projects/_sqlite_amalg.sh
#   why=$(sqlite_amalgamation "$SRC") || { echo "not ok ... - $why"; exit 0; }
#
# Prints the reason and fails when it cannot. A lock file serializes the
# checks that run beside each other. Needs BUILD and WORK set; sets AMALG.

AMALG=$BUILD/third_party/sqlite3/amalgamation

sqlite_amalgamation_made() {
	for f in sqlite3.c shell.c sqlite_cfg.h parse.h opcodes.h; do
		[ -s "$AMALG/$f" ] || return 1
	done
}

sqlite_amalgamation_make() { # SRC
	sqlite_amalgamation_made && return 0
	if ! command -v tclsh >/dev/null; then
		echo "tclsh not found: SQLite's make sqlite3.c needs it (apt-get install tcl)"
		return 1
	fi
	stage=$AMALG.partial.$$
	rm -rf "$stage"
	mkdir -p "$stage"
	# Plain gcc: only the generator runs here. configure's options as
	# Debian's (debian/rules): they only change sqlite_cfg.h here.
	if ! (cd "$stage" && CC=gcc timeout 600 "$1/configure" --enable-threadsafe \
		--enable-load-extension --enable-json --enable-fts4 --enable-fts5 &&
		timeout 600 make sqlite3.c shell.c) >"$WORK/amalgamation.log" 2>&1; then
		rm -rf "$stage"
		echo "configure && make sqlite3.c shell.c failed: $(tail -n 1 "$WORK/amalgamation.log") (log: $WORK/amalgamation.log)"
		return 1
	fi
	mkdir -p "$stage.keep"
	cp "$stage/sqlite3.c" "$stage/sqlite3.h" "$stage/sqlite3ext.h" "$stage/shell.c" \
		"$stage/sqlite_cfg.h" "$stage/parse.h" "$stage/opcodes.h" "$stage.keep/" &&
		rm -rf "$AMALG" && mv "$stage.keep" "$AMALG"
	rm -rf "$stage"
	sqlite_amalgamation_made
}

sqlite_amalgamation() { # SRC
	mkdir -p "$BUILD/third_party"
	(
		if command -v flock >/dev/null; then
			exec 8>"$BUILD/third_party/.sqlite3-amalgamation.lock"
			flock -w 900 8
		fi
		sqlite_amalgamation_make "$1"
	)
}
