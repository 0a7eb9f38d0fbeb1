"""Conversations at scale: the CLI, Hugging Face ``datasets`` and Dask on the same input.

Run from the repository root with the extras installed (``pip install -e '.[cli,datasets,dask]'``):
``python benchmarks/bench_scale.py [--quick] [--conversations N] [--rounds R]``.

The input is ``corpus.make_corpus(N)`` (20,000 conversations by default, 2,000 with
``--quick``; about 12 Chat Completions messages and 8 KB of JSON each, images and audio
included), written once as one JSONL file and once as 8 JSONL shards (the same lines, cut in
order into contiguous runs). Every engine converts it from ``openai-chat`` to ``semantic-chat``
(every message of the corpus survives that target, so no run drops or refuses a line):

- the CLI: ``semantic-chat convert in.jsonl --from openai-chat --to semantic-chat -q -o
  out.jsonl -j 1`` and ``-j 2``;
- ``datasets``: in a fresh process, ``Dataset.from_text`` on the JSONL file (one ``text``
  string per line, in an Arrow file under a temporary cache directory), then
  ``dataset.with_format("arrow").map(convert_batch, batched=True, num_proc=1 | 2)``
  (``semantic_chat.batch.convert_batch`` on each Arrow batch, the converted column written as
  JSON strings), then the converted strings written as JSONL;
- Dask: ``semantic-chat convert --engine dask 'shards/*.jsonl' -o outdir -j 1`` and ``-j 2``
  (a ``LocalCluster`` of that many worker processes, one task per shard).

Before anything is timed, each engine's output is checked against the CLI with ``-j 1``: the
same number of lines and, line for line, the same JSON value (the byte-identical lines are
counted too). Then each round runs every configuration once, in a new random order, and the
figure reported is the median wall-clock time over the rounds, with the CPU time (user +
system, the benchmark's child processes and their own children, from ``getrusage``). Before
and after each round, `cores_free` measures how many of the 2 cores the benchmark had (two
processes of pure CPU work against one doing both halves): on a machine shared with other
jobs, no engine can go faster from 1 to 2 workers than that.

To separate the fixed costs from the per-record ones, the same commands also run on tiny
inputs: 8 conversations (one per shard for Dask). What a tiny run takes is the start-up
(interpreter and imports, worker processes, the Dask cluster); what the full run takes beyond
it is the per-record work and whatever per-record work stays serial. Dask's start-up varies by
seconds on a busy machine, so it is also measured without it: the benchmark starts a
`LocalCluster` itself (timed), and runs the engine with ``--scheduler`` on it on 1 shard of one
conversation, on 64 shards of one (their difference over 63 is what a shard costs) and on the
8 full shards. Two more in-process figures bound the per-record cost from below:
``convert_batch`` on the whole Arrow table in one process (conversion only, no files, no
processes), and reading the JSONL file and writing its lines back (the file I/O a single
reader and writer has to do, with no conversion).

Prints a markdown section (``run.py`` puts it into RESULTS.md) that ends with the model of how
each engine scales past one machine, computed from these measurements.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fmt, load_average, median, table, version
from corpus import make_corpus

SOURCE = "openai-chat"
TARGET = "semantic-chat"
SHARDS = 8
TINY = 8
"""Conversations in the tiny runs that measure each engine's start-up."""
MANY = 64
"""Shards of one conversation in the Dask run that measures the cost of a shard."""


# --- input ----------------------------------------------------------------------------------


@dataclass
class Inputs:
    """The same conversations as one JSONL file and as shards, plus the tiny inputs."""

    lines: list[str]
    jsonl: Path
    shards: Path
    tiny_jsonl: Path
    tiny_shards: Path
    one_shard: Path
    many_shards: Path


def _write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as file:
        for line in lines:
            file.write(line + "\n")


def _write_shards(folder: Path, lines: list[str], count: int) -> None:
    """``lines`` cut in order into ``count`` contiguous shards ``shard-000.jsonl``, ...; read
    back in name order they give the lines in their original order."""
    size = -(-len(lines) // count)
    for number in range(count):
        _write_lines(
            folder / f"shard-{number:03d}.jsonl", lines[number * size:(number + 1) * size]
        )


def make_inputs(folder: Path, conversations: int, seed: int) -> Inputs:
    lines = [json.dumps(c, ensure_ascii=False) for c in make_corpus(conversations, seed=seed)]
    inputs = Inputs(
        lines,
        folder / "in.jsonl",
        folder / "shards",
        folder / "tiny.jsonl",
        folder / "tiny-shards",
        folder / "one-shard",
        folder / "many-shards",
    )
    _write_lines(inputs.jsonl, lines)
    _write_shards(inputs.shards, lines, SHARDS)
    _write_lines(inputs.tiny_jsonl, lines[:TINY])
    _write_shards(inputs.tiny_shards, lines[:TINY], SHARDS)
    _write_shards(inputs.one_shard, lines[:1], 1)
    _write_shards(inputs.many_shards, lines[:MANY], MANY)
    return inputs


# --- the engines ----------------------------------------------------------------------------


def semantic_chat() -> str:
    """The ``semantic-chat`` command of this interpreter's environment."""
    found = Path(sys.executable).with_name("semantic-chat")
    if not found.exists():
        found_on_path = shutil.which("semantic-chat")
        if found_on_path is None:
            sys.exit("semantic-chat is not installed: pip install -e '.[cli,datasets,dask]'")
        return found_on_path
    return str(found)


@dataclass
class Run:
    """One timed run: wall and CPU seconds, its output lines, and the phases it reported."""

    wall: float
    cpu: float
    lines: list[str]
    phases: dict[str, float] = field(default_factory=dict)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(command: list[str], what: str) -> tuple[float, float, str]:
    """Run ``command``; return its wall and CPU seconds and its standard output.

    Exits with the command's standard error when it fails: a benchmark of a failing engine
    has nothing to report."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{what} failed (exit {done.returncode}): {' '.join(command)}\n{done.stderr}")
    return wall, _children_cpu() - cpu, done.stdout


def _read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def run_cli(source: Path, workers: int, work: Path) -> Run:
    output = work / "cli-out.jsonl"
    output.unlink(missing_ok=True)
    wall, cpu, _ = _timed(
        [semantic_chat(), "convert", str(source), "--jsonl", "--from", SOURCE, "--to", TARGET,
         "-q", "-j", str(workers), "-o", str(output)],
        f"the CLI with -j {workers}",
    )
    return Run(wall, cpu, _read_lines(output))


def run_dask(shards: Path, workers: int, work: Path, scheduler: str | None = None) -> Run:
    """The dask engine on every shard of ``shards`` into a new, empty output folder (a folder
    left from an earlier run would make it skip the shards already there): on a
    `LocalCluster` of ``workers`` processes it starts, or on the running cluster at
    ``scheduler``."""
    output = work / "dask-out"
    shutil.rmtree(output, ignore_errors=True)
    where = ["--scheduler", scheduler] if scheduler else ["-j", str(workers)]
    wall, cpu, _ = _timed(
        [semantic_chat(), "convert", "--engine", "dask", str(shards / "*.jsonl"), "--from",
         SOURCE, "--to", TARGET, "-q", *where, "-o", str(output)],
        f"the dask engine with -j {workers}",
    )
    written = sorted(output.glob("*.jsonl"))
    expected = sorted(path.name for path in shards.glob("*.jsonl"))
    if [path.name for path in written] != expected:
        sys.exit(f"the dask engine wrote {[p.name for p in written]}, expected {expected}")
    return Run(wall, cpu, [line for path in written for line in _read_lines(path)])


def dask_on_cluster(inputs: Inputs, workers: int, work: Path) -> dict[str, float]:
    """Seconds to start a `LocalCluster` of ``workers`` processes here (as the engine starts
    one), then of the engine with ``--scheduler`` on it: one shard of one conversation, ``MANY``
    shards of one, and the full shards, after one untimed run that lets the workers import
    ``semantic_chat``. With the cluster's start-up out of the figures, what the engine costs per
    shard and per record is not lost in that start-up's variation."""
    import distributed  # noqa: PLC0415 - an optional extra

    start = time.perf_counter()
    cluster = distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
        silence_logs=logging.ERROR,
    )
    figures = {"cluster": time.perf_counter() - start}
    try:
        address = cluster.scheduler_address
        run_dask(inputs.one_shard, workers, work, address)
        figures["one"] = run_dask(inputs.one_shard, workers, work, address).wall
        figures["many"] = run_dask(inputs.many_shards, workers, work, address).wall
        figures["running"] = run_dask(inputs.shards, workers, work, address).wall
    finally:
        cluster.close()
    return figures


def run_datasets(source: Path, num_proc: int, work: Path) -> Run:
    """``datasets`` in a fresh process of this script (``--datasets-child``), so that its
    start-up and imports count as the CLI's do, and no dataset is cached from a run before."""
    output = work / "datasets-out.jsonl"
    cache = work / "hf-cache"
    output.unlink(missing_ok=True)
    shutil.rmtree(cache, ignore_errors=True)
    wall, cpu, printed = _timed(
        [sys.executable, str(Path(__file__).resolve()), "--datasets-child", str(source),
         str(num_proc), str(output), str(cache)],
        f"datasets.map with num_proc={num_proc}",
    )
    shutil.rmtree(cache, ignore_errors=True)
    return Run(wall, cpu, _read_lines(output), json.loads(printed.strip().splitlines()[-1]))


def datasets_child(source: Path, num_proc: int, output: Path, cache: Path) -> None:
    """Load, map and write as a user would; print the seconds of each phase as JSON."""
    started = time.perf_counter()
    import functools  # noqa: PLC0415 - timed with the other imports

    import datasets  # noqa: PLC0415 - an optional extra, imported in the child only

    from semantic_chat.batch import convert_batch  # noqa: PLC0415

    datasets.disable_progress_bars()
    imported = time.perf_counter()
    dataset = datasets.Dataset.from_text(str(source), cache_dir=str(cache), keep_in_memory=False)
    loaded = time.perf_counter()
    converted = dataset.with_format("arrow").map(
        functools.partial(convert_batch, column="text", source=SOURCE, target=TARGET),
        batched=True,
        num_proc=num_proc if num_proc > 1 else None,
        load_from_cache_file=False,
    )
    mapped = time.perf_counter()
    with output.open("w", encoding="utf-8") as file:
        for batch in converted.with_format("arrow").iter(batch_size=1000):
            for text in batch.column("text").to_pylist():
                file.write(text + "\n")
    written = time.perf_counter()
    print(json.dumps({
        "import": imported - started,
        "load": loaded - imported,
        "map": mapped - loaded,
        "write": written - mapped,
    }))


def in_process_floors(inputs: Inputs, work: Path) -> dict[str, float]:
    """Seconds for the whole corpus of: ``convert_batch`` on one Arrow table in this process,
    and reading the JSONL file and writing its lines back unchanged."""
    import pyarrow as pa  # noqa: PLC0415 - an optional extra

    from semantic_chat.batch import convert_batch  # noqa: PLC0415

    batch = pa.table({"messages": inputs.lines})
    start = time.perf_counter()
    convert_batch(batch, source=SOURCE, target=TARGET)
    convert = time.perf_counter() - start
    copy = work / "copy.jsonl"
    start = time.perf_counter()
    with inputs.jsonl.open("rb") as reader, copy.open("wb") as writer:
        for line in reader:
            writer.write(line)
    io = time.perf_counter() - start
    copy.unlink()
    return {"convert_batch": convert, "read and write": io}


PROBE = "total = 0\nfor i in range({}):\n    total += i * i\n"
"""Pure CPU work for `cores_free`, in a Python process of its own."""
PROBE_LOOPS = 4_000_000


def cores_free() -> float:
    """How many cores this benchmark had at the time: one process doing twice the work,
    against two processes doing it at once, each half (2.0 on an idle 2-core machine, 1.0 when
    another job holds one core). The speed-ups from 1 to 2 workers are read against it."""
    def spawn(loops: int) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-c", PROBE.format(loops)])

    start = time.perf_counter()
    spawn(2 * PROBE_LOOPS).wait()
    one = time.perf_counter() - start
    start = time.perf_counter()
    pair = [spawn(PROBE_LOOPS), spawn(PROBE_LOOPS)]
    for process in pair:
        process.wait()
    return one / (time.perf_counter() - start)


# --- checking and timing --------------------------------------------------------------------


@dataclass
class Config:
    key: str
    label: str
    engine: str
    workers: int
    full: Callable[[Path], Run]
    tiny: dict[str, Callable[[Path], Run]]
    cluster: Callable[[Path], dict[str, float]] | None = None
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    tiny_walls: dict[str, list[float]] = field(default_factory=dict)
    phases: dict[str, list[float]] = field(default_factory=dict)

    def wall(self) -> float:
        return median(self.walls)

    def cpu(self) -> float:
        return median(self.cpus)

    def tiny_wall(self, name: str) -> float:
        return median(self.tiny_walls.get(name, []))

    def phase(self, name: str) -> float:
        return median(self.phases.get(name, []))


def configs(inputs: Inputs) -> list[Config]:
    found: list[Config] = []
    for workers in (1, 2):
        found.append(Config(
            f"cli-{workers}", f"CLI `-j {workers}`", "cli", workers,
            lambda work, w=workers: run_cli(inputs.jsonl, w, work),
            {"tiny": lambda work, w=workers: run_cli(inputs.tiny_jsonl, w, work)},
        ))
    for workers in (1, 2):
        found.append(Config(
            f"datasets-{workers}", f"`datasets.map`, `num_proc={workers}`", "datasets", workers,
            lambda work, w=workers: run_datasets(inputs.jsonl, w, work),
            {"tiny": lambda work, w=workers: run_datasets(inputs.tiny_jsonl, w, work)},
        ))
    for workers in (1, 2):
        found.append(Config(
            f"dask-{workers}", f"Dask, {workers} worker{'s' if workers > 1 else ''}", "dask",
            workers,
            lambda work, w=workers: run_dask(inputs.shards, w, work),
            {"tiny": lambda work, w=workers: run_dask(inputs.tiny_shards, w, work)},
            lambda work, w=workers: dask_on_cluster(inputs, w, work),
        ))
    return found


def _same(expected: list[str], got: list[str]) -> tuple[bool, int, str]:
    """Whether ``got`` holds the same JSON values as ``expected``, line for line; how many
    lines are byte-identical; and the first difference."""
    if len(got) != len(expected):
        return False, 0, f"{len(got)} lines instead of {len(expected)}"
    identical = 0
    for number, (want, have) in enumerate(zip(expected, got, strict=True), 1):
        if want == have:
            identical += 1
        elif json.loads(want) != json.loads(have):
            return False, identical, f"line {number} differs"
    return True, identical, ""


def check(all_configs: list[Config], work: Path) -> tuple[list[str], dict[str, int]]:
    """Run every configuration once; exit unless all agree with the CLI with ``-j 1``.

    Returns the reference lines and, per configuration, how many lines are byte-identical."""
    reference = all_configs[0].full(work).lines
    identical: dict[str, int] = {}
    for config in all_configs:
        got = reference if config.key == "cli-1" else config.full(work).lines
        ok, same_bytes, difference = _same(reference, got)
        if not ok:
            sys.exit(f"{config.label} disagrees with the CLI with -j 1: {difference}")
        identical[config.key] = same_bytes
        print(f"  checked {config.key}: {len(got):,} lines agree", file=sys.stderr)
    return reference, identical


def time_rounds(all_configs: list[Config], rounds: int, work: Path) -> list[float]:
    """Each round runs every configuration, full and tiny, once, in a new random order, with
    `cores_free` measured before and after; returns those measurements."""
    shuffle = random.Random(0).shuffle
    jobs: list[tuple[Config, str]] = [
        (config, name)
        for config in all_configs
        for name in ("full", *config.tiny, *(["cluster"] if config.cluster else []))
    ]
    free = []
    for number in range(rounds):
        shuffle(jobs)
        started = time.perf_counter()
        free.append(cores_free())
        for config, name in jobs:
            if name == "full":
                run = config.full(work)
                config.walls.append(run.wall)
                config.cpus.append(run.cpu)
                for phase, seconds in run.phases.items():
                    config.phases.setdefault(phase, []).append(seconds)
            elif name == "cluster" and config.cluster:
                for phase, seconds in config.cluster(work).items():
                    config.phases.setdefault(phase, []).append(seconds)
            else:
                config.tiny_walls.setdefault(name, []).append(config.tiny[name](work).wall)
        free.append(cores_free())
        print(f"  round {number + 1}/{rounds}: {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
    return free


# --- the report -----------------------------------------------------------------------------


def _rate(count: float, seconds: float) -> str:
    """Conversations per second, or ``-`` when the seconds are not a positive number."""
    return f"{count / seconds:,.0f}" if seconds > 0 else "-"


def _serial(one: float, two: float) -> float:
    """Amdahl's serial fraction from the times with 1 and 2 workers:
    ``two = one * (s + (1 - s) / 2)``, so ``s = 2 * two / one - 1`` (clamped to 0..1)."""
    return min(1.0, max(0.0, 2 * two / one - 1)) if one > 0 and two > 0 else float("nan")


def _scaling(one: float, two: float, what: str, free: float) -> str:
    """A sentence on how ``what`` went from 1 to 2 workers, given its seconds with each and
    the cores free to the benchmark at the time (`cores_free`)."""
    if not (one > 0 and two > 0):
        return (f"From 1 to 2 workers {what} was too small to measure against the start-up's "
                "variation (run more conversations)")
    speedup = one / two
    if speedup > 1.05 * free:
        return (f"From 1 to 2 workers {what} went {speedup:.2f}x faster, more than the "
                f"{free:.2f} cores free allowed: the start-up subtracted from both varies, so "
                "read it as scaling with the cores, no serial part measurable")
    if two < one:
        return (f"From 1 to 2 workers {what} went {speedup:.2f}x faster with {free:.2f} cores "
                f"free, which Amdahl's law reads as a serial part of about "
                f"{_serial(one, two):.0%} (an upper bound on a shared machine, where time "
                "another job takes from the second core reads as serial)")
    return (f"From 1 to 2 workers {what} went no faster ({speedup:.2f}x, {free:.2f} cores "
            "free): the second core was not free while it ran, or the serial part is all of it")


@dataclass
class Figures:
    """What the model is computed from, all in seconds unless said otherwise."""

    n: int
    configs: dict[str, Config]
    floors: dict[str, float]
    free: list[float]

    def variable(self, key: str) -> float:
        """The full run's seconds beyond the start-up (the tiny run's)."""
        config = self.configs[key]
        return config.wall() - config.tiny_wall("tiny")

    def per_shard(self, key: str) -> float:
        """Seconds one more Dask shard costs on a running cluster: ``MANY`` shards of one
        conversation against one shard of one."""
        config = self.configs[key]
        return (config.phase("many") - config.phase("one")) / (MANY - 1)

    def on_cluster(self, key: str) -> float:
        """Seconds of the full Dask job on a running cluster beyond a one-shard job's."""
        config = self.configs[key]
        return config.phase("running") - config.phase("one")


def results_table(figures: Figures, identical: dict[str, int]) -> str:
    n = figures.n
    rows = [
        [
            config.label,
            fmt(config.wall()),
            _rate(n, config.wall()),
            fmt(config.cpu()),
            fmt(config.cpu() / n * 1e6, 0),
            fmt(config.tiny_wall("tiny")),
            _rate(n - TINY, figures.variable(key)),
            f"{identical[key]:,} of {n:,}",
        ]
        for key, config in figures.configs.items()
    ]
    return table(
        ["engine", "wall s", "conversations/s", "CPU s", "CPU µs/conversation",
         f"start-up s ({TINY} conversations)", "conversations/s past start-up",
         "byte-identical to CLI -j 1"],
        rows,
    )


def model(figures: Figures) -> str:
    """The written model of how each engine scales past this machine, from the figures."""
    n, configs, floors = figures.n, figures.configs, figures.floors
    per_record = floors["convert_batch"] / n * 1e6
    free = median(figures.free)
    ds1, ds2 = configs["datasets-1"], configs["datasets-2"]
    dask1, dask2 = configs["dask-1"], configs["dask-2"]
    shard_records = -(-n // SHARDS)
    shard_cost = figures.per_shard("dask-2")
    on_cluster = figures.on_cluster("dask-2")
    worker_rate = (n - 1) / on_cluster / 2 if on_cluster > 0 else float("nan")
    shard_cost_one = figures.per_shard("dask-1")
    serial_shards = shard_cost > 0.75 * shard_cost_one
    if shard_cost > 0:
        shard_sentence = (
            "Per shard: a task (scheduling it, opening, writing and renaming its files, the "
            f"client taking its result), about {shard_cost * 1000:.0f} ms here with 2 workers "
            f"on a running cluster and {shard_cost_one * 1000:.0f} ms with 1 ({MANY} shards of "
            f"one conversation against one: {fmt(dask2.phase('many'))} s and "
            f"{fmt(dask2.phase('one'))} s with 2). "
            + (
                "A second worker hardly shortened it, so most of it is serial: the "
                "scheduler's and the client's handling of each task (Dask's documentation "
                "puts the scheduler's own overhead at about 1 ms a task)."
                if serial_shards
                else "A second worker shortened it, so most of it is the workers' own "
                "(opening and renaming files), which runs in parallel."
            )
        )
    else:
        shard_sentence = (
            "Per shard: a task (scheduling it, opening, writing and renaming its files), too "
            f"small here to measure: {MANY} shards of one conversation took "
            f"{fmt(dask2.phase('many'))} s on a running cluster, one shard "
            f"{fmt(dask2.phase('one'))} s."
        )
    if shard_cost > 0 and worker_rate > 0:
        balance = (
            f" With shards of {shard_records:,} conversations and the "
            f"{worker_rate:,.0f} conversations/s per worker measured here, a shard is "
            f"{shard_records / worker_rate:.2f} s of a worker's time against "
            f"{shard_cost * 1000:.0f} ms of overhead"
            + (
                "; with that overhead serial, the limit is about "
                f"{shard_records / shard_cost:,.0f} conversations/s however many workers, "
                "and larger shards raise it."
                if serial_shards
                else "."
            )
        )
    else:
        balance = ""
    extra_cpu = (configs["cli-2"].cpu() - configs["cli-1"].cpu()) / n * 1e6
    passing = (
        f"Passing records to workers costs CPU: the run with `-j 2` took {extra_cpu:.0f} µs "
        "more CPU per conversation than with `-j 1` (pickling each chunk of lines there and "
        "its results back, and starting the two workers; `-j 1` converts in the process that "
        "reads), against "
        f"{configs['cli-1'].cpu() / n * 1e6:.0f} µs for the whole work with `-j 1`; the "
        "parent's side of that, with reading and writing, is what stays serial. "
        if extra_cpu > 0
        else ""
    )
    by_rate = sorted(
        ("cli-2", "datasets-2", "dask-2"), key=lambda key: configs[key].wall()
    )
    ranking = ", then ".join(
        f"{configs[key].label} ({_rate(n, configs[key].wall())}/s)" for key in by_rate
    )
    lines = [
        "### How each scales past this machine",
        "",
        "The work per record is the same in every engine: parse one conversation's JSON, "
        f"convert it, write its JSON, about {per_record:.0f} µs of one core here (the "
        "in-process `convert_batch` figure). What differs is what surrounds it: how the "
        "records reach the workers, what is paid once per process, per shard or per job, and "
        "which part runs in one place only.",
        "",
        "- **CLI** (`-j N`). Per record: with `-j 1`, the conversion in the one process that "
        "reads and writes; with `-j N`, the conversion in a worker process, plus the parent's "
        "share: it reads every line, sends chunks of lines to the workers, takes their results "
        "back in order and writes them, all in one process. Per job: the interpreter and "
        "imports, and with `-j N` the N worker processes "
        f"({fmt(configs['cli-1'].tiny_wall('tiny'))} s with `-j 1`, "
        f"{fmt(configs['cli-2'].tiny_wall('tiny'))} s with `-j 2`). "
        + _scaling(figures.variable("cli-1"), figures.variable("cli-2"),
                   "the time past start-up", free)
        + f"; the serial part is the parent's reading, passing and writing. {passing}Past one "
        "machine it does not go: one process owns the input and the output file, so its "
        "ceiling is that parent's rate (copying the file's lines alone runs at "
        f"{_rate(n, floors['read and write'])} conversations/s, before any passing to workers). "
        "Beyond that, split the file and run one CLI per machine, which is what the Dask "
        "engine does.",
        "- **`datasets.map`** (`num_proc=N`). Per record: the conversion on Arrow batches of "
        "1,000 rows, each process reading its contiguous share of the memory-mapped Arrow file "
        "and writing its own Arrow cache file. Per job: importing `datasets` "
        f"({fmt(ds1.phase('import'))} s here), `from_text` turning the JSONL into an Arrow file "
        f"in one process ({fmt(ds1.phase('load'))} s), a pool of `num_proc` processes started "
        "for each `map` call, and writing the result out "
        f"({fmt(ds1.phase('write'))} s), in one process too. "
        + _scaling(ds1.phase("map"), ds2.phase("map"), "`map` alone", free)
        + ". `datasets` has no cluster of its own: past one machine each machine takes its "
        "part (`datasets.distributed.split_dataset_by_node`, or its own files), and the model "
        "is this machine's times the machines, the load and the write done on each.",
        "- **Dask** (`--engine dask`, one task per shard). Per record: the conversion in a "
        "worker process, which reads its shard and writes its output shard itself: no record "
        f"passes through the scheduler or the client. {shard_sentence} Per job: starting the "
        "`LocalCluster` (scheduler, nannies, worker processes), "
        f"{fmt(dask1.phase('cluster'))} s for 1 worker and {fmt(dask2.phase('cluster'))} s for "
        "2 when the benchmark starts one, and the client (with a running cluster, "
        "`--scheduler`, one shard of one conversation took "
        f"{fmt(dask1.phase('one'))} s with 1 worker and {fmt(dask2.phase('one'))} s with 2, "
        "the CLI's own start-up included). "
        + _scaling(figures.on_cluster("dask-1"), on_cluster,
                   "the full job on a running cluster, past the first shard,", free)
        + ". Past one machine the serial part is the scheduler and the client, which see "
        "shards, not records, and the client listing the glob; "
        "the rest grows with the workers until the shared storage's bandwidth is the limit."
        + balance
        + " At least as many shards as worker cores keeps every core busy, shards of "
        "thousands of records keep the per-shard part small, and since the job ends with its "
        "slowest shard, equal shard sizes matter more than their number.",
        "",
        f"On this machine, with 2 workers and start-up included, the order was: {ranking}. "
        "The start-ups decide it for small jobs; for large ones what counts is the "
        "per-record cost divided by the cores, plus each engine's serial part: the CLI's "
        "parent process, `datasets`' load and write, Dask's handling of each shard. Only "
        "Dask's serial part carries no records, which is why it is the one that scales past "
        "one machine.",
    ]
    return "\n".join(lines)


def report(
    figures: Figures,
    megabytes: float,
    identical: dict[str, int],
    rounds: int,
    seed: int,
    loads: tuple[str, str],
) -> str:
    n, configs, floors = figures.n, figures.configs, figures.floors
    ds_rows = [
        [config.label, *(fmt(config.phase(name)) for name in ("import", "load", "map", "write")),
         _rate(n, config.phase("map"))]
        for config in (configs["datasets-1"], configs["datasets-2"])
    ]
    dask_rows = [
        [config.label, fmt(config.phase("cluster")), fmt(config.phase("one")),
         fmt(config.phase("many")), fmt(figures.per_shard(key) * 1000, 0),
         fmt(config.phase("running")), _rate(n - 1, figures.on_cluster(key))]
        for key, config in configs.items() if config.engine == "dask"
    ]
    versions = ", ".join(
        f"{name} {version(name)}" for name in ("datasets", "pyarrow", "dask", "distributed")
    )
    lines = [
        f"Input: `corpus.make_corpus({n:,}, seed={seed})`, {megabytes:.0f} MB of JSONL, as one "
        f"file and as {SHARDS} shards of {-(-n // SHARDS):,} conversations; `--from {SOURCE} "
        f"--to {TARGET}` everywhere. Every engine's output agreed with the CLI's (`-j 1`) line "
        f"for line before timing. Median of {rounds} round{'s' if rounds > 1 else ''} "
        "(configurations in a new random order each round), wall clock. Load average "
        f"{loads[0]} at the start, {loads[1]} at the end: the 2 CPUs were shared with other "
        "work, so these figures are indicative; the CPU-time column is the steadier one. "
        "Cores free to the benchmark (two processes of pure CPU work against one doing both "
        "halves, before and after each round; 2.00 is an idle 2-core machine): "
        + ", ".join(f"{value:.2f}" for value in figures.free)
        + f" (median {median(figures.free):.2f}); a speed-up from 1 to 2 workers can be no "
        "larger. "
        f"Versions: {versions}.",
        "",
        results_table(figures, identical),
        "",
        f"*Start-up*: the same command on the first {TINY} conversations (for Dask, {SHARDS} "
        "shards of one). *CPU*: user and system seconds of the command and its processes, "
        "start-up included. *Past start-up*: the conversations beyond those, over the seconds "
        "beyond the start-up (`-` when the difference is lost in the start-up's variation).",
        "",
        "In one process, with no files and no worker processes: `convert_batch` on the whole "
        f"corpus as one Arrow table took {fmt(floors['convert_batch'])} s "
        f"({floors['convert_batch'] / n * 1e6:.0f} µs per conversation, "
        f"{_rate(n, floors['convert_batch'])}/s); reading the JSONL file and writing its lines "
        f"back, unconverted, took {fmt(floors['read and write'])} s "
        f"({floors['read and write'] / n * 1e6:.1f} µs per conversation).",
        "",
        "`datasets`, by phase (median seconds; *import* is `datasets` and `semantic_chat`, "
        "*load* is `Dataset.from_text` into an Arrow cache file, *write* is the JSONL output):",
        "",
        table(["engine", "import", "load", "map", "write", "conversations/s in map"], ds_rows),
        "",
        "Dask on a running cluster (median seconds): a `LocalCluster` started by the "
        "benchmark (*cluster start-up*, the part the engine pays when it starts its own), then "
        "`--engine dask --scheduler ADDRESS` on 1 shard of one conversation, on "
        f"{MANY} shards of one, and on the {SHARDS} full shards (after one untimed job, so "
        f"the workers have imported `semantic_chat`). *ms per shard*: the {MANY}-shard job "
        f"beyond the 1-shard job, over {MANY - 1}. *Past the first shard*: the "
        "conversations beyond one, over the full job's seconds beyond the 1-shard job's.",
        "",
        table(["engine", "cluster start-up", "1 shard of 1", f"{MANY} shards of 1",
               "ms per shard", f"{SHARDS} full shards", "conversations/s past the first shard"],
              dask_rows),
        "",
        model(figures),
    ]
    return "\n".join(lines)


# --- main -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2,000 conversations, 1 round")
    parser.add_argument("--conversations", type=int, default=None, help="default 20,000")
    parser.add_argument("--rounds", type=int, default=None, help="default 3")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--datasets-child", nargs=4, metavar=("INPUT", "NUM_PROC", "OUTPUT",
                                                              "CACHE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.datasets_child:
        source, num_proc, output, cache = args.datasets_child
        datasets_child(Path(source), int(num_proc), Path(output), Path(cache))
        return
    n = args.conversations or (2_000 if args.quick else 20_000)
    rounds = args.rounds or (1 if args.quick else 3)
    start_load = load_average()
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as folder:
        work = Path(folder)
        started = time.perf_counter()
        inputs = make_inputs(work, n, args.seed)
        megabytes = inputs.jsonl.stat().st_size / 1e6
        print(f"  corpus: {n:,} conversations, {megabytes:.0f} MB "
              f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        all_configs = configs(inputs)
        _, identical = check(all_configs, work)
        floors = in_process_floors(inputs, work)
        free = time_rounds(all_configs, rounds, work)
    figures = Figures(n, {config.key: config for config in all_configs}, floors, free)
    print(report(figures, megabytes, identical, rounds, args.seed, (start_load, load_average())))


if __name__ == "__main__":
    main()
