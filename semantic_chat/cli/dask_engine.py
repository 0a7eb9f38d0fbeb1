"""``semantic-chat convert --engine dask``: a directory of shards converted on a Dask cluster.

The input is a directory of JSONL or Parquet shards, a glob pattern of them (quoted, or
expanded by the shell into the shards themselves), or several of either; the output a
directory holding one shard per input shard, with the same base name and the target's
extension: ``chats-003.parquet`` becomes ``chats-003.jsonl``, or ``chats-003.parquet`` again
with ``--to parquet`` (rows of `semantic_chat.batch.arrow_schema`, as ``convert --to
parquet`` writes one file). A Parquet shard is read from its ``messages`` column: rows of
that schema as whole documents, any other ``messages`` column as one conversation per cell,
read as `semantic_chat.batch.read_column` reads it for `semantic_chat.batch.convert_batch`
(JSON text; lists and structs, whose null fields are left out; values of Arrow's JSON
extension type, as Hugging Face ``datasets`` writes them, parsed).

Each shard is one task: a worker reads it record by record, converts each in order and writes
the result into a hidden temporary file beside the output, renamed into place only when the
shard is complete. An output that exists is therefore complete, and a rerun after an
interrupted job (or a job stopped by a bad record) skips those shards and converts only the
rest; the temporary files an interrupted job left behind are removed.

Without ``--scheduler`` a `distributed.LocalCluster` of ``-j`` single-threaded worker
processes is started for the job and stopped after it; with ``--scheduler ADDRESS`` the job
runs on that cluster, whose workers must have ``semantic_chat`` (and any ``--plugin``)
installed. A worker that dies mid-shard costs that shard a restart on another worker, never a
record: its partial temporary file is never renamed.

This module imports Dask only when a job runs (the ``dask`` extra, ``pip install
'semantic_chat[dask]'``), and pyarrow only for Parquet shards.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import logging
import os
import sys
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from .. import atomic, jsoncodec
from ..batch import from_arrow_table, read_column
from .files import CommandError, read_chunks
from .pipeline import Job, run_chunk
from .plugins import load_plugins
from .wording import line_position

__all__ = [
    "PARQUET_COLUMN",
    "SHARD_SUFFIXES",
    "Shard",
    "ShardResult",
    "convert_shard",
    "convert_shards",
    "find_shards",
]

SHARD_SUFFIXES = (".jsonl", ".ndjson", ".parquet")
"""The input shards a directory is searched for (a glob pattern may name any files)."""

PARQUET_COLUMN = "messages"
"""The column of a Parquet shard that holds the conversations, one per row."""

_PARQUET = "parquet"
"""The ``--to`` value that writes Parquet shards of our JSON (`semantic_chat.cli.parquet`)."""
_PARQUET_ROWS = 256
"""Rows read from a Parquet shard at a time, as `read_chunks` reads JSONL lines."""

_PROG = "semantic-chat"


class Shard(NamedTuple):
    """An input shard and the output shard it becomes."""

    source: Path
    target: Path


class _Stopped(Exception):
    """A record error without ``--skip-invalid``: the shard stops and is not written."""


class ShardResult(NamedTuple):
    """What became of one shard, sent back from the worker that converted it.

    Attributes:
        name: the input shard's file name, which starts each message about it.
        converted: the records written.
        skipped: the records left out (``--skip-invalid``).
        dropped: the warnings about what the target cannot carry.
        messages: lines for stderr, in record order: skipped records, warnings, tracebacks.
        error: the error of the record that stopped the shard (no ``--skip-invalid``), located
            as ``line 4: ...`` (or ``row 4: ...`` in Parquet); the shard was not written.
    """

    name: str
    converted: int
    skipped: int
    dropped: int
    messages: tuple[str, ...]
    error: str | None = None


def find_shards(
    patterns: str | Sequence[str], output: Path, suffix: str = ".jsonl"
) -> list[Shard]:
    """List the input shards ``patterns`` name, sorted, with the output shard of each.

    Each pattern is a directory (its ``.jsonl``, ``.ndjson`` and ``.parquet`` files), a file,
    or a glob pattern (``data/*.parquet``, ``data/**/*.jsonl``): an unquoted glob reaches us as
    the files the shell found. A shard named twice is converted once. Each output shard is in
    ``output``, named as its input with the extension ``suffix``.

    Raises:
        CommandError: a pattern matches nothing, two shards would write the same output, or
            an output would replace its own input (status 2).
    """
    found: set[Path] = set()
    for pattern in [patterns] if isinstance(patterns, str) else patterns:
        found.update(_matches(pattern))
    shards: list[Shard] = []
    seen: dict[Path, Path] = {}
    for source in sorted(found):
        target = output / (source.stem + suffix)
        if target in seen:
            raise CommandError(
                f"{seen[target]} and {source} would both be written to {target}", 2
            )
        seen[target] = source
        if source.resolve() == target.resolve():
            raise CommandError(
                f"--output {output}: would replace the input shard {source}; "
                "write to another directory", 2
            )
        shards.append(Shard(source, target))
    return shards


def _matches(pattern: str) -> list[Path]:
    """The shard files one pattern names (see `find_shards`).

    Raises:
        CommandError: it names none (status 2).
    """
    if os.path.isdir(pattern):
        found = [
            path for path in Path(pattern).iterdir()
            if path.suffix.lower() in SHARD_SUFFIXES and path.is_file()
        ]
    else:
        found = [Path(name) for name in glob.glob(pattern, recursive=True)]
        found = [Path(os.path.normpath(path)) for path in found if path.is_file()]
    if not found:
        raise CommandError(
            f"{pattern}: no shards match (a directory of {', '.join(SHARD_SUFFIXES)} files, "
            "or a glob pattern)", 2
        )
    return found


def convert_shard(job: Job, source: str, target: str, skip_invalid: bool) -> ShardResult:
    """Convert one shard into ``target``, atomically; the task each Dask worker runs.

    Records are converted in order and written as they go into a temporary file beside
    ``target``, renamed into place once the whole shard is done. A record that cannot be
    converted stops the shard, leaving ``target`` unwritten, unless ``skip_invalid``; either
    way the error is returned, not raised, with its line (or row) number. A ``target`` named
    ``.parquet`` gets rows of `semantic_chat.batch.arrow_schema` (the job writes our JSON).

    Raises:
        OSError: the shard cannot be read or the output written.
        CommandError: a Parquet shard without pyarrow, or without the ``messages`` column.
    """
    load_plugins(job.plugins)  # a worker imports nothing of the command's process
    path = Path(source)
    unit = "row" if path.suffix.lower() == ".parquet" else "line"
    converted = skipped = dropped = 0
    messages: list[str] = []
    try:
        with contextlib.ExitStack() as stack:
            out: Any = stack.enter_context(atomic.atomic_write(Path(target)))
            if target.endswith(".parquet"):  # closed (or abandoned) before the rename
                from .parquet import parquet_lines  # noqa: PLC0415 - pyarrow, only for Parquet

                pq = _import("pyarrow.parquet", "--to parquet needs pyarrow", "parquet")
                out = stack.enter_context(parquet_lines(out, pq))
            for lines in _read_records(path, stack):
                for outcome in run_chunk(job, lines):
                    if outcome.trace:
                        messages.append(outcome.trace.rstrip())
                    if outcome.error is not None:
                        place, what = line_position(outcome.line, outcome.error)
                        place = place.replace("line", unit, 1)
                        if not skip_invalid:
                            raise _Stopped(f"{place}: {what}")  # removes the temporary file
                        messages.append(f"{path.name}: {place}: skipped: {what}")
                        skipped += 1
                        continue
                    for note in outcome.warnings:
                        messages.append(f"warning: {path.name}: {unit} {outcome.line:,}: {note}")
                    if outcome.data is None:  # a results line of a request without a reply
                        continue
                    dropped += len(outcome.warnings)
                    out.write(outcome.data)
                    converted += 1
    except _Stopped as stopped:
        return ShardResult(
            path.name, converted, skipped, dropped, tuple(messages), str(stopped)
        )
    return ShardResult(path.name, converted, skipped, dropped, tuple(messages))


def _read_records(path: Path, stack: contextlib.ExitStack) -> Iterator[list[tuple[int, bytes]]]:
    """Read a shard in chunks of numbered records, each the JSON text of a conversation."""
    if path.suffix.lower() != ".parquet":
        stream = stack.enter_context(path.open("rb"))
        for chunk in read_chunks(stream):
            yield chunk.lines
        return
    parquet = _import("pyarrow.parquet", "Parquet shards need pyarrow", "dask")
    shard = stack.enter_context(contextlib.closing(parquet.ParquetFile(path)))
    schema = shard.schema_arrow
    if PARQUET_COLUMN not in schema.names:
        raise CommandError(
            f"{path}: no {PARQUET_COLUMN!r} column (it has {', '.join(schema.names)})"
        )
    ours = "version" in schema.names and _holds_items(schema.field(PARQUET_COLUMN).type)
    number = 0
    columns = None if ours else [PARQUET_COLUMN]
    for batch in shard.iter_batches(batch_size=_PARQUET_ROWS, columns=columns):
        if ours:  # rows of batch.arrow_schema(): whole documents of our JSON
            texts = [jsoncodec.dumps(document).encode() for document in from_arrow_table(batch)]
        else:
            texts = [_cell_json(cell) for cell in read_column(batch, PARQUET_COLUMN)]
        lines = []
        for text in texts:
            number += 1
            lines.append((number, text))
        yield lines


def _holds_items(kind: Any) -> bool:
    """Whether a ``messages`` column is `semantic_chat.batch.arrow_schema`'s: structs of items."""
    value = getattr(kind, "value_type", None)
    return value is not None and getattr(value, "num_fields", 0) > 0 and (
        value.get_field_index("items") >= 0
    )


def _cell_json(cell: Any) -> bytes:
    """The JSON text of a cell as `semantic_chat.batch.read_column` reads it.

    Text is kept as it is; any other value (lists and structs whose null fields were left
    out, values of Arrow's JSON type already parsed) is encoded, so that a shard reads as
    `semantic_chat.batch.convert_batch` reads the same table.
    """
    if isinstance(cell, bytes):
        return cell
    if isinstance(cell, str):
        return cell.encode()
    return jsoncodec.dumps(cell).encode()


def convert_shards(args: argparse.Namespace) -> int:
    """Run ``semantic-chat convert --engine dask``: convert every shard not yet converted.

    Progress (shards done out of those to do) and every skipped record and warning go to
    stderr unless ``--quiet``; a record error without ``--skip-invalid`` stops the job, with
    the shards already written kept for a rerun.

    Raises:
        CommandError: a usage error (status 2: no ``-o``, ``--indent``, Dask not installed,
            no shards), a scheduler that cannot be reached, a record error, or a shard whose
            workers kept dying (status 1).
    """
    if args.output is None or args.output == "-":
        raise CommandError("--engine dask writes one file per shard: pass -o OUTPUT_DIR", 2)
    if args.indent:
        raise CommandError("--indent does not apply to JSONL (one conversation a line)", 2)
    parquet = args.to == _PARQUET  # else a registered format: --to's choices
    distributed = _import("distributed", "--engine dask needs dask.distributed", "dask")
    output = Path(args.output)
    if output.exists() and not output.is_dir():
        raise CommandError(f"--output {output}: is a file; --engine dask writes a directory", 2)
    shards = find_shards(args.input, output, ".parquet" if parquet else ".jsonl")
    output.mkdir(parents=True, exist_ok=True)
    todo = [shard for shard in shards if not shard.target.exists()]
    for shard in todo:
        _remove_partial(shard.target)
    job = Job(
        args.source, "semantic-chat" if parquet else args.to, args.drop_unsupported, None,
        args.debug,
        on_unsupported=args.on_unsupported, plugins=tuple(args.plugin),
        max_tokens=args.max_tokens,
    )
    totals = [0, 0, 0]  # converted, skipped, dropped
    if todo:
        with _client(distributed, args) as client:
            totals = _run(distributed, client, job, todo, args)
        for shard in todo:  # the attempts of workers that died mid-shard
            _remove_partial(shard.target)
    if not args.quiet and not todo:
        every = _count(len(shards), "shard")
        print(f"{_PROG}: nothing to convert: every shard is in {output} ({every})",
              file=sys.stderr)
    elif not args.quiet:
        converted, skipped, dropped = totals
        summary = (
            f"converted {_count(converted, 'conversation')} in {_count(len(todo), 'shard')} "
            f"to {args.to}"
        )
        if dropped:
            summary += f"; dropped {_count(dropped, 'item')}"
        if skipped:
            summary += f"; skipped {_count(skipped, 'invalid record')}"
        if len(todo) < len(shards):
            summary += f"; {_count(len(shards) - len(todo), 'shard')} already converted"
        print(f"{_PROG}: {summary}", file=sys.stderr)
    return 0


def _run(
    distributed: Any,
    client: Any,
    job: Job,
    todo: list[Shard],
    args: argparse.Namespace,
) -> list[int]:
    """Submit a task per shard, report each as it completes; cancel the rest on error.

    Returns:
        The records converted, skipped and the warnings, over all the shards.
    """
    totals = [0, 0, 0]
    run_id = uuid.uuid4().hex[:8]
    futures = [
        client.submit(
            convert_shard, job, str(shard.source), str(shard.target), args.skip_invalid,
            key=f"semantic-chat-convert-{run_id}-{number}", pure=False, retries=0,
        )
        for number, shard in enumerate(todo)
    ]
    names = {future.key: shard.source for future, shard in zip(futures, todo, strict=True)}
    try:
        for done, future in enumerate(distributed.as_completed(futures), 1):
            try:
                result: ShardResult = future.result()
            except distributed.KilledWorker:
                raise CommandError(
                    f"{names[future.key]}: the workers converting it kept dying "
                    "(out of memory?); the shards written so far are kept"
                ) from None
            for message in result.messages:
                print(f"{_PROG}: {message}", file=sys.stderr)
            if result.error is not None:
                raise CommandError(
                    f"{names[future.key]}: {result.error} (the shards already written are "
                    "kept; a rerun converts the rest)"
                )
            totals[0] += result.converted
            totals[1] += result.skipped
            totals[2] += result.dropped
            if not args.quiet:
                print(
                    f"{_PROG}: {done}/{len(todo)} shards: {result.name}: "
                    f"{_count(result.converted, 'conversation')}",
                    file=sys.stderr,
                )
    finally:
        client.cancel(futures)
    return totals


@contextlib.contextmanager
def _client(distributed: Any, args: argparse.Namespace) -> Iterator[Any]:
    """Connect to ``--scheduler``, or start a local cluster of ``-j`` worker processes."""
    if args.scheduler:
        try:
            client = distributed.Client(args.scheduler, timeout=30)
        except (OSError, TimeoutError) as error:
            raise CommandError(f"--scheduler {args.scheduler}: cannot connect: {error}") from None
        with client:
            yield client
        return
    with (
        distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True,
            dashboard_address=":0", silence_logs=logging.ERROR,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def _remove_partial(target: Path) -> None:
    """Remove the temporary files an interrupted attempt at ``target`` left beside it."""
    for name in glob.glob(os.path.join(glob.escape(str(target.parent)),
                                       f".{glob.escape(target.name)}.*.part")):
        with contextlib.suppress(OSError):
            os.unlink(name)


def _import(module: str, what: str, extra: str) -> Any:
    try:
        return __import__(module, fromlist=["_"])
    except ImportError:
        raise CommandError(
            f"{what}: pip install 'semantic_chat[{extra}]' (cannot import {module})", 2
        ) from None


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")
