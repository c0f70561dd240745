#!/usr/bin/env python3
"""Four real bugs in real libraries (tests/projects/realbugs/run.py has all
of them and says how they are made): woff2's and libarchive's reintroduced
into Debian's current source package by undoing the upstream fix, two of
libxml2's 2015 CVEs measured at libxml2 2.9.0, a release that has them (the
source the npm package libxmljs 0.16.0 bundles). Each is built by gcc and clang-16 with
-fsanitize=address and with ukasan-cc, and run on its reproducer. ukasan
must detect each bug ASan detects, of the same type and access, with the
same top frame (inlined functions counted as frames), and ClusterFuzz's
crash state must be ASan's (skipped without the clusterfuzz package).

  woff2-2016-05-06       memcpy past a glyph buffer in woff2::Buffer::Read,
                         inlined into ReconstructGlyf (C++: the ASan-form
                         stack; gcc calls the memcpy interceptor)
  libarchive-2017-01-04  a read past the input in xstrpisotime, which gcc
                         clones (.constprop.0), with _warc_rdrtm inlined into
                         _warc_rdhdr, under a fuzz target
  libxml2-CVE-2015-8242  a read past a one-byte local of the HTML push
                         parser (a stack-buffer-overflow) in xmlSAX2TextNode
  libxml2-CVE-2015-7500  a start tag across a parameter entity's end: a
                         heap read in xmlSHRINK, inlined into
                         xmlParseStartTag2 (the two share one library build)

woff2 built by gcc was one where it differed: its outer frame ReconstructGlyf
(in an anonymous namespace, which GCC gives no linkage name) is
"ReconstructGlyf" to GCC's ASan, which names frames from the debug
information, and was the symbol's
"woff2::(anonymous namespace)::ReconstructGlyf(...)" to ukasan's
ASan-form stack, the third frame of the crash state.

Builds are cached in build/realbugs/ (a cold build of all four: a few
minutes). Skipped, saying why, without Debian's source packages (apt-get
source), npm or the network to fetch libxmljs (once; cached in
build/third_party/npm/), clang-16 or libbrotli-dev."""
import os
import shutil
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
sys.path.insert(0, os.path.join(ROOT, "tests", "projects", "realbugs"))
import run as realbugs  # noqa: E402  (re-executes under build/venv for clusterfuzz)

def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "realbugs: " + name + ("" if good else " - " + why))
    sys.stdout.flush()


def main():
    if not os.access(os.path.join(realbugs.BUILD, "bin", "ukasan-cc"), os.X_OK):
        print("not ok realbugs - build/bin/ukasan-cc missing: run make first")
        return
    comps = ["gcc"] + (["clang"] if shutil.which("clang-16") else [])
    which = [k + "-" + c for c in comps for k in ("asan", "ukasan")]
    for name in ("woff2-2016-05-06", "libarchive-2017-01-04", "libxml2-CVE-2015-8242",
                 "libxml2-CVE-2015-7500"):
        if name.startswith("woff2") and not os.path.exists("/usr/include/brotli/decode.h"):
            print("ok realbugs: %s # skipped: libbrotli-dev is not installed" % name)
            continue
        try:
            res = realbugs.measure(name, which=which)
        except realbugs.Skip as e:
            print("ok realbugs: %s # skipped: %s" % (name, e))
            continue
        except realbugs.Fail as e:
            ok(name + " builds and runs", False, str(e))
            continue
        for c in comps:
            a, u = res["asan-" + c], res["ukasan-" + c]
            tag = "%s [%s]" % (name, c)
            ok(tag + ": ASan detects it", a["detected"], "no ASan report (%s)" % a["report"])
            if not a["detected"]:
                continue
            ok(tag + ": detected", u["detected"], "no report (%s)" % u["report"])
            if not u["detected"]:
                continue
            ok(tag + ": type and access as ASan's",
               (u["type"], u.get("access"), u.get("size")) == (a["type"], a.get("access"), a.get("size")),
               "%s %s %s, ASan %s %s %s" % (u["type"], u.get("access"), u.get("size"),
                                            a["type"], a.get("access"), a.get("size")))
            ok(tag + ": top frame as ASan's", u["top"] == a["top"],
               "%r, ASan %r (%s)" % (u["top"], a["top"], u["report"]))
            if a["cf"] and u["cf"]:
                ok(tag + ": ClusterFuzz crash state as ASan's", u["cf"][1] == a["cf"][1],
                   "%r, ASan %r" % (u["cf"][1], a["cf"][1]))


if __name__ == "__main__":
    main()
