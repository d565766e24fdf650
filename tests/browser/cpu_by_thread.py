"""Where a command's CPU goes, by process kind and thread name (Linux ``/proc``), for whoever wants CI faster.

``python -m tests.browser.cpu_by_thread -- python -m pytest tests/browser --browser firefox -n 2``

Runs the command and, once a second until it ends, reads the CPU time of every thread of every process on
the machine. Then prints the CPU each kind of process spent while the command ran (Chromium's browser,
renderer and GPU processes, Firefox's parent and content processes, Node, Python), the busiest threads, the
total and the wall time. A kind's CPU counts the threads of its processes that ended between two readings;
the list of threads misses them. Processes that started and ended between two readings are missed, and
those that ran before the command count only from its start. Everything else on the machine is counted too: run it on
a machine with nothing else running.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

PROC = Path("/proc")
TICKS_PER_S = os.sysconf("SC_CLK_TCK")
FIREFOX_PROCESS_TYPES = ("tab", "rdd", "socket", "gpu", "utility", "forkserver")


def command_line(pid: str) -> list[str]:
    try:
        raw = (PROC / pid / "cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def thread_names(pid: str) -> set[str]:
    try:
        return {(task / "comm").read_text().strip() for task in (PROC / pid / "task").iterdir()}
    except OSError:
        return set()


def process_kind(pid: str) -> str | None:
    """What kind of process ``pid`` is, or None while that cannot be told yet (a Chromium child starting)."""
    args = command_line(pid)
    if not args:
        return None
    program = os.path.basename(args[0].split(" ", 1)[0])
    joined = " ".join(args)
    if "chrom" in program:
        # Chromium's children rewrite their command lines: their threads tell them apart.
        names = thread_names(pid)
        if "Chrome_IOThread" in names:
            return "chromium browser"
        if "VizCompositorTh" in names:
            return "chromium gpu"
        if "Compositor" in names or "DedicatedWorker" in names:
            return "chromium renderer"
        given = next((a.split("=", 1)[1] for a in args if a.startswith("--type=")), "")
        return f"chromium {given}" if given else None
    if "firefox" in program:
        # Firefox's children write their command line back as one string: its last word is their type.
        words = joined.split()
        if "-contentproc" not in words:
            return "firefox parent"
        return "firefox " + next((w for w in reversed(words) if w in FIREFOX_PROCESS_TYPES), "child")
    if "python" in program:
        return "python (nostr-relay)" if "nostr" in joined else "python"
    return program


@dataclass
class Readings:
    """Each thread's CPU ticks when first and last seen, and its process's kind and its own name."""

    first: dict[tuple[str, str, str], int] = field(default_factory=dict)
    last: dict[tuple[str, str, str], tuple[str, str, int]] = field(default_factory=dict)
    kinds: dict[tuple[str, str], str] = field(default_factory=dict)
    #: Each process's own ticks when first and last seen: they include its threads that have ended.
    process_first: dict[tuple[str, str], int] = field(default_factory=dict)
    process_last: dict[tuple[str, str], int] = field(default_factory=dict)

    def read(self, *, before_start: bool = False) -> None:
        for entry in PROC.iterdir():
            pid = entry.name
            if not pid.isdigit():
                continue
            try:
                own = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                started = own[19]
                tasks = list((entry / "task").iterdir())
            except (OSError, IndexError):
                continue
            kind = self.kinds.get((pid, started)) or process_kind(pid)
            if kind is None:
                continue
            self.kinds[(pid, started)] = kind
            self.process_first.setdefault((pid, started), int(own[11]) + int(own[12]) if before_start else 0)
            self.process_last[(pid, started)] = int(own[11]) + int(own[12])
            for task in tasks:
                try:
                    stat = (task / "stat").read_text()
                except OSError:
                    continue
                name = stat[stat.index("(") + 1 : stat.rindex(")")]
                fields = stat.rsplit(")", 1)[1].split()
                ticks = int(fields[11]) + int(fields[12])  # utime + stime
                key = (pid, task.name, fields[19])
                self.first.setdefault(key, ticks if before_start else 0)
                self.last[key] = (kind, name, ticks)

    def seconds(self) -> tuple[dict[str, float], dict[str, float]]:
        """CPU seconds by process kind (with the threads that ended between readings), and by process kind and
        thread name (without them)."""
        by_kind: defaultdict[str, float] = defaultdict(float)
        by_thread: defaultdict[str, float] = defaultdict(float)
        for process, ticks in self.process_last.items():
            by_kind[self.kinds[process]] += (ticks - self.process_first[process]) / TICKS_PER_S
        for key, (kind, name, ticks) in self.last.items():
            by_thread[f"{kind} / {name}"] += (ticks - self.first[key]) / TICKS_PER_S
        return dict(by_kind), dict(by_thread)


def busiest(spent: dict[str, float]) -> list[tuple[str, float]]:
    """``spent``'s items, the largest first."""
    return sorted(spent.items(), key=lambda item: -item[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--threads", type=int, default=25, help="how many of the busiest threads to list")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run (after --)")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("name the command to run after --")
    readings = Readings()
    readings.read(before_start=True)
    t0 = time.perf_counter()
    proc = subprocess.Popen(command)
    while proc.poll() is None:
        time.sleep(1)
        readings.read()
    wall = time.perf_counter() - t0
    by_kind, by_thread = readings.seconds()
    print(f"\nCPU by process kind ({' '.join(command)}):")
    for kind, spent in busiest(by_kind):
        if spent >= 0.5:
            print(f"{spent:9.1f} s  {kind}")
    print(f"\nthe {args.threads} busiest threads:")
    for thread, spent in busiest(by_thread)[: args.threads]:
        print(f"{spent:9.1f} s  {thread}")
    print(
        f"\nCPU {sum(by_kind.values()):.1f} s in {wall:.1f} s of wall time; the command's exit code {proc.returncode}"
    )
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
