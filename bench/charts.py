"""Charts of the benchmarks' main tables, drawn with gnuplot (Debian's
gnuplot-nox, in tools/deps.sh's bench group) as small SVG files: bars of
each build's cost as a multiple of glibc's, on a log scale, since ASan's
and ukasan's differ by tens. Without gnuplot, no chart and a note why."""
import os
import shutil
import subprocess

from benchlib import attr, paired

COLOURS = {"asan": "#d95f02", "uk": "#1b9e77", "uk-before": "#7570b3"}


def bars(path, title, groups, series, ylabel="x glibc (log scale)"):
    """groups: the x labels; series: [(name, colour, [value or None per
    group])]. Writes path (.svg) and its .dat and .gp beside it; returns
    path, or None when gnuplot is missing or fails."""
    gp = shutil.which("gnuplot")
    if not gp:
        return None
    base = os.path.splitext(path)[0]
    with open(base + ".dat", "w") as f:
        for i, g in enumerate(groups):
            vals = ["NaN" if s[2][i] is None else f"{s[2][i]:.3f}" for s in series]
            f.write(f'"{g}" ' + " ".join(vals) + "\n")
    plots = ", ".join(
        f"'{base}.dat' using {i + 2}:xtic(1) title '{n}' lc rgb '{c}'"
        for i, (n, c, _) in enumerate(series))
    labels = ", ".join(
        f"'{base}.dat' using ($0 + {(i - (len(series) - 1) / 2) / (len(series) + 1):.3f}):"
        f"{i + 2}:(sprintf('%.1f', ${i + 2})) with labels offset 0,0.6 font ',8' notitle"
        for i in range(len(series)))
    script = f"""set terminal svg size 860,340 dynamic font "sans,10"
set output '{path}'
set title "{title}" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 noborder
set boxwidth 0.8
set logscale y
set yrange [0.3:*]
set ylabel "{ylabel}"
set grid ytics
set key top left
set xtics nomirror noenhanced
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'
plot {plots}, {labels}
"""
    with open(base + ".gp", "w") as f:
        f.write(script)
    r = subprocess.run([gp, base + ".gp"], capture_output=True, text=True)
    return path if r.returncode == 0 and os.path.exists(path) else None


def _ratio(b, key, what):
    return paired(b.samples[key], b.samples["plain"], attr(what)) if b else None


def seeds(benches, outdir, tests):
    """bench/run_seeds.py's vmalloc tables: per mode, ASan's and ukasan's
    wall, CPU, system time and peak RSS against glibc's, 1 and 2 threads;
    and, with every page written, each test's wall time against glibc's."""
    by = {b.key: b for b in benches}
    out = []
    os.makedirs(outdir, exist_ok=True)
    for mode, t1, t2, name in (("one byte written per object", "vmalloc-t1", "vmalloc-t2",
                                "vmalloc_byte"),
                               ("every page written", "vmalloc-pages-t1", "vmalloc-pages-t2",
                                "vmalloc_pages")):
        if t1 not in by and t2 not in by:
            continue
        groups, cols = [], {k: [] for k in ("asan", "uk")}
        for threads, key in (("1t", t1), ("2t", t2)):
            for what, label in (("wall", "wall"), ("cpu", "CPU"), ("sys", "sys"),
                                ("rss_mb", "peak RSS")):
                groups.append(f"{label} {threads}")
                for k in cols:
                    cols[k].append(_ratio(by.get(key), k, what))
        series = [("ASan", COLOURS["asan"], cols["asan"]),
                  ("ukasan", COLOURS["uk"], cols["uk"])]
        p = bars(os.path.join(outdir, f"{name}.svg"),
                 f"test_vmalloc.sh shapes, {mode}: cost as a multiple of glibc's", groups,
                 series)
        out += [p] if p else []
    b = by.get("vmalloc-pages-t1")
    if b:
        groups = tests + ["total"]
        get = lambda n: (lambda s: s.values.get(n))
        series = [(lbl, COLOURS[k],
                   [paired(b.samples[k], b.samples["plain"], get(n)) for n in groups])
                  for lbl, k in (("ASan", "asan"), ("ukasan", "uk"))]
        p = bars(os.path.join(outdir, "vmalloc_pages_tests.svg"),
                 "Every page written, 1 thread: wall time per test, x glibc",
                 [g.replace("_", " ") for g in groups], series)
        out += [p] if p else []
    if not out:
        print("bench: no charts drawn (gnuplot missing? tools/deps.sh bench installs it)")
    return out
