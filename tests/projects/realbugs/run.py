#!/usr/bin/env python3
"""Real bugs in real libraries: does ukasan catch what AddressSanitizer
catches, and name the same place?

Run by hand (it is not part of make test; tests/projects/check_realbugs.py
runs a small part of it there):

    python3 tests/projects/realbugs/run.py [BUG...] [--keep-going] [-v]

The bugs are from Google's fuzzer-test-suite: c-ares CVE-2016-5180,
woff2 2016-05-06, libarchive 2017-01-04, re2 2014-12-09, vorbis 2017-12-11
(CVE-2018-5146), PROJ4 2017-08-14 (a leak), and libxml2 bug 756528
(CVE-2015-7497, one its libxml2-v2.9.2 finds); and libxml2's 2015 CVEs
8317, 7498, 7499, 7500 and 8242. Not here: Little-CMS 2017-03-21 (its
upstream fix could not be identified, so there is nothing to undo) and
libxml2's CVE-2015-8241 (see LIBXML2_290). This machine cannot fetch the
historical buggy revisions from their repositories, so most bugs are
REINTRODUCED INTO DEBIAN'S CURRENT SOURCE PACKAGE of the library (apt-get
source, see tests/projects/_debsrc.sh) by undoing the upstream fix with a
few string replacements made here at build time, in a git-ignored copy
under build/realbugs/. The code around the bug has changed since, so line
numbers and sometimes the inlining differ from the suite's reports; what is
compared is ukasan against ASan on the same source, not against the
historical report. libxml2's 2015 CVEs cannot be put back that way (2.9.14
closes them twice over: it stops the parser on a conversion error, and
xmlHaltParser points a stopped input at a static empty string), so they
are measured at a release that has them, 2.9.0, as an npm package bundles
it (npm_tree), unchanged.

Each bug's fuzz target (LLVMFuzzerTestOneInput, our own code, beside this
file) is linked with fuzz_main.c and run on a reproducing input of our own
(written here, or a file beside this one). Every bug is built four ways at
the suite's flags (common.sh: -O2 -fno-omit-frame-pointer -g):
gcc -fsanitize=address, clang-16 -fsanitize=address, tools/ukasan-cc with
gcc and with clang-16. Per build the table shows: detected, the bug type
and access size, the top frame (the first frame outside the sanitizer's
runtime and the allocator, inlined frames counted as frames), and
ClusterFuzz's crash type and state (its StackParser, the clusterfuzz
package; skipped without it). A line "differs" names where ukasan's
report is not ASan's of the same compiler.

Builds are cached in build/realbugs/<bug>/ (a change of patch, flags or
driver rebuilds). Exit status 0 when every bug ASan detects was detected by
ukasan with the same top frame and type, 1 otherwise, 77 when nothing could
be built (a tool or source package missing)."""
import base64
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.path.join(HERE, "..", "..", "..")))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
OUT = os.path.join(BUILD, "realbugs")
JOBS = int(os.environ.get("UKASAN_JOBS", "2"))
FLAGS = ["-O2", "-fno-omit-frame-pointer", "-g"]

try:
    from clusterfuzz import stacktraces
except ImportError:
    stacktraces = None
    VENV = os.path.join(BUILD, "venv", "bin", "python3")
    if os.access(VENV, os.X_OK) and not os.environ.get("UKASAN_IN_VENV"):
        os.environ["UKASAN_IN_VENV"] = "1"
        os.execv(VENV, [VENV] + sys.argv)


# --- the bugs -----------------------------------------------------------
#
# pkg        Debian source package; tree: files its tree must hold
# npm        or (package, version, integrity, directory): a library's
#            source bundled in an npm package (npm_tree)
# lib        builds shared by bugs in the same library: its name (default:
#            the bug's), under which the tree and the library are built once
# prep       shell run once in the copied tree (configure) with plain gcc
# patch      (file, old, new): the upstream fix undone; old must occur once
# sources    globs in the tree compiled into the library (C or C++)
# cflags     include directories and defines for them
# driver     our fuzz target, beside this file
# input      bytes of the reproducer, or a file name beside this file
# libs       extra link arguments
# options    extra ASAN_OPTIONS / UKASAN_OPTIONS (e.g. leaks)

BUGS = {}


def bug(name, **kw):
    kw.setdefault("prep", "")
    kw.setdefault("patch", [])
    kw.setdefault("cflags", [])
    kw.setdefault("libs", [])
    kw.setdefault("asan_options", "")
    kw.setdefault("ukasan_options", "")
    kw.setdefault("cxx", False)
    kw.setdefault("fts", "")
    kw.setdefault("npm", None)
    kw.setdefault("lib", name)
    BUGS[name] = kw


# CVE-2016-5180 (c-ares 1.12.0 fixed it): the buffer was sized from the
# encoded name's length counted by hand, one length byte per label unless
# the name ended in a dot, which missed a final escaped dot ("a\."): the
# query's class was written one byte past the buffer. The fix sized it from
# strlen(name) + 2.
bug("c-ares-CVE-2016-5180",
    fts="WRITE 1 heap-buffer-overflow in ares_create_query",
    pkg="c-ares", tree=["src/lib/ares_create_query.c"],
    prep="./configure --disable-shared --enable-static -q >/dev/null",
    patch=[("src/lib/ares_create_query.c",
            "  len = strlen(name) + 2 + HFIXEDSZ + QFIXEDSZ +\n"
            "    (max_udp_size ? EDNSFIXEDSZ : 0);\n",
            "  len = 1;\n"
            "  for (p = name; *p; p++)\n"
            "    {\n"
            "      if (*p == '\\\\' && *(p + 1) != 0)\n"
            "        p++;\n"
            "      len++;\n"
            "    }\n"
            "  if (*name && *(p - 1) != '.')\n"
            "    len++;\n"
            "  len += HFIXEDSZ + QFIXEDSZ + (max_udp_size ? EDNSFIXEDSZ : 0);\n")],
    sources=["src/lib/" + f + ".c" for f in (
        "ares__close_sockets", "ares__get_hostent", "ares__read_line", "ares__timeval",
        "ares_create_query", "ares_expand_name", "ares_free_hostent", "ares_free_string",
        "ares_gethostbyaddr", "ares_getnameinfo", "ares_library_init", "ares_llist",
        "ares_nowarn", "ares_parse_ptr_reply", "ares_process", "ares_query", "ares_send",
        "ares_strdup", "inet_net_pton", "inet_ntop")],
    cflags=["-DHAVE_CONFIG_H", "-DCARES_STATICLIB", "-Iinclude", "-Isrc/lib"],
    driver="c-ares.c", input=b"a\\.")


def woff2_font(work, d):
    """A WOFF2 font of one composite glyph with 5200 bytes of instructions:
    a TrueType font made here (head, maxp, loca, glyf), compressed by the
    package's own woff2_compress (its encoder is not what the bug is in)."""
    import struct
    tool = os.path.join(OUT, "woff2-2016-05-06", "woff2_compress")
    if not os.path.exists(tool):
        s = os.path.join(work, "src")
        r = sh(["nice", "g++", "-O1", "-std=c++11", "-w", "-I" + os.path.join(work, "include")]
               + [os.path.join(s, f) for f in ("woff2_compress.cc", "font.cc", "normalize.cc",
                                               "transform.cc", "woff2_common.cc", "woff2_enc.cc",
                                               "glyph.cc", "table_tags.cc", "variable_length.cc")]
               + ["-lbrotlienc", "-o", tool], work)
        if r.returncode != 0:
            raise Fail("woff2_compress did not build: " + r.stderr[-400:])
    n_instr = 5200  # past woff2's 5120-byte default glyph buffer: a new one is sized
    head = struct.pack(">IIIIHH8s8shhhhHHhhh", 0x10000, 0x10000, 0, 0x5F0F3CF5, 0, 1000,
                       bytes(8), bytes(8), 0, 0, 100, 100, 0, 8, 2, 1, 0)
    maxp = struct.pack(">IH", 0x5000, 2)  # version 0.5, two glyphs
    # glyph 0 empty; glyph 1: numberOfContours -1, bbox, one component
    # (ARGS_ARE_XY_VALUES | WE_HAVE_INSTRUCTIONS, glyph 0, byte offsets 0 0),
    # then the instructions
    g1 = struct.pack(">hhhhhHHbbH", -1, 0, 0, 100, 100, 0x0102, 0, 0, 0, n_instr)
    g1 += bytes(n_instr + (-(len(g1) + n_instr) % 4))
    tables = sorted({b"head": head, b"maxp": maxp, b"glyf": g1,
                     b"loca": struct.pack(">III", 0, 0, len(g1))}.items())
    font = struct.pack(">IHHHH", 0x10000, len(tables), 64, 2, len(tables) * 16 - 64)
    off, body = 12 + 16 * len(tables), b""
    for tag, data in tables:
        padded = data + bytes(-len(data) % 4)
        csum = sum(struct.unpack(">%dI" % (len(padded) // 4), padded)) & 0xffffffff
        font += struct.pack(">4sIII", tag, csum, off + len(body), len(data))
        body += padded
    ttf = os.path.join(d, "input.ttf")
    open(ttf, "wb").write(font + body)
    r = sh([tool, ttf], d)
    if r.returncode != 0:
        raise Fail("woff2_compress failed: " + (r.stderr or r.stdout)[-300:])
    return os.path.join(d, "input.woff2")


# Chromium bug 609042 (woff2 2016-05-06): ReconstructGlyf sized a composite
# glyph's buffer 2 + components + instructions; the glyph's header is 12
# bytes (contour count and bbox), so the instructions were copied 10 bytes
# past it (Buffer::Read's memcpy, inlined). Fixed by sizing it 12 + ....
bug("woff2-2016-05-06",
    fts="WRITE 6707 heap-buffer-overflow in __asan_memcpy, woff2::Buffer::Read buffer.h [inlined in ReconstructGlyf]",
    pkg="woff2", tree=["src/woff2_dec.cc"],
    patch=[("src/woff2_dec.cc", "size_t size_needed = 12 + composite_size + instruction_size;",
            "size_t size_needed = 2 + composite_size + instruction_size;")],
    sources=["src/woff2_dec.cc", "src/woff2_common.cc", "src/table_tags.cc",
             "src/variable_length.cc", "src/woff2_out.cc"],
    cflags=["-std=c++11", "-Iinclude"], libs=["-lbrotlidec"], cxx=True,
    driver="woff2.cc", input=woff2_font)


# OSS-Fuzz 382 (libarchive 2017-01-04): xstrpisotime() skipped leading white
# space with isspace(), CR and LF included, and _warc_rdrtm() passed it the
# WARC-Date value with no end of line found first: an empty date at the end
# of the header made it skip the header's CRLFCRLF and read past the input.
# The fix (libarchive 3.3.0) skips blanks only and requires the line's end.
LA_RDRTM_FIXED = (
    '\tval += sizeof(_key) - 1U;\n'
    '\tif ((eol = _warc_find_eol(val, buf + bsz - val)) == NULL ) {\n'
    '\t\t/* no end of line */\n'
    '\t\treturn -1;\n'
    '\t}\n'
    '\n'
    '\t/* xstrpisotime() kindly overreads whitespace for us, so use that */\n'
    '\tres = xstrpisotime(val, &on);\n'
    '\tif (on != eol) {\n'
    '\t\t/* line must end here */\n'
    '\t\treturn -1;\n'
    '\t}\n')
bug("libarchive-2017-01-04",
    fts="READ 1 heap-buffer-overflow in xstrpisotime, _warc_rdrtm [inlined in _warc_rdhdr]",
    pkg="libarchive", tree=["libarchive/archive_read_support_format_warc.c"],
    prep="./configure -q --disable-shared --without-nettle --without-openssl --without-xml2 "
         "--without-expat --without-lz4 --without-zstd --without-lzma --without-bz2lib "
         "--without-zlib --without-libb2 --without-iconv --disable-acl --disable-xattr "
         "--disable-bsdtar --disable-bsdcpio --disable-bsdcat >/dev/null",
    patch=[("libarchive/archive_read_support_format_warc.c",
            "\twhile (*s == ' ' || *s == '\\t')\n\t\t++s;\n",
            "\tfor (; isspace((unsigned char)*s); s++);\n"),
           # _warc_rdrtm's copy (the key names it), not _warc_rdmtm's
           ("libarchive/archive_read_support_format_warc.c",
            '"\\r\\nWARC-Date:";\n\tconst char *val, *eol;\n\tchar *on = NULL;\n\ttime_t res;\n\n'
            '\tif ((val = xmemmem(buf, bsz, _key, sizeof(_key) - 1U)) == NULL) {\n'
            '\t\t/* no bother */\n\t\treturn (time_t)-1;\n\t}\n' + LA_RDRTM_FIXED,
            '"\\r\\nWARC-Date:";\n\tconst char *val;\n\tchar *on = NULL;\n\ttime_t res;\n\n'
            '\tif ((val = xmemmem(buf, bsz, _key, sizeof(_key) - 1U)) == NULL) {\n'
            '\t\t/* no bother */\n\t\treturn (time_t)-1;\n\t}\n'
            '\tval += sizeof(_key) - 1U;\n'
            '\tres = xstrpisotime(val, &on);\n'
            '\tif (on == NULL || !isspace((unsigned char)*on)) {\n'
            '\t\treturn (time_t)-1;\n'
            '\t}\n')],
    sources=["libarchive/" + f + ".c" for f in (
        "archive_acl", "archive_check_magic", "archive_entry", "archive_entry_sparse",
        "archive_entry_xattr", "archive_read", "archive_read_open_memory",
        "archive_read_support_format_warc", "archive_string", "archive_string_sprintf",
        "archive_util", "archive_virtual")],
    cflags=["-DHAVE_CONFIG_H", "-I.", "-Ilibarchive"],
    driver="libarchive.c",
    input=b"WARC/1.0\r\nContent-Length: 0\r\nWARC-Date:\r\n\r\n")


# libxml2 bug 756528 (the fuzzer-test-suite's libxml2-v2.9.2 finds it):
# xmlDictComputeFastQKey hashed "prefix:name" with the byte at
# name[len - (plen + 2)], before the name when the prefix is the longer.
# Fixed (6360a31a) by falling back to len - 11 for a negative offset. The
# input makes that byte fall before a heap block: an element named by the
# prefix (interned first), a filler name that all but fills the dictionary's
# first 1000-byte string pool, then prefix:localname with an undefined
# prefix (SAX2 then looks up the full name): the 11-byte local name starts a
# new pool, and offset 11 - 52 is 1 byte before the pool's 40-byte header.
bug("libxml2-bug756528",
    fts="READ 1 heap-buffer-overflow in xmlDictComputeFastQKey [inlined in xmlDictQLookup], xmlSAX2StartElementNs",
    pkg="libxml2", tree=["dict.c", "SAX2.c"],
    prep="./configure -q --disable-shared --with-minimum --without-python --without-lzma "
         "--without-zlib >/dev/null",
    patch=[("dict.c",
            "        int offset = len - (plen + 1 + 1);\n"
            "\tif (offset < 0)\n"
            "\t    offset = len - (10 + 1);\n",
            "        int offset = len - (plen + 1 + 1);\n")],
    sources=[f + ".c" for f in (
        "SAX2", "buf", "chvalid", "dict", "encoding", "entities", "error", "globals", "hash",
        "list", "parser", "parserInternals", "threads", "tree", "uri", "valid", "xmlIO",
        "xmlmemory", "xmlstring")],
    cflags=["-DHAVE_CONFIG_H", "-I.", "-Iinclude"], libs=["-lm"],
    driver="libxml2.c",
    input=("<%s><%s/><%s:%s/></%s>" % ("p" * 50, "f" * 895, "p" * 50, "l" * 11, "p" * 50)).encode())


# libxml2's 2015 CVEs fixed in 2.9.3 (Nov 2015) that Debian's 2.9.14 no
# longer lets come back by undoing one fix (xmlHaltParser and the stop on
# conversion errors close them twice over): measured instead at a release
# that has them, libxml2 2.9.0, whose source the npm package libxmljs
# 0.16.0 bundles (package/vendor/libxml; its xmlversion.h says 2.9.0, and
# libxmljs's later 2.9.0 trees, 0.17 on, carry backported fixes). Nothing is
# undone in it. prep configures it as configure would, on its own config.h:
# the modules the parsers do not need off (the xmlversion.h switches), and
# iconv on (as on any glibc system, and in the fuzzer-test-suite's build):
# the encoding bugs need a conversion that fails halfway.
#
# Not reproduced: CVE-2015-8241 ("Avoid extra processing of MarkupDecl when
# EOF": xmlParseMarkupDecl put the parser's state back to DTD after a
# declaration had set it to EOF). 2.9.0 sets that state while it parses a
# DTD only past 10 MB of input ("Huge input lookup") or on an unsupported
# encoding in an external parameter entity, which this fuzz target does not
# load. Four 10 MB DTDs (a comment, an entity value, blanks, an attribute
# default) end in parse errors and no read out of bounds. The regression
# inputs that came with the fixes are not at hand: Debian's source drops
# test/, and the one npm package found with libxml2's tests (libxmljs-mt
# 0.16.1) holds a 2.9.3 snapshot without them.
LIBXML2_290 = dict(
    npm=("libxmljs", "0.16.0",
         "sha512-6TWhsQp1JV8QejTU2Z+CP6UOWRsUCps2WJLc/ftZwj/i5fQPlamOsYl1fQ9fxRUVze679sorD6nUklS93Fsn+g==",
         "package/vendor/libxml"),
    lib="libxml2-2.9.0", tree=["parser.c", "HTMLparser.c", "include/libxml/xmlversion.h"],
    prep="grep -q 'LIBXML_DOTTED_VERSION \"2.9.0\"' include/libxml/xmlversion.h && "
         "sed -i -E 's@^#define LIBXML_(THREAD|READER|PATTERN|WRITER|FTP|HTTP|LEGACY|C14N|CATALOG|"
         "DOCB|XPATH|XPTR|XINCLUDE|DEBUG|UNICODE|REGEXP|AUTOMATA|EXPR|SCHEMAS|SCHEMATRON|MODULES)"
         "_ENABLED$@/* & (off) */@' include/libxml/xmlversion.h && "
         "perl -0pi -e 's/#if 0\\n(#define LIBXML_ICONV_ENABLED)/#if 1\\n$1/' "
         "include/libxml/xmlversion.h && grep -q '^#if 1$' include/libxml/xmlversion.h",
    sources=[f + ".c" for f in (
        "SAX2", "buf", "chvalid", "dict", "encoding", "entities", "error", "globals", "hash",
        "list", "parser", "parserInternals", "threads", "tree", "uri", "valid", "xmlIO",
        "xmlmemory", "xmlstring", "HTMLparser", "HTMLtree", "xmlsave")],
    cflags=["-DHAVE_CONFIG_H", "-I.", "-Iinclude"], libs=["-lm"])


# CVE-2015-8317 (the fuzzer-test-suite's libxml2-v2.9.2 finds it, fixed by
# "Fail parsing early on if encoding conversion failed" and "Do not process
# encoding values if the declaration if broken"): the XML declaration's
# encoding switches the input to UTF-32 (iconv), whose conversion fails on
# the next bytes; the input is then read at its old offset in the new,
# mostly unwritten buffer, and the unfinished declaration's skip to '>'
# (MOVETO_ENDTAG) reads past it.
bug("libxml2-CVE-2015-8317",
    fts="READ 1 heap-buffer-overflow in xmlParseXMLDecl, xmlParseDocument, xmlDoRead",
    driver="libxml2.c", input=b'<?xml encoding="UTF-32\x00BELLLLLLLLLLLLLLLhhhh\'h1"#2',
    **LIBXML2_290)


# CVE-2015-7498 ("Avoid processing entities after encoding conversion
# failures": xmlSwitchEncoding, the switch to the encoding detected from
# the first bytes, stops the parser when the conversion fails): here a
# UTF-16LE byte order mark, then a high surrogate (bytes 00 d8) that is not
# followed by a low one, so the conversion fails on its first unit. The
# input goes on reading the unconverted bytes, which the failed switch
# shifted by the mark's two, so the parser finds "<?xml version="1.0"" and
# parses the declaration; the blanks after it bring the input's end within
# reach of its GROW, which rebases the position onto the empty 4096-byte
# conversion buffer, and the unfinished declaration's skip to '>'
# (MOVETO_ENDTAG) reads its unwritten bytes (the allocator's fill) and past
# its end. Checked here: 2.9.3's stop in xmlSwitchEncoding (with the halt
# that points the input at an empty string) makes this input harmless and
# leaves the other two encoding bugs (8317, 7499: a declared encoding,
# xmlSwitchToEncoding) as they are.
bug("libxml2-CVE-2015-7498",
    driver="libxml2.c", input=b'\xff\xfe\x00\xd8<?xml version="1.0"' + b" " * 240,
    **LIBXML2_290)


# CVE-2015-7499 ("Detect incoherency on GROW", with "Add xmlHaltParser()
# to stop the parser"): after an input switch to another encoding failed,
# the input kept reading the old buffer while its conversion buffer stayed
# empty; the next GROW (xmlParserInputGrow) rebased the current position
# onto the conversion buffer at the same offset, past its end of data, and
# parsing went on there. Fixed in 2.9.3 by xmlGROW stopping the parser when
# the position is outside the input. Here the XML declaration's encoding
# (UTF-32, whose conversion fails at once) leaves the document to be read
# shifted; the text of <d> (its \xff, invalid UTF-8, sends it down
# xmlParseCharDataComplex, which grows every 50 characters) is near the
# input's end when a GROW moves it into the new 4096-byte buffer, whose
# unwritten bytes (the allocator's fill, 0xbe, under ASan and ukasan alike)
# it takes for Latin-1 text up to the end and past it.
bug("libxml2-CVE-2015-7499",
    driver="libxml2.c",
    input=b'<?xml version="1.0" encoding="UTF-32"?>' + b" " * 100 + b"<x><d>\xff" + b"a" * 300
    + b"</d>",
    **LIBXML2_290)


# CVE-2015-8242 (GNOME bug 756372, "Buffer overead with HTML parser in push
# mode"): at the end of the input, with one byte of text left,
# htmlParseTryOrFinish passed the SAX characters callback the address of
# its one-byte local copy; SAX2's xmlSAX2TextNode looks at the byte after
# the text (str[len]) to decide whether to intern it: a read past the
# local. Fixed in 2.9.3 by passing a NUL-terminated two-byte array.
bug("libxml2-CVE-2015-8242",
    driver="libxml2_html_push.c", input=b"<p>x", **LIBXML2_290)


# CVE-2015-7500 ("Fix memory access error due to incorrect entities
# boundaries"): a start tag that began in a parameter entity's text and
# ran past its end. xmlParseStartTag2 noted where the tag began as an offset
# in the input; when the input's base changed (the entity's input popped
# while skipping blanks between attributes) it started over at that offset,
# but in the document's input, not the entity's. Fixed in 2.9.3 by refusing
# an input change in the middle of a start tag. Here the entity u (9000
# bytes of blanks, from %s; nine times, declared inside %t; where
# parameter-entity references are allowed in a value) ends in "]><d b='1' ":
# the internal subset ends inside it, the root's start tag begins at offset
# 9000 of u and crosses its end, and the offset is then used in the
# document's 8192-byte input buffer. The first read there is SHRINK's, at
# the start over (xmlSHRINK, inlined).
bug("libxml2-CVE-2015-7500",
    driver="libxml2.c",
    input=("<!DOCTYPE d [<!ENTITY %% s \"%s\"><!ENTITY %% t \"%s<!ENTITY &#37; u '%s]><d "
           "b=&#34;1&#34; '>\">%%t;%%u; c='2'/>" % (" " * 1000, " " * 1000, "&#37;s;" * 9)).encode(),
    **LIBXML2_290)


# RE2 2014-12-09 (the fuzzer-test-suite's re2 bug): NFA::Search's shortcut
# for a match known to run to the end of the text (an AltMatch, as for
# \C* at the end) wrote match_[ip->cap()] for every capture on the way, into
# an array of 2 * the submatches asked for: an 8-byte write past it when a
# capture group is not asked for. The NFA runs when the DFA is out of memory
# ((?i)\W{1000} in UTF-8: 27000 instructions; case-sensitive it fits). Fixed by writing only captures
# below ncapture_. Debian's source drops the generated Unicode tables: prep
# makes them (Debian's unicode-data package).
bug("re2-2014-12-09",
    fts="WRITE 8 heap-buffer-overflow in re2::NFA::Search nfa.cc, from re2::Prog::SearchNFA",
    pkg="re2", tree=["re2/nfa.cc"],
    prep="test -f /usr/share/unicode/UnicodeData.txt || "
         "{ echo 'needs /usr/share/unicode (apt-get install unicode-data)' >&2; exit 1; }; "
         "perl re2/make_perl_groups.pl > re2/perl_groups.cc && "
         "python3 re2/make_unicode_casefold.py > re2/unicode_casefold.cc && "
         "python3 re2/make_unicode_groups.py > re2/unicode_groups.cc",
    patch=[("re2/nfa.cc",
            "          case kInstCapture:\n"
            "            if (ip->cap() < ncapture_)\n"
            "              match_[ip->cap()] = p;\n",
            "          case kInstCapture:\n"
            "            match_[ip->cap()] = p;\n")],
    sources=["re2/" + f + ".cc" for f in (
        "bitstate", "compile", "dfa", "nfa", "onepass", "parse", "perl_groups", "prog", "re2",
        "regexp", "simplify", "stringpiece", "tostring", "unicode_casefold", "unicode_groups")]
    + ["util/rune.cc", "util/strutil.cc"],
    cflags=["-std=c++11", "-I."], libs=["-lpthread"], cxx=True,
    driver="re2.cc", input=b"(?i)(\\C*|\\W{1000})")


# CVE-2018-5146 (vorbis 2017-12-11, Pwn2Own 2018): vorbis_book_decodevv_add
# decoded a residue of type 2 (channels interleaved) one codebook entry at a
# time, each entry's dim values added in, and checked for the partition's
# end only between entries: a codebook of more dimensions than the vector
# has room for wrote past the block's PCM vector (a += : the read faults
# first, as in the suite's READ 4). Fixed in libvorbis 1.3.6 by checking the
# end inside the entry too. The stream (vorbis_stream below) is one channel
# of 64-sample blocks, whose PCM vector (256 bytes) is a heap block of its
# own on the first packet (_vorbis_block_alloc's arena grows exactly), a
# residue over [0, 32) in one partition, and a 100-dimension codebook: its
# first entry adds into samples 0..99.
def vorbis_stream():
    """An Ogg Vorbis stream: the three headers and one audio packet, in
    Ogg pages (CRC-32 of polynomial 0x04c11db7), written bit by bit."""
    import struct

    class Bits:
        def __init__(self):
            self.bits = []

        def w(self, v, n):  # oggpack's order: least significant bit first
            self.bits += [(v >> i) & 1 for i in range(n)]
            return self

        def bytes(self):
            b = self.bits + [0] * (-len(self.bits) % 8)
            return bytes(sum(b[i + k] << k for k in range(8)) for i in range(0, len(b), 8))

    def header(kind):
        b = Bits().w(kind, 8)
        for c in b"vorbis":
            b.w(c, 8)
        return b

    # identification: version 0, 1 channel, 8000 Hz, no bitrates, both
    # block sizes 2^6, framing bit
    ident = header(1).w(0, 32).w(1, 8).w(8000, 32).w(0, 96).w(6, 4).w(6, 4).w(1, 1)
    comment = header(3).w(0, 32).w(0, 32).w(1, 1)  # no vendor, no comments
    s = header(5).w(1, 8)  # two codebooks:
    # 0 (the residue's classes): dim 1, 2 entries of length 1, no values
    s.w(0x564342, 24).w(1, 16).w(2, 24).w(0, 2).w(0, 5).w(0, 5).w(0, 4)
    # 1 (its stage): dim 100, 2 entries of length 1, values of type 1:
    # minimum 0.0, step 1.0 (Vorbis's float: mantissa 1, exponent 788),
    # 1-bit multiplicands, one of them (1)
    s.w(0x564342, 24).w(100, 16).w(2, 24).w(0, 2).w(0, 5).w(0, 5).w(1, 4)
    s.w(0, 32).w((788 << 21) | 1, 32).w(0, 4).w(0, 1).w(1, 1)
    s.w(0, 6).w(0, 16)  # one time transform (type 0)
    s.w(0, 6).w(1, 16).w(0, 5).w(0, 2).w(5, 4)  # one floor 1: no partitions
    # one residue of type 2: [0, 32), partitions of 32, one class (book 0)
    # with one stage (book 1)
    s.w(0, 6).w(2, 16).w(0, 24).w(32, 24).w(31, 24).w(0, 6).w(0, 8).w(1, 3).w(0, 1).w(1, 8)
    s.w(0, 6).w(0, 16).w(0, 4).w(0, 24)  # one mapping: 1 submap (floor 0, residue 0)
    s.w(0, 6).w(0, 1).w(0, 32).w(0, 8)  # one mode: short blocks, mapping 0
    s.w(1, 1)
    # audio: type 0; the floor: used, posts 100 and 100; the residue:
    # class 0, then entry 0 of the 100-dimension book
    audio = Bits().w(0, 1).w(1, 1).w(100, 8).w(100, 8).w(0, 1).w(0, 1).bytes()

    def crc(data):
        c = 0
        for byte in data:
            c ^= byte << 24
            for _ in range(8):
                c = ((c << 1) ^ 0x04C11DB7 if c & 0x80000000 else c << 1) & 0xFFFFFFFF
        return c

    def page(packets, seq, flags, granule):
        lacing = b"".join(b"\xff" * (len(p) // 255) + bytes([len(p) % 255]) for p in packets)
        pg = struct.pack("<4sBBqIIIB", b"OggS", 0, flags, granule, 0x1234, seq, 0,
                         len(lacing)) + lacing + b"".join(packets)
        return pg[:22] + struct.pack("<I", crc(pg)) + pg[26:]

    return (page([ident.bytes()], 0, 2, 0) + page([comment.bytes(), s.bytes()], 1, 0, 0)
            + page([audio, audio], 2, 4, 64))


bug("vorbis-2017-12-11",
    fts="READ 4 heap-buffer-overflow in vorbis_book_decodevv_add, res2_inverse, mapping0_inverse",
    pkg="libvorbis", tree=["lib/codebook.c", "lib/vorbisfile.c"],
    prep="test -f /usr/include/ogg/ogg.h || "
         "{ echo 'needs the Ogg headers (apt-get install libogg-dev)' >&2; exit 1; }",
    patch=[("lib/codebook.c", "        for (j=0;i<m && j<book->dim;j++){\n",
            "        for (j=0;j<book->dim;j++){\n")],
    sources=["lib/" + f + ".c" for f in (
        "analysis", "bitrate", "block", "codebook", "envelope", "floor0", "floor1", "info",
        "lookup", "lpc", "lsp", "mapping0", "mdct", "psy", "registry", "res0", "sharedbook",
        "smallft", "synthesis", "vorbisfile", "window")],
    cflags=["-Iinclude", "-Ilib"], libs=["-logg", "-lm"],
    driver="vorbis.c", input=vorbis_stream())


# PROJ4 2017-08-14: a leak on urm5's error path. The suite's report: the
# PJ made by pj_urm5 (direct) and the 32-byte opaque of its set-up
# (indirect), left when the set-up failed on a missing n: it returned
# without its destructor. Reintroduced into PROJ 9.1.1 by making that error
# return set the error and give nullptr instead of calling
# pj_default_destructor (pj_init then has no PJ to destroy). Only the
# set-up path is built (init, parameters, ellipsoids, units, context, the
# projection list, urm5): PROJ 9 whole is some 200 C++ sources with CMake
# and SQLite. prep compiles that part once, plainly, and makes stubs
# (returning 0) of every function it refers to and does not define (the
# ISO 19111 catalogue, grids, networking, the other projections), none of
# which this input's path uses but for the default context's network
# hooks. The fuzz target (proj4.cc) sets up a projection from the input's
# "+proj=... +k=v" parameters.
PROJ_SOURCES = ["src/" + f + ".cpp" for f in (
    "4D_api", "init", "param", "malloc", "ell_set", "ellps", "datums", "datum_set", "units",
    "ctx", "log", "strerrno", "internal", "list", "aasincos", "adjlon", "dmstor", "strtod")] \
    + ["src/projections/urm5.cpp"]
bug("proj4-2017-08-14",
    fts="leak: 640 bytes direct from pj_urm5 (pj_calloc), 32 indirect from "
        "pj_projection_specific_setup_urm5",
    pkg="proj", tree=["src/projections/urm5.cpp", "src/init.cpp"],
    prep="set -e; : > src/proj_config.h; rm -rf .stubs; mkdir .stubs; cd .stubs; "
         "g++ -O0 -std=c++17 -w -I../src -I../include -c "
         + " ".join("../" + f for f in PROJ_SOURCES) + " " + os.path.join(HERE, "proj4.cc")
         + "; gcc -c " + os.path.join(HERE, "fuzz_main.c") + "; "
         "g++ *.o -Wl,--no-demangle -o none 2>&1 | sed -n \"s/.*undefined reference to \\`\\(.*\\)'/\\1/p\" "
         "| sort -u > undefined.txt; test -s undefined.txt; "
         "{ echo .text; while read f; do printf '.globl %s\\n.type %s,@function\\n%s:\\n"
         "\\txorl %%eax,%%eax\\n\\tret\\n' \"$f\" \"$f\" \"$f\"; done < undefined.txt; "
         "echo '.section .note.GNU-stack,\"\",@progbits'; } > ../src/realbugs_stubs.s",
    patch=[("src/projections/urm5.cpp",
            "        proj_log_error(P, _(\"Missing parameter n.\"));\n"
            "        return pj_default_destructor(P, PROJ_ERR_INVALID_OP_MISSING_ARG);\n",
            "        proj_log_error(P, _(\"Missing parameter n.\"));\n"
            "        proj_errno_set(P, PROJ_ERR_INVALID_OP_MISSING_ARG);\n"
            "        return nullptr;\n")],
    sources=PROJ_SOURCES + ["src/realbugs_stubs.s"],
    cflags=["-std=c++17", "-Isrc", "-Iinclude"], cxx=True,
    driver="proj4.cc", input=b"+proj=urm5 +alpha=1")


# --- building -----------------------------------------------------------

def variants():
    cc = os.path.join(BUILD, "bin", "ukasan-cc")
    cxx = os.path.join(BUILD, "bin", "ukasan-c++")
    return {
        "asan-gcc": (["gcc", "-fsanitize=address"], ["g++", "-fsanitize=address"], {}),
        "asan-clang": (["clang-16", "-fsanitize=address"], ["clang++-16", "-fsanitize=address"], {}),
        "ukasan-gcc": ([cc], [cxx], {"UKASAN_CC": "gcc", "UKASAN_CXX": "g++"}),
        "ukasan-clang": ([cc], [cxx], {"UKASAN_CC": "clang-16", "UKASAN_CXX": "clang++-16"}),
    }


VARIANTS = ["asan-gcc", "asan-clang", "ukasan-gcc", "ukasan-clang"]


class Skip(Exception):
    pass


class Fail(Exception):
    pass


def sh(cmd, cwd, env=None, log=None):
    r = subprocess.run(cmd, cwd=cwd, env=env, shell=isinstance(cmd, str),
                       capture_output=True, text=True, errors="replace")
    if log:
        with open(log, "a") as f:
            f.write("$ %s\n%s%s" % (cmd if isinstance(cmd, str) else " ".join(cmd), r.stdout, r.stderr))
    return r


def debian_tree(b):
    cmd = ('. "$ROOT/tests/projects/_debsrc.sh"; debsrc_get %s %s'
           % (b["pkg"], " ".join(b["tree"])))
    env = dict(os.environ, ROOT=ROOT, BUILD=BUILD, WORK=os.path.join(OUT, "_fetch"))
    r = subprocess.run(["sh", "-c", cmd], env=env, capture_output=True, text=True)
    lines = r.stdout.strip().splitlines()
    if r.returncode != 0 or not lines or not os.path.isdir(lines[-1]):
        raise Skip((lines[-1] if lines else "") + r.stderr.strip()[-200:])
    return lines[-1]


def npm_tree(b):
    """The library's source as an npm package bundles it: `npm pack` fetches
    the package's tarball (npm checks it against the registry's integrity
    hash), and the hash recorded with the bug is checked again here, so the
    tree is the one measured. Unpacked once into
    build/third_party/npm/<package>-<version>/ (git-ignored)."""
    pkg, ver, integrity, sub = b["npm"]
    base = os.path.join(BUILD, "third_party", "npm")
    dest = os.path.join(base, "%s-%s" % (pkg, ver))
    mark = os.path.join(dest, ".integrity")
    tree = os.path.join(dest, sub)
    if os.path.exists(mark) and open(mark).read() == integrity:
        return tree
    os.makedirs(base, exist_ok=True)
    tgz = os.path.join(base, "%s-%s.tgz" % (pkg, ver))
    if not os.path.exists(tgz):
        if not shutil.which("npm"):
            raise Skip("npm is not installed (the source is %s@%s's)" % (pkg, ver))
        try:
            r = subprocess.run(["npm", "pack", "--silent", "--fetch-retries=0",
                                "--fetch-timeout=30000", "--pack-destination", base,
                                "%s@%s" % (pkg, ver)],
                               cwd=base, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise Skip("npm pack %s@%s timed out (no network?)" % (pkg, ver))
        if r.returncode != 0 or not os.path.exists(tgz):
            raise Skip("npm pack %s@%s failed (no network?): %s"
                       % (pkg, ver, (r.stderr or r.stdout).strip()[-200:]))
    got = "sha512-" + base64.b64encode(hashlib.sha512(open(tgz, "rb").read()).digest()).decode()
    if got != integrity:
        os.unlink(tgz)
        raise Fail("%s@%s: the tarball's hash is %s, not the recorded %s" % (pkg, ver, got, integrity))
    stage = dest + ".partial"
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    r = sh(["tar", "xzf", tgz, "--no-same-owner", "-C", stage, sub], base)
    if r.returncode != 0:
        raise Fail("%s@%s: tar: %s" % (pkg, ver, r.stderr.strip()[-200:]))
    missing = [f for f in b["tree"] if not os.path.exists(os.path.join(stage, sub, f))]
    if missing:
        raise Fail("%s@%s has no %s in %s" % (pkg, ver, ", ".join(missing), sub))
    open(os.path.join(stage, ".integrity"), "w").write(integrity)
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(stage, dest)
    return tree


def digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(repr(p).encode())
    return h.hexdigest()[:16]


def prepared_tree(name, b):
    """A copy of Debian's tree with the bug put back and prep run, reused
    while the patch and prep are unchanged."""
    src = npm_tree(b) if b["npm"] else debian_tree(b)
    work = os.path.join(OUT, b["lib"], "src")
    key = digest(src, b["patch"], b["prep"])
    stamp = os.path.join(work, ".realbugs-stamp")
    if os.path.exists(stamp) and open(stamp).read() == key:
        return work
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(src, work, symlinks=True)
    for rel, old, new in b["patch"]:
        p = os.path.join(work, rel)
        text = open(p, encoding="latin-1").read()
        if text.count(old) != 1:
            raise Fail("%s: the fix to undo is not in %s (found %d times): Debian's "
                       "source changed" % (name, rel, text.count(old)))
        open(p, "w", encoding="latin-1").write(text.replace(old, new))
    if b["prep"]:
        env = dict(os.environ, CC="gcc", CXX="g++", CFLAGS="-O0", CXXFLAGS="-O0")
        r = sh(b["prep"], work, env, os.path.join(OUT, b["lib"], "prep.log"))
        if r.returncode != 0:
            raise Fail("%s: prep failed (%s): %s" % (name, os.path.join(OUT, b["lib"], "prep.log"),
                                                     (r.stderr or r.stdout).strip()[-300:]))
    open(stamp, "w").write(key)
    return work


def compile_one(args):
    cmd, cwd, env, obj = args
    r = subprocess.run(["nice"] + cmd, cwd=cwd, env=env, capture_output=True, text=True,
                       errors="replace")
    if r.returncode != 0:
        try:
            os.unlink(obj)
        except FileNotFoundError:
            pass
        return "%s\n%s" % (" ".join(cmd), r.stderr[-2000:])
    return None


def build_lib(name, b, work, variant):
    """The library's sources compiled into lib.a, once per library and
    variant (bugs that name the same lib share it)."""
    ccs, cxxs, extra_env = variants()[variant]
    env = build_env(extra_env)
    d = os.path.join(OUT, b["lib"], "lib-" + variant)
    key = digest(open(os.path.join(work, ".realbugs-stamp")).read(), ccs, cxxs, extra_env,
                 FLAGS, b["cflags"], b["sources"],
                 # ukasan's wrapper and the runtime part linked into programs
                 [os.path.getmtime(f) for f in (ccs[0], os.path.join(BUILD, "lib",
                                                                    "libukasan_static.a"))
                  if os.path.isabs(ccs[0]) and os.path.exists(f)])
    lib = os.path.join(d, "lib.a")
    stamp = os.path.join(d, ".stamp")
    if os.path.exists(stamp) and open(stamp).read() == key and os.path.exists(lib):
        return lib, key
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    files = []
    for g in b["sources"]:
        files += sorted(glob.glob(os.path.join(work, g)))
    if not files:
        raise Fail("%s: no sources match %s" % (name, b["sources"]))
    jobs, objs = [], []
    for f in files:
        rel = os.path.relpath(f, work)
        obj = os.path.join(d, rel.replace("/", "__") + ".o")
        objs.append(obj)
        comp = cxxs if f.endswith((".cc", ".cpp", ".cxx")) else ccs
        jobs.append((comp + FLAGS + b["cflags"] + ["-w", "-c", f, "-o", obj], work, env, obj))
    with concurrent.futures.ThreadPoolExecutor(JOBS) as ex:
        errs = [e for e in ex.map(compile_one, jobs) if e]
    if errs:
        open(os.path.join(d, "build.log"), "w").write("\n".join(errs))
        raise Fail("%s [%s]: %d files did not compile: %s" % (name, variant, len(errs),
                                                               errs[0][-600:]))
    r = sh(["ar", "rcs", lib] + objs, d)
    if r.returncode != 0:
        raise Fail("%s [%s]: ar: %s" % (name, variant, r.stderr))
    open(stamp, "w").write(key)
    return lib, key


def build_env(extra_env):
    env = dict(os.environ, **extra_env)
    for k in ("UKASAN_OPTIONS", "ASAN_OPTIONS", "LD_PRELOAD", "UKASAN_INSTRUMENT", "UKASAN_MODE"):
        env.pop(k, None)
    return env


def build(name, b, work, variant):
    """The bug's fuzz target: its driver and fuzz_main.c linked with the
    library."""
    lib, lib_key = build_lib(name, b, work, variant)
    ccs, cxxs, extra_env = variants()[variant]
    env = build_env(extra_env)
    d = os.path.join(OUT, name, variant)
    drv = os.path.join(HERE, b["driver"])
    main_c = os.path.join(HERE, "fuzz_main.c")
    key = digest(lib_key, b["libs"], open(drv).read(), open(main_c).read())
    exe = os.path.join(d, "fuzzer")
    stamp = os.path.join(d, ".stamp")
    if os.path.exists(stamp) and open(stamp).read() == key and os.path.exists(exe):
        return exe
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    comp = cxxs if b["cxx"] else ccs
    main_o = os.path.join(d, "fuzz_main.o")
    err = compile_one((ccs + FLAGS + ["-c", main_c, "-o", main_o], work, env, main_o))
    drv_o = os.path.join(d, "driver.o")
    err = err or compile_one(((cxxs if drv.endswith(".cc") else ccs) + FLAGS + b["cflags"]
                              + ["-c", drv, "-o", drv_o], work, env, drv_o))
    err = err or compile_one((comp + FLAGS + [main_o, drv_o, lib] + b["libs"] + ["-o", exe],
                              work, env, exe))
    if err:
        open(os.path.join(d, "build.log"), "w").write(err)
        raise Fail("%s [%s]: %s" % (name, variant, err[-600:]))
    open(stamp, "w").write(key)
    return exe


# --- running and reading the reports ------------------------------------

SYMBOLIZER = shutil.which("llvm-symbolizer-16") or shutil.which("llvm-symbolizer")


def run(name, b, exe, variant):
    d = os.path.dirname(exe)
    inp = b["input"]
    if callable(inp):
        path = inp(os.path.join(OUT, b["lib"], "src"), d)
    elif isinstance(inp, bytes):
        path = os.path.join(d, "input")
        open(path, "wb").write(inp)
    else:
        path = os.path.join(HERE, inp)
    env = dict(os.environ)
    for k in ("UKASAN_OPTIONS", "ASAN_OPTIONS", "LD_PRELOAD", "LSAN_OPTIONS"):
        env.pop(k, None)
    if variant.startswith("asan"):
        env["ASAN_OPTIONS"] = ":".join(x for x in ["dedup_token_length=3", b["asan_options"]] if x)
        if SYMBOLIZER:
            env["ASAN_SYMBOLIZER_PATH"] = SYMBOLIZER
    elif b["ukasan_options"]:
        env["UKASAN_OPTIONS"] = b["ukasan_options"]
    try:
        r = subprocess.run([exe, path], env=env, capture_output=True, text=True,
                           errors="replace", timeout=300)
        text, rc = r.stderr, r.returncode
    except subprocess.TimeoutExpired as e:
        text, rc = (e.stderr or b"").decode(errors="replace") + "\n[timeout]\n", -1
    open(os.path.join(d, "report.txt"), "w").write(text)
    return text, rc


RUNTIME = re.compile(r"^(__asan_|__interceptor_|___interceptor_|__sanitizer_|__lsan_|__kasan_"
                     r"|kasan_|__ukasan|ukasan_|check_memory_region|"
                     r"(__libc_)?(malloc|calloc|realloc|free|memalign|posix_memalign|"
                     r"aligned_alloc|strdup|strndup)$|operator new|operator delete)")


def strip_args(fn):
    """woff2::Buffer::Read(unsigned char*, unsigned long) -> woff2::Buffer::Read,
    leaving '(anonymous namespace)' inside the name."""
    fn = fn.strip()
    if fn.endswith(" const"):
        fn = fn[:-6]
    if not fn.endswith(")"):
        return fn
    depth = 0
    for i in range(len(fn) - 1, -1, -1):
        if fn[i] == ")":
            depth += 1
        elif fn[i] == "(":
            depth -= 1
            if depth == 0:
                return fn[:i] if i else fn
    return fn


def short_loc(loc):
    """/x/y/src/./buffer.h:86:7 -> buffer.h:86 (file name and line only: the
    tools print directories and columns differently)."""
    m = re.match(r"(.*?):(\d+)(?::\d+)?$", loc or "")
    if not m:
        return loc or "?"
    return "%s:%s" % (os.path.basename(m.group(1)), m.group(2))


def first_stack_asan(lines):
    frames, started = [], False
    for l in lines:
        m = re.match(r"\s*#(\d+) 0x[0-9a-f]+ in (.*?)(?: (\S+:\d+(?::\d+)?))?(?: \(.*\))?$", l)
        if m:
            started = True
            frames.append((strip_args(m.group(2)), m.group(3)))
        elif started:
            break
    return frames


def parse_asan(text):
    lines = text.splitlines()
    r = {"detected": False}
    m = re.search(r"ERROR: (AddressSanitizer|LeakSanitizer): ([\w-]+)", text)
    if not m:
        return r
    r["detected"] = True
    r["type"] = m.group(2)
    if m.group(1) == "LeakSanitizer":
        lm = re.search(r"^(Direct|Indirect) leak of (\d+) byte", text, re.M)
        r["type"] = "leak"
        r["size"] = lm.group(2) if lm else "?"
        start = text.index(lm.group(0)) if lm else 0
        lines = text[start:].splitlines()
    else:
        am = re.search(r"^(READ|WRITE) of size (\d+)", text, re.M)
        r["access"] = am.group(1).lower() if am else ""
        r["size"] = am.group(2) if am else "?"
        idx = text.find("ERROR: AddressSanitizer")
        lines = text[idx:].splitlines()
    frames = first_stack_asan(lines)
    r["frames"] = frames
    dm = re.search(r"^DEDUP_TOKEN: (.*)$", text, re.M)
    r["dedup"] = dm.group(1) if dm else ""
    return r


KASAN_TYPE = {"slab-out-of-bounds": "heap-buffer-overflow",
              "slab-use-after-free": "heap-use-after-free",
              "use-after-free": "heap-use-after-free",
              "stack-out-of-bounds": "stack-buffer-overflow",
              "global-out-of-bounds": "global-buffer-overflow",
              "out-of-bounds": "heap-buffer-overflow"}


def parse_ukasan(text):
    r = {"detected": False}
    m = re.search(r"^BUG: (KASAN|KFENCE): ([\w-]+(?: (?:read|write))?)", text, re.M)
    leak = re.search(r"^unreferenced object 0x[0-9a-f]+ \(size (\d+)\)", text, re.M)
    if m:
        r["detected"] = True
        kind = m.group(2).split()[0]
        r["raw_type"] = m.group(2)
        r["type"] = KASAN_TYPE.get(kind, kind)
        am = re.search(r"^(Read|Write) of size (\d+)", text, re.M)
        r["access"] = am.group(1).lower() if am else ""
        r["size"] = am.group(2) if am else "?"
        start = text.find("Call Trace:", m.start())
        if start < 0:
            start = m.start()
    elif leak:
        r["detected"] = True
        r["type"] = r["raw_type"] = "leak"
        r["size"] = leak.group(1)
        start = text.find("backtrace", leak.start())
    else:
        return r
    frames = []
    for l in text[start:].splitlines()[1:]:
        if re.match(r"\s*</TASK>|^\S|^\s*$", l) and frames:
            break
        fm = re.match(r"\s*(?:\[<[0-9a-f]+>\] )?(?:\[<[0-9a-f]+>\] )?(.+?)\+0x[0-9a-f]+/0x[0-9a-f]+"
                      r"(?: (\S+:\d+))?", l)
        if fm:
            frames.append((strip_args(fm.group(1)), fm.group(2)))
    r["frames"] = frames
    dm = re.search(r"^DEDUP_TOKEN: (.*)$", text, re.M)
    r["dedup"] = dm.group(1) if dm else ""
    return r


# GCC's clone suffixes: the kernel form keeps the symbol's name
# ("xstrpisotime.constprop.0"), as the kernel's stacks do; llvm-symbolizer
# names ASan's frames from the debug information, without them.
CLONE = re.compile(r"(\.(constprop|isra|part|cold|lto_priv|localalias)(\.\d+)?)+$| \[clone [^]]*\]")


def top_frame(frames):
    """The first frame outside the runtime: not ASan's interceptors and
    allocator, nor ukasan's (its interceptors linked into the program,
    src/interceptors/)."""
    for fn, loc in frames or []:
        if not RUNTIME.match(fn) and "src/interceptors/" not in (loc or ""):
            return "%s %s" % (CLONE.sub("", fn), short_loc(loc))
    return "?"


def clusterfuzz(text):
    if stacktraces is None:
        return None
    s = stacktraces.StackParser().parse(text)
    return s.crash_type.replace("\n", " "), s.crash_state.strip().replace("\n", " / ")


# --- the table ----------------------------------------------------------

def measure(name, verbose=False, which=None):
    b = BUGS[name]
    work = prepared_tree(name, b)
    res = {}
    for v in which or VARIANTS:
        exe = build(name, b, work, v)
        text, rc = run(name, b, exe, v)
        p = parse_asan(text) if v.startswith("asan") else parse_ukasan(text)
        p["rc"] = rc
        p["top"] = top_frame(p.get("frames"))
        p["cf"] = clusterfuzz(text)
        p["report"] = os.path.join(os.path.dirname(exe), "report.txt")
        res[v] = p
        if verbose:
            print("---- %s [%s] (exit %s)\n%s" % (name, v, rc, text))
    return res


def describe(p):
    if not p["detected"]:
        return "not detected (exit %s)" % p["rc"]
    acc = ("%s %s" % (p.get("access", ""), p["size"])).strip()
    return "%s %s | %s" % (p["type"], acc, p["top"])


def compare(name, res):
    """Differences of each ukasan build from ASan's build by the same compiler."""
    diffs = []
    for comp in ("gcc", "clang"):
        if "asan-" + comp not in res or "ukasan-" + comp not in res:
            continue
        a, u = res["asan-" + comp], res["ukasan-" + comp]
        if not a["detected"]:
            continue
        if not u["detected"]:
            diffs.append("%s: ukasan missed it" % comp)
            continue
        if a["type"] != u["type"]:
            diffs.append("%s: type %s, ASan %s" % (comp, u["type"], a["type"]))
        if a.get("size") != u.get("size") or a.get("access") != u.get("access"):
            diffs.append("%s: access %s %s, ASan %s %s" % (comp, u.get("access"), u.get("size"),
                                                           a.get("access"), a.get("size")))
        if a["top"] != u["top"]:
            diffs.append("%s: top frame %s, ASan %s" % (comp, u["top"], a["top"]))
        if a["cf"] and u["cf"] and a["cf"][1] != u["cf"][1]:
            diffs.append("%s: ClusterFuzz state %r, ASan %r" % (comp, u["cf"][1], a["cf"][1]))
    return diffs


def main(argv):
    verbose = "-v" in argv
    names = [a for a in argv if not a.startswith("-")] or list(BUGS)
    for n in names:
        if n not in BUGS:
            sys.exit("run.py: no bug %r (have: %s)" % (n, ", ".join(BUGS)))
    status, measured = 0, 0
    summary = {}
    for n in names:
        print("== %s%s" % (n, "   (fuzzer-test-suite: %s)" % BUGS[n]["fts"] if BUGS[n]["fts"] else ""))
        sys.stdout.flush()
        try:
            res = measure(n, verbose)
        except Skip as e:
            print("   skipped: %s" % e)
            continue
        except Fail as e:
            print("   FAILED: %s" % e)
            status = 1
            continue
        measured += 1
        for v in VARIANTS:
            p = res[v]
            print("   %-13s %s" % (v, describe(p)))
            cf = p["cf"]
            if p["detected"]:
                print("   %-13s DEDUP %s; ClusterFuzz %s" % ("", p.get("dedup") or "-",
                                                            "%s: %s" % cf if cf else "-"))
        diffs = compare(n, res)
        for d in diffs:
            print("   differs: %s" % d)
        if diffs:
            status = 1
        summary[n] = {v: {k: res[v].get(k) for k in ("detected", "type", "access", "size", "top",
                                                       "dedup", "cf", "report")}
                      for v in VARIANTS}
        summary[n]["differs"] = diffs
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(summary, f, indent=1)
    if not measured:
        return 77
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
