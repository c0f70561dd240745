"""What the benchmark scripts share: the runner's environment, a private
copy of the runtime, running a program under bench/generic/launch.c, which
reports its wall time, CPU time and peak RSS from wait4(2), and writing the
results as markdown tables."""
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")

# The runner's environment, without anything that would change the setup
# under test (a preload, a sanitizer's or an allocator's options, what
# ukasan-cc or a build reads): each run or build adds its own.
SETUP_VARS = ("LD_PRELOAD", "LD_LIBRARY_PATH", "UKASAN_OPTIONS", "ASAN_OPTIONS", "LSAN_OPTIONS",
              "HWASAN_OPTIONS", "SCUDO_OPTIONS", "UKASAN_CC", "UKASAN_CXX", "UKASAN_MODE",
              "UKASAN_INSTRUMENT", "UKASAN_RECOVER", "MALLOC_CHECK_", "MALLOC_PERTURB_",
              "QEMU_LD_PREFIX", "QEMU_CPU", "QEMU_PLUGIN", "CFLAGS", "CPPFLAGS")
BASE_ENV = {k: v for k, v in os.environ.items() if k not in SETUP_VARS}
BASE_ENV.update(LC_ALL="C", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")

# ukasan-cc and the runtime; the last three are optional (older trees lack
# them).
RUNTIME_FILES = ("bin/ukasan-cc", "lib/libukasan.so", "lib/libukasan_static.a",
                 "lib/ukasan_marker.o", "lib/clang_reports.h", "lib/ukasan_exports",
                 "lib/libukasan_syscall_hooks.a")


def copy_runtime(build, dest, files=RUNTIME_FILES):
    """The files of a build directory (build/ of this tree or another),
    copied under dest so that a rebuild while the benchmark runs changes
    nothing measured. Returns the copy's ukasan-cc."""
    for f in files:
        src = os.path.join(build, f)
        if not os.path.exists(src):
            if f.endswith((".h", "_exports", "_hooks.a")):
                continue
            sys.exit(f"bench: {src} not found: run make first")
        os.makedirs(os.path.join(dest, os.path.dirname(f)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, f))
    return os.path.join(dest, "bin", "ukasan-cc")


def build_launcher(dest):
    """bench/generic/launch.c, built into dest. Returns its path."""
    exe = os.path.join(dest, "launch")
    os.makedirs(dest, exist_ok=True)
    subprocess.run(["gcc", "-O2", "-Wall", "-Wextra",
                    os.path.join(ROOT, "bench", "generic", "launch.c"), "-o", exe], check=True)
    return exe

report = []  # every line emitted, appended to the results file at the end


def emit(text=""):
    print(text, flush=True)
    report.append(text)


def table(headers, rows, numeric=r"[-\d.?]*"):
    """A markdown table that also reads as plain text; columns whose cells
    all match numeric (by default, numbers) are right-aligned."""
    cells = [headers] + [[str(c) for c in r] for r in rows]
    cols = range(len(headers))
    widths = [max(len(r[i]) for r in cells) for i in cols]
    right = [all(re.fullmatch(numeric, r[i]) for r in cells[1:]) for i in cols]

    def line(r):
        return "| " + " | ".join(c.rjust(widths[i]) if right[i] else c.ljust(widths[i])
                                 for i, c in enumerate(r)) + " |"

    rule = "|" + "|".join("-" * (widths[i] + 1) + (":" if right[i] else "-") for i in cols) + "|"
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


def med(xs):
    return statistics.median(xs) if xs else None


def fmt(x, spec):
    return "n/a" if x is None else format(x, spec)


def paired(a, b, get):
    """Median of per-round ratios get(a)/get(b) over the rounds where both
    ran fine."""
    rs = []
    for x, y in zip(a, b):
        if x and y and x.ok and y.ok:
            gx, gy = get(x), get(y)
            if gx is not None and gy:
                rs.append(gx / gy)
    return med(rs)


def attr(name):
    return lambda s: getattr(s, name)


def excerpt(text, lines=6):
    rows = [r for r in text.strip().splitlines() if r.strip()]
    return "\n".join("    " + r for r in rows[:lines]) if rows else "    (no stderr)"


def launch(launcher, tmp, exe, args, env, starts, timeout):
    """Run exe starts times in a row under the launcher, stdin from
    /dev/null, killed after timeout seconds. Returns (why, out, err, wall,
    cpu, rss_kb): why is "" or what went wrong."""
    return launch_sys(launcher, tmp, exe, args, env, starts, timeout)[:6]


def launch_sys(launcher, tmp, exe, args, env, starts, timeout):
    """launch(), and the system part of the CPU time last."""
    paths = [os.path.join(tmp, "tmp." + n) for n in ("result", "stdout", "stderr")]
    for p in paths:
        if os.path.exists(p):
            os.remove(p)
    wr = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, paths[1], wr, 0o644),
               (os.POSIX_SPAWN_OPEN, 2, paths[2], wr, 0o644)]
    argv = [launcher, paths[0], str(starts), exe, *args]
    pid = os.posix_spawn(launcher, argv, env, file_actions=actions, setpgroup=0)
    timer = threading.Timer(timeout, os.killpg, (pid, signal.SIGKILL))
    timer.start()
    _, status = os.waitpid(pid, 0)
    timer.cancel()
    with open(paths[1], "rb") as f:
        out = f.read().decode(errors="replace")
    with open(paths[2], "rb") as f:
        err = f.read().decode(errors="replace")
    wall = cpu = rss = sys = 0.0
    why = ""
    if status != 0:
        why = "timed out" if os.WIFSIGNALED(status) else "failed"
    else:
        with open(paths[0]) as f:
            wall, cpu, rss, sys = (float(x) for x in f.read().split())
    return why, out, err, wall, cpu, rss, sys


def finish(total, results, scratch=None):
    """Ends the report: the total time (text), the load average, and every
    line emitted appended to the results file. The launcher's scratch files
    in scratch go."""
    emit(f"Total time {total}; load average at end "
         f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}.")
    emit()
    os.makedirs(os.path.dirname(results), exist_ok=True)
    with open(results, "a") as f:
        f.write("\n".join(report) + "\n")
    for n in ("result", "stdout", "stderr") if scratch else ():
        path = os.path.join(scratch, "tmp." + n)
        if os.path.exists(path):
            os.remove(path)
