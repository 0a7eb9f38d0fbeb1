"""Helpers shared by the benchmark scripts: environment description, tables, formatting, and
the interleaved timing of the format conversion benchmarks (`run`)."""

from __future__ import annotations

import datetime
import gc
import io
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

PACKAGES = (
    "semantic_chat",
    "semantic-kernel",
    "langchain-core",
    "langchain-anthropic",
    "langchain-google-genai",
    "google-genai",
    "pydantic-ai-slim",
    "pydantic",
    "msgspec",
    "orjson",
    "attrs",
    "cattrs",
    "numpy",
)


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def load_average() -> str:
    try:
        return " / ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def environment_lines() -> list[str]:
    """Markdown bullet lines describing the machine, Python and package versions."""
    cores = os.cpu_count()
    try:
        usable: int | None = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = cores
    return [
        f"- Date: {now()}",
        f"- Machine: {platform.machine()}, {cpu_model()}, {cores} cores ({usable} usable), "
        f"{platform.system()} {platform.release()}",
        f"- Python: {platform.python_implementation()} {platform.python_version()} "
        f"({sys.executable})",
        "- Packages: " + ", ".join(f"{name} {version(name)}" for name in PACKAGES),
        f"- Load average (1/5/15 min) at start: {load_average()}",
    ]


def command_line() -> str:
    script = Path(sys.argv[0]).resolve()
    try:
        shown = script.relative_to(ROOT)
    except ValueError:
        shown = script
    return " ".join(["python", str(shown), *sys.argv[1:]])


def table(header: Sequence[str], rows: Iterable[Sequence[object]], align: str = "") -> str:
    """A markdown table; ``align`` gives one of ``l``/``r`` per column (default: l then r)."""
    header = list(header)
    marks = align or "l" + "r" * (len(header) - 1)
    rule = ["---:" if mark == "r" else ":---" for mark in marks]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def fmt(value: float | None, digits: int = 2) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{value:.{digits}f}"


def verdict(ok: bool) -> str:
    return "**pass**" if ok else "**FAIL**"


def extract_revision(revision: str, folder: Path) -> str:
    """Write ``revision``'s ``semantic_chat`` into ``folder`` as ``semantic_chat_base``.

    The package imports itself relatively, so it works under that name beside the current
    one, and both can be timed in one process. Returns the short commit id.

    Raises:
        subprocess.CalledProcessError: git does not know the revision (or this is no checkout).
    """
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", revision],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "semantic_chat"],
        check=True, capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "semantic_chat").rename(folder / "semantic_chat_base")
    return commit


Operations = dict[str, tuple[Callable[[Any], Any], list[list[Any]]]]
"""Per key: the function, and its inputs (one per conversation) for each round."""


def run(
    operations: Operations, counts: list[int], rounds: int, slice_size: int = 5
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Time each operation on each slice, in a new random order each slice; µs per message.

    ``counts`` gives the messages of each conversation: every sample is divided by its slice's.
    Returns the wall-clock and the CPU-time (of the thread) samples of each operation. The
    garbage collector is off while timing and collects between rounds.

    Random, not rotated: with a rotation each operation always follows the same one, and what
    that one leaves in the caches counts. Two copies of ``openai_chat.to_payload`` (histories
    of their own) measured 1.09x and 1.11x of each other rotated, 0.98x to 1.00x in random
    order; swapping the Gemini and Chat Completions writers' places in the rotation moved their
    ratio from 1.19x to 1.13x. The generator is seeded, so a run draws the same orders again.

    Two functions compared should also run equally often in ``operations``: the one that runs
    more often finds its code warmer. With ``anthropic.to_payload`` timed twice a slice (first
    conversion and converted before) and ``openai_chat.to_payload`` once, their first
    conversions measured 0.94x to 0.97x of each other (seeds 0 to 5); balanced (both once, or
    both twice), 1.03x to 1.09x; with ``openai_chat.to_payload`` twice and the other once,
    1.10x to 1.14x.
    """
    keys = list(operations)
    wall: dict[str, list[float]] = {key: [] for key in keys}
    cpu: dict[str, list[float]] = {key: [] for key in keys}
    slices = [
        range(i, min(i + slice_size, len(counts))) for i in range(0, len(counts), slice_size)
    ]
    clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
    shuffle = random.Random(0).shuffle
    order = keys[:]
    gc.collect()
    gc.disable()
    try:
        for number in range(rounds):
            for indices in slices:
                count = sum(counts[i] for i in indices)
                shuffle(order)
                for key in order:
                    function, inputs = operations[key]
                    values = [inputs[number][i] for i in indices]
                    start, start_cpu = clock(), cpu_clock()
                    for value in values:
                        function(value)
                    cpu[key].append((cpu_clock() - start_cpu) / count / 1000)
                    wall[key].append((clock() - start) / count / 1000)
            gc.enable()
            gc.collect()
            gc.disable()
    finally:
        gc.enable()
    return wall, cpu
