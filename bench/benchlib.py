"""What the benchmark scripts share: running a program under
bench/generic/launch.c, which reports its wall time, CPU time and peak RSS
from wait4(2), and writing the results as markdown tables."""
import os
import re
import signal
import statistics
import threading

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
