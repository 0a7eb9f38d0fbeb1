"""Time ``semantic-chat convert`` on JSONL files of Chat Completions conversations.

Run from the repository root with the package installed:
``python benchmarks/bench_cli.py [--sizes 10000 100000] [--workers 1 2]``.

Each file holds N small conversations (six messages: system, user, an assistant tool call,
the tool's result, the answer and a follow-up; deterministic), one per line. Every run
converts the whole file from ``openai-chat`` to ``openai-responses`` with
``semantic-chat convert --jsonl --from openai-chat --to openai-responses --quiet`` under
``/usr/bin/time -v``, and reports conversations per second (wall clock, start-up included),
CPU seconds (user + system, summed over the processes) and the peak resident memory.
``/usr/bin/time`` reports the largest single process (with workers, the largest of the parent
and its workers, not their sum). Memory that does not grow from 10k to 100k lines shows the
file is streamed. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CITIES = ("Paris", "Lisbon", "Oslo", "Nairobi", "Lima", "Osaka", "Perth", "Quito")


def conversation(index: int) -> list[dict[str, object]]:
    """The ``index``-th conversation: text, a tool call and its result, all deterministic."""
    city = CITIES[index % len(CITIES)]
    call_id = f"call_{index:08d}"
    temperature = 10 + index % 20
    return [
        {"role": "system", "content": "You are a helpful assistant that can read the weather."},
        {"role": "user", "content": f"Conversation {index}: what's the weather in {city}?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "arguments": json.dumps({"city": city, "unit": "celsius"}),
                    },
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": call_id,
            "content": json.dumps({"city": city, "temperature": temperature, "sky": "clear"}),
        },
        {"role": "assistant", "content": f"In {city} it is {temperature} °C under a clear sky."},
        {"role": "user", "content": [{"type": "text", "text": "Thanks! And tomorrow?"}]},
    ]


def write_jsonl(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8") as file:
        for index in range(count):
            file.write(json.dumps(conversation(index), ensure_ascii=False) + "\n")


def command() -> list[str]:
    found = shutil.which("semantic-chat") or str(Path(sys.executable).with_name("semantic-chat"))
    if not Path(found).exists():
        sys.exit("semantic-chat is not installed: pip install -e '.[cli]'")
    return [found]


def run(source: Path, target: Path, workers: int) -> tuple[float, float, float]:
    """Convert once; return wall seconds, CPU seconds (user + system, all processes) and
    peak RSS in MB (from /usr/bin/time -v)."""
    args = [
        *command(), "convert", str(source), "--jsonl", "--from", "openai-chat",
        "--to", "openai-responses", "--quiet", "--workers", str(workers), "-o", str(target),
    ]
    timer = shutil.which("time", path="/usr/bin")
    start = time.perf_counter()
    if timer:
        done = subprocess.run([timer, "-v", *args], capture_output=True, text=True, check=False)
    else:
        done = subprocess.run(args, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"semantic-chat failed ({done.returncode}): {done.stderr.strip()}")
    if timer:
        peak_kb = int(_field(done.stderr, r"Maximum resident set size \(kbytes\)"))
        cpu = float(_field(done.stderr, r"User time \(seconds\)")) + float(
            _field(done.stderr, r"System time \(seconds\)")
        )
    else:
        import resource  # noqa: PLC0415 - only without /usr/bin/time

        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak_kb, cpu = usage.ru_maxrss, usage.ru_utime + usage.ru_stime  # cumulative
    return seconds, cpu, peak_kb / 1024


def _field(report: str, name: str) -> str:
    match = re.search(name + r": ([\d.]+)", report)
    assert match, report
    return match.group(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    options = parser.parse_args()

    print(f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
          f"{platform.platform()}; load average {os.getloadavg()[0]:.1f} at start")
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for size in options.sizes:
            source = Path(directory) / f"chats-{size}.jsonl"
            write_jsonl(source, size)
            megabytes = source.stat().st_size / 1e6
            for workers in options.workers:
                target = Path(directory) / "out.jsonl"
                seconds, cpu, peak = run(source, target, workers)
                with target.open("rb") as output:
                    lines = sum(1 for _ in output)
                assert lines == size, (lines, size)
                rows.append((size, megabytes, workers, seconds, size / seconds, cpu, peak))
                print(f"  {size:,} lines, {workers} worker(s): {seconds:.1f} s", file=sys.stderr)

    print()
    print("| conversations | input MB | workers | wall s | conversations/s | CPU s "
          "| peak RSS MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size, megabytes, workers, seconds, rate, cpu, peak in rows:
        print(f"| {size:,} | {megabytes:.1f} | {workers} | {seconds:.1f} | {rate:,.0f} "
              f"| {cpu:.1f} | {peak:.0f} |")


if __name__ == "__main__":
    main()
