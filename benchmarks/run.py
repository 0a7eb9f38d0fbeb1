"""The main benchmark: build, dump, load and to-dicts per message, memory, size and losslessness.

Run from the repository root::

    python benchmarks/run.py            # full run (~200 conversations), then every extra
                                        # section, each in its own process; writes RESULTS.md
    python benchmarks/run.py --quick    # smaller corpus and fewer rounds, for a smoke test
    python benchmarks/run.py --sections none   # main table only; the extra sections are
                                        # taken from benchmarks/results/ (an earlier run)

Every contender of `contenders.py` runs the same four operations on the same corpus
(`corpus.py`). Timing interleaves them: for each round, for each slice of 5 conversations
(``--slice``), for each contender in a rotating order, each operation is timed on that slice
with ``time.perf_counter_ns`` (and ``time.thread_time_ns``, the CPU time). The figure reported
is the median over all (round, slice) samples of the time per message. The garbage collector
is off while timing (as `timeit` does) and a full collection runs between rounds, so one
library's garbage is not charged to another.

Slices are small on purpose: on a shared machine a sample that lasts several milliseconds is
often interrupted by other processes, and that lands on the slow libraries, whose samples are
long; with short samples the interrupted ones are a minority and the median drops them. (With
slices of 20 conversations on a loaded 2-core machine, semantic_chat's load measured 30 µs
wall clock for 12 µs of CPU time; with slices of 5, 11.6 µs for 11.2 µs.)

Retained memory is measured with `tracemalloc`: the whole corpus is built (or loaded from the
contender's JSON) and kept alive, and the growth of traced memory is divided by the number of
messages. Strings the built objects share with the input dicts are not counted after build;
after load every byte is the library's own.

RESULTS.md is regenerated completely each run; hand-written commentary lives in NOTES.md.
"""

from __future__ import annotations

import argparse
import copy
import gc
import math
import re
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    HERE,
    command_line,
    environment_lines,
    fmt,
    load_average,
    median,
    table,
    verdict,
)
from contenders import CONTENDERS, FLOOR, PEERS, REFERENCE, Contender, messages_equal
from corpus import corpus_stats, make_corpus

OPS = ("build", "dump", "load", "to_dicts")
OP_TITLES = {"build": "build", "dump": "dump", "load": "load", "to_dicts": "to-dicts"}
SUBJECT = "semantic_chat"
RESULTS_DIR = HERE / "results"

SECTIONS = {
    "memory_message": ("memory_message.py", "Memory of one small message"),
    "formats": ("bench_formats.py", "Converting to Chat Completions dicts"),
    "anthropic": ("bench_anthropic.py", "Converting to Anthropic Messages dicts"),
    "gemini": ("bench_gemini.py", "Converting to Gemini contents"),
    "prompt": ("bench_prompt.py", "Prompt strings: semantic_chat vs cleanlab-tlm"),
    "history_ops": ("bench_history_ops.py", "Trimming a history: semantic_chat vs LangChain"),
    "streaming": ("bench_streaming.py", "Accumulating a stream"),
    "png": ("bench_png.py", "PNG: 10-megapixel RGB encode and decode"),
    "construct": ("bench_construct.py", "Constructing by hand, and the cost of type checks"),
    "html": ("bench_html.py", "Rendering a conversation as an HTML page"),
    "scale": ("bench_scale.py", "Conversations at scale: the CLI, datasets.map and Dask"),
}

Conversation = list[dict[str, Any]]


@dataclass
class Stats:
    """Everything measured for one contender."""

    times: dict[str, list[float]] = field(default_factory=lambda: {op: [] for op in OPS})
    cpu_times: dict[str, list[float]] = field(default_factory=lambda: {op: [] for op in OPS})
    memory_build: float = float("nan")
    memory_load: float = float("nan")
    json_bytes: float = float("nan")
    equal: float | None = None
    identical: float | None = None
    equal_via_json: float | None = None
    same_after_json: float = float("nan")

    def us(self, op: str) -> float:
        return median(self.times[op]) if self.times[op] else float("nan")

    def cpu_us(self, op: str) -> float:
        return median(self.cpu_times[op]) if self.cpu_times[op] else float("nan")


# --- measuring ------------------------------------------------------------------------------


def _as_bytes(text: str | bytes) -> bytes:
    return text.encode() if isinstance(text, str) else text


def check_round_trips(
    contender: Contender, corpus: list[Conversation], stats: Stats
) -> tuple[list[Any], list[str | bytes]]:
    """Build and dump the whole corpus once; record size and how much survives each trip."""
    total = sum(map(len, corpus))
    built = [contender.build(conversation) for conversation in corpus]
    texts = [contender.dump(obj) for obj in built]
    stats.json_bytes = sum(len(_as_bytes(text)) for text in texts) / total
    loaded = [contender.load(text) for text in texts]
    stats.same_after_json = sum(
        contender.same_object(a, b) for a, b in zip(built, loaded, strict=True)
    ) / len(corpus)
    if contender.has_to_dicts:
        equal = identical = via_json = 0
        for conversation, obj, back in zip(corpus, built, loaded, strict=True):
            out = contender.to_dicts(obj) or []
            equal += sum(messages_equal(conversation, out))
            identical += sum(messages_equal(conversation, out, strict=True))
            via_json += sum(messages_equal(conversation, contender.to_dicts(back) or []))
        stats.equal, stats.identical = equal / total, identical / total
        stats.equal_via_json = via_json / total
    return built, texts


def retained(make: Any) -> int:
    """Bytes still allocated after ``make()`` returns, with its result kept alive."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del kept
    return after - before


def measure_memory(
    contender: Contender, corpus: list[Conversation], texts: list[str | bytes], stats: Stats
) -> None:
    total = sum(map(len, corpus))
    stats.memory_build = retained(lambda: [contender.build(c) for c in corpus]) / total
    stats.memory_load = retained(lambda: [contender.load(t) for t in texts]) / total


def time_all(
    contenders: dict[str, Contender],
    corpus: list[Conversation],
    built: dict[str, list[Any]],
    texts: dict[str, list[str | bytes]],
    stats: dict[str, Stats],
    rounds: int,
    slice_size: int,
) -> None:
    keys = list(contenders)
    slices = [range(i, min(i + slice_size, len(corpus))) for i in range(0, len(corpus), slice_size)]
    clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
    gc.collect()
    gc.disable()
    try:
        turn = 0
        for number in range(rounds):
            started = time.perf_counter()
            for indices in slices:
                conversations = [corpus[i] for i in indices]
                count = sum(map(len, conversations))
                order = keys[turn % len(keys):] + keys[: turn % len(keys)]
                turn += 1
                for key in order:
                    contender = contenders[key]
                    objects = [built[key][i] for i in indices]
                    dumped = [texts[key][i] for i in indices]
                    operations: list[tuple[str, Any, list[Any]]] = [
                        ("build", contender.build, conversations),
                        ("dump", contender.dump, objects),
                        ("load", contender.load, dumped),
                    ]
                    if contender.has_to_dicts:
                        operations.append(("to_dicts", contender.to_dicts, objects))
                    for op, function, inputs in operations:
                        start, start_cpu = clock(), cpu_clock()
                        for value in inputs:
                            function(value)
                        cpu = cpu_clock() - start_cpu
                        wall = clock() - start
                        stats[key].times[op].append(wall / count / 1000)
                        stats[key].cpu_times[op].append(cpu / count / 1000)
            gc.enable()
            gc.collect()
            gc.disable()
            print(f"  round {number + 1}/{rounds}: {time.perf_counter() - started:.1f} s")
    finally:
        gc.enable()


# --- reporting ------------------------------------------------------------------------------


def _ratio(value: float, base: float) -> str:
    if math.isnan(value) or math.isnan(base) or base <= 0:
        return "-"
    return f"{value / base:.2f}x"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def main_tables(stats: dict[str, Stats], names: dict[str, str]) -> str:
    ref, floor = stats.get(REFERENCE), stats.get(FLOOR)
    speed_rows = []
    for key, s in stats.items():
        speed_rows.append([f"`{names[key]}`", *(fmt(s.us(op)) for op in OPS)])
    cpu_rows = [
        [f"`{names[key]}`", *(fmt(s.cpu_us(op)) for op in OPS)] for key, s in stats.items()
    ]
    parts = [
        "### Time per message (µs, median wall clock; lower is better)",
        "",
        table(["contender", *(OP_TITLES[op] for op in OPS)], speed_rows),
        "",
        "### CPU time per message (µs, median CPU time of the thread, same samples)",
        "",
        "Shown because the machine may be shared: when it is busy, wall-clock time includes "
        "time the benchmark waited for a core, and the two tables differ.",
        "",
        table(["contender", *(OP_TITLES[op] for op in OPS)], cpu_rows),
    ]
    for title, base in (("the msgspec reference", ref), ("the dicts + orjson floor", floor)):
        if base is None:
            continue
        rows = [
            [f"`{names[key]}`", *(_ratio(s.us(op), base.us(op)) for op in OPS)]
            for key, s in stats.items()
        ]
        parts += ["", f"### Time relative to {title}", "",
                  table(["contender", *(OP_TITLES[op] for op in OPS)], rows)]
    rows = []
    for key, s in stats.items():
        rows.append([
            f"`{names[key]}`",
            fmt(s.memory_build, 0),
            _ratio(s.memory_build, ref.memory_build) if ref else "-",
            fmt(s.memory_load, 0),
            _ratio(s.memory_load, ref.memory_load) if ref else "-",
            fmt(s.json_bytes, 0),
            _pct(s.equal),
            _pct(s.identical),
            _pct(s.equal_via_json),
            _pct(s.same_after_json),
        ])
    parts += [
        "",
        "### Memory, size and losslessness",
        "",
        table(
            [
                "contender", "retained B/msg after build", "vs msgspec", "after load",
                "vs msgspec", "JSON B/msg", "to-dicts equal", "identical", "equal via JSON",
                "load(dump(x)) == x",
            ],
            rows,
        ),
        "",
        "*to-dicts equal*: % of messages whose to-dicts output means the same to the API as the "
        "source (`contenders.canonical`: tool-call arguments compared as parsed JSON, assistant "
        "`content` None/\"\"/missing alike, a lone text part alike a string); *identical*: "
        "`==` on the dicts; *equal via JSON*: to-dicts after dump and load; "
        "*load(dump(x)) == x*: % of conversations whose object equals itself after its own JSON "
        "round trip (the library's `==`).",
    ]
    return "\n".join(parts)


Check = tuple[str, str, bool, str, bool]
"""(target, wall-clock figures, verdict, CPU-time figures, verdict) of one target."""


def _speed_check(
    target: str, mine: Stats, other: Stats, op: str, factor: float, faster: bool = False
) -> Check:
    """``mine`` within ``factor`` of ``other`` (or, with ``faster``, ``factor`` times faster)."""
    cells: list[Any] = [target]
    for clock in (Stats.us, Stats.cpu_us):
        a, b = clock(mine, op), clock(other, op)
        if faster:
            cells += [f"{fmt(a)} vs {fmt(b)} µs ({b / a:.2f}x faster)", b >= factor * a]
        else:
            cells += [f"{fmt(a)} vs {fmt(b)} µs ({a / b:.2f}x)", a <= factor * b]
    return (cells[0], cells[1], cells[2], cells[3], cells[4])


def _plain_check(target: str, figures: str, ok: bool) -> Check:
    return (target, figures, ok, figures, ok)


def render_checks(checks: list[Check]) -> str:
    rows = [
        [text, wall, verdict(ok_wall), cpu, verdict(ok_cpu)]
        for text, wall, ok_wall, cpu, ok_cpu in checks
    ]
    return table(["target", "wall clock", "", "CPU time", ""], rows, align="lrlrl")


def targets(stats: dict[str, Stats]) -> list[Check]:
    subject, ref = stats.get(SUBJECT), stats.get(REFERENCE)
    checks: list[Check] = []
    if subject is None:
        return checks
    for op in OPS:
        for peer in PEERS:
            if peer in stats and not math.isnan(stats[peer].us(op)):  # NaN: no such operation
                checks.append(_speed_check(
                    f"{OP_TITLES[op]}: at least as fast as {peer}", subject, stats[peer], op, 1
                ))
        if ref is not None:
            checks.append(
                _speed_check(f"{OP_TITLES[op]}: within 2x of msgspec", subject, ref, op, 2)
            )
    if ref is not None:
        for label, mine, theirs in (
            ("after build", subject.memory_build, ref.memory_build),
            ("after load", subject.memory_load, ref.memory_load),
        ):
            checks.append(_plain_check(
                f"retained memory {label}: within 1.5x of msgspec",
                f"{fmt(mine, 0)} vs {fmt(theirs, 0)} B/msg ({_ratio(mine, theirs)})",
                mine <= 1.5 * theirs,
            ))
    checks.append(_plain_check(
        "lossless: 100% of messages equal to the source after to-dicts, identical, and via JSON",
        f"{_pct(subject.equal)}, {_pct(subject.identical)}, {_pct(subject.equal_via_json)}",
        subject.equal == subject.identical == subject.equal_via_json == 1.0,
    ))
    return checks


def serialization_checks(stats: dict[str, Stats]) -> list[Check]:
    subject, sk, ref = stats.get(SUBJECT), stats.get("semantic-kernel"), stats.get(REFERENCE)
    if subject is None or sk is None or ref is None:
        return []
    return [
        _speed_check("dump ≥ 3x faster than Semantic Kernel", subject, sk, "dump", 3, faster=True),
        _speed_check("load ≥ 5x faster than Semantic Kernel", subject, sk, "load", 5, faster=True),
        _speed_check("dump within 2x of msgspec", subject, ref, "dump", 2),
        _speed_check("load within 2x of msgspec", subject, ref, "load", 2),
    ]


def serialization_section(stats: dict[str, Stats]) -> str:
    subject, sk, ref = stats.get(SUBJECT), stats.get("semantic-kernel"), stats.get(REFERENCE)
    if subject is None or sk is None or ref is None:
        return "(needs semantic_chat, semantic-kernel and msgspec in the run)"
    rows = [
        [
            name,
            *(fmt(s.us(op)) for op in ("dump", "load")),
            *(fmt(s.cpu_us(op)) for op in ("dump", "load")),
        ]
        for name, s in (
            ("`semantic_chat` `to_json` / `from_json`", subject),
            ("Semantic Kernel `model_dump_json` / `model_validate_json`", sk),
            ("msgspec structs `json.encode` / `decode`", ref),
        )
    ]
    return "\n".join([
        "The dump and load columns of the main table, per message of the mixed corpus (µs).",
        "",
        table(["", "dump", "load", "dump (CPU)", "load (CPU)"], rows),
        "",
        render_checks(serialization_checks(stats)),
    ])


# --- extra sections -------------------------------------------------------------------------


def run_section(key: str, quick: bool) -> str:
    """Run one extra script in its own process and return its markdown section body."""
    script, _ = SECTIONS[key]
    command = [sys.executable, str(HERE / script)]
    if quick and key != "png":
        command.append("--quick")
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    except subprocess.TimeoutExpired:
        return f"`{script}` timed out after 900 s."
    seconds = time.perf_counter() - started
    shown = "python benchmarks/" + " ".join([script, *command[2:]])
    if done.returncode != 0:
        return f"`{shown}` failed (exit {done.returncode}):\n\n```text\n{done.stderr[-3000:]}\n```"
    body = done.stdout.strip()
    if key == "png":
        encode = re.search(r"^encode: ([\d.]+) s", body, re.MULTILINE)
        decode = re.search(r"^decode: ([\d.]+) s", body, re.MULTILINE)
        summary = (
            f"Encode **{encode.group(1)} s**, decode **{decode.group(1)} s** "
            "(median of 3, wall clock).\n\n"
            if encode and decode
            else ""
        )
        body = f"{summary}```text\n{body}\n```"
    return f"{body}\n\nCommand: `{shown}` ({seconds:.0f} s, own process)."


def collect_sections(selected: set[str], quick: bool) -> dict[str, str]:
    RESULTS_DIR.mkdir(exist_ok=True)
    bodies = {}
    for key in SECTIONS:
        cache = RESULTS_DIR / f"{key}.md"
        if key in selected:
            print(f"section {key}: running {SECTIONS[key][0]} ...")
            body = run_section(key, quick)
            cache.write_text(body + "\n", encoding="utf-8")
            bodies[key] = body
        elif cache.exists():
            bodies[key] = "*(From an earlier run, not re-run this time.)*\n\n" + cache.read_text(
                encoding="utf-8"
            ).strip()
        else:
            bodies[key] = "*(Not run yet: `python benchmarks/run.py --sections " + key + "`.)*"
    return bodies


# --- main -----------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 conversations, 3 rounds")
    parser.add_argument("--conversations", type=int, default=None, help="default 200")
    parser.add_argument("--rounds", type=int, default=None, help="default 7")
    parser.add_argument("--slice", type=int, default=5, help="conversations per slice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--contenders", default=",".join(CONTENDERS), help="comma-separated keys"
    )
    parser.add_argument(
        "--sections", default="all",
        help="extra sections to run: all, none, or a comma-separated list of "
        + ", ".join(SECTIONS),
    )
    parser.add_argument("--output", default=str(HERE / "RESULTS.md"))
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    n = args.conversations or (40 if args.quick else 200)
    rounds = args.rounds or (3 if args.quick else 7)
    keys = [key.strip() for key in args.contenders.split(",") if key.strip()]
    selected = (
        set(SECTIONS) if args.sections == "all"
        else set() if args.sections == "none"
        else {key.strip() for key in args.sections.split(",")}
    )
    unknown = (set(keys) - set(CONTENDERS)) | (selected - set(SECTIONS))
    if unknown:
        raise SystemExit(f"unknown contenders or sections: {sorted(unknown)}")

    environment = environment_lines()
    command = command_line()
    corpus = make_corpus(n, seed=args.seed)
    pristine = copy.deepcopy(corpus)
    info = corpus_stats(corpus)
    total = info["messages"]
    print(f"corpus: {n} conversations, {total} messages, {info['JSON bytes']:,} JSON bytes")

    contenders = {key: CONTENDERS[key]() for key in keys}
    names = {key: contender.name for key, contender in contenders.items()}
    stats = {key: Stats() for key in keys}
    built: dict[str, list[Any]] = {}
    texts: dict[str, list[str | bytes]] = {}
    for key, contender in contenders.items():
        started = time.perf_counter()
        built[key], texts[key] = check_round_trips(contender, corpus, stats[key])
        measure_memory(contender, corpus, texts[key], stats[key])
        print(f"prepared {key} ({time.perf_counter() - started:.1f} s)")
    if corpus != pristine:
        raise SystemExit("a contender modified the corpus it was given")

    time_all(contenders, corpus, built, texts, stats, rounds, args.slice)
    del built, texts

    tables = main_tables(stats, names)
    checks = targets(stats)
    target_lines = render_checks(checks)
    serialization = serialization_section(stats)
    print()
    print(tables)
    print()
    print(target_lines)
    print()
    print(serialization)

    end_load = load_average()
    bodies = collect_sections(selected, args.quick)
    passed_wall = sum(check[2] for check in checks)
    passed_cpu = sum(check[4] for check in checks)
    kinds = ", ".join(f"{count} {kind}" for kind, count in info["kinds"].items())
    document = "\n".join([
        "# Benchmark results",
        "",
        "Generated by `benchmarks/run.py`; do not edit by hand (it is rewritten on every run). "
        "Commentary, profiles and what remains to do are in [NOTES.md](NOTES.md).",
        "",
        f"Command: `{command}`",
        "",
        *environment,
        f"- Load average after the main table: {end_load} (on a busy machine compare the CPU "
        "time table; the interleaving keeps the ratios fair either way)",
        "",
        "## The corpus",
        "",
        f"`corpus.make_corpus({n}, seed={args.seed})`: {n} conversations, {total} messages "
        f"({info['messages per conversation']} per conversation), "
        f"{info['JSON bytes']:,} bytes as JSON. Kinds: {kinds}. String contents of "
        f"{info['string content chars (min/median/max)'][0]} to "
        f"{info['string content chars (min/median/max)'][2]} characters (median "
        f"{info['string content chars (min/median/max)'][1]}); {info['non-ASCII messages']} "
        "messages hold non-ASCII text.",
        "",
        f"Timing: {rounds} rounds x {-(-n // args.slice)} slices of {args.slice} conversations, "
        "contenders in rotating order within each slice, medians of the per-message time over "
        "all samples; garbage collector off while timing. Memory: `tracemalloc`, whole corpus "
        "kept alive, bytes divided by messages (after build, strings shared with the input "
        "dicts are not counted).",
        "",
        "## Main table",
        "",
        tables,
        "",
        f"## Targets (main table): {passed_wall} of {len(checks)} met on wall-clock time, "
        f"{passed_cpu} of {len(checks)} on CPU time",
        "",
        "The issue's targets for `semantic_chat`, per message, same run: at least as fast as "
        "every peer library (Semantic Kernel, LangChain, pydantic-ai) on every operation; within "
        "2x of the msgspec reference on build, dump, load and to-dicts; retained memory within "
        "1.5x of msgspec; round trips lossless. Each speed target is judged on both clocks "
        "(they agree on an idle machine).",
        "",
        target_lines,
        "",
        "## Serialization vs Semantic Kernel and msgspec",
        "",
        serialization,
        "",
        *(
            line
            for key, (_, title) in SECTIONS.items()
            for line in (f"## {title}", "", bodies[key], "")
        ),
    ])
    Path(args.output).write_text(document.rstrip() + "\n", encoding="utf-8")
    print(f"\nwrote {args.output}")


if __name__ == "__main__":
    main()
