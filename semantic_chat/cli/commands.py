"""The subcommands: ``example``, ``convert``, ``validate``, ``show`` and ``formats``.

Each takes the parsed arguments and returns the exit status; errors it cannot go on from are
raised (`CommandError`, or the library's located errors) and reported by ``main``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any, NamedTuple

from .. import formats
from ..errors import SemanticChatError
from ..example import example_history
from ..formats import validation
from ..history import ChatHistory
from ..html import render
from ..transcript import render_transcript, summarize
from . import pages
from .files import (
    CommandError,
    Input,
    Progress,
    atomic_output,
    is_jsonl,
    open_input,
    parse_json,
    read_chunks,
    read_document,
)
from .pipeline import (
    Job,
    cli_words,
    describe_error,
    dump,
    open_pool,
    read_noting,
    result_format,
    run_chunks,
    transform,
)
from .wording import at_line, line_position

__all__ = ["PROG", "convert", "example", "list_formats", "show", "validate"]

PROG = "semantic-chat"
"""The command's name, which starts every message it writes on stderr."""

_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"
_BOM = b"\xef\xbb\xbf"


def example(args: argparse.Namespace) -> int:
    """Print (or write) the bundled example conversation in the format asked for.

    It works for every format: what the format cannot carry is left out with a warning on
    stderr, unless ``--on-unsupported`` says otherwise.
    """
    target = _output_path(args.output, None)
    job = Job(
        None, args.to, args.drop_unsupported, _indent(args, target), args.debug,
        on_unsupported=args.on_unsupported or "warn",
    )
    text, notes = dump(job, example_history())
    for note in notes:
        _warn(note)
    with atomic_output(target) as out:
        out.write((text + "\n").encode())
    return 0


def list_formats(args: argparse.Namespace) -> int:
    """Print each registered format's name and what it carries, one per line."""
    names = formats.names()
    width = max(map(len, names))
    for name in names:
        print(f"{name:<{width}}  {formats.get(name).summary}")
    return 0


def convert(args: argparse.Namespace) -> int:
    """Convert a conversation, or a JSONL file of them, to another format."""
    inputs: list[str] = args.input
    if args.engine == "dask":
        if not inputs:
            raise CommandError(
                "--engine dask needs INPUT: the shards (directories, files or glob patterns)", 2
            )
        from .dask_engine import convert_shards  # noqa: PLC0415 - only for --engine dask

        return convert_shards(args)
    if args.scheduler is not None:
        raise CommandError("--scheduler needs --engine dask", 2)
    if len(inputs) > 1:
        shown = ", ".join(inputs[:2]) + (" ..." if len(inputs) > 2 else "")
        raise CommandError(
            f"convert takes one INPUT, got {len(inputs):,} ({shown}): a file of several "
            "conversations is one .jsonl file, and shards go to --engine dask", 2
        )
    with open_input(inputs[0] if inputs else "-") as source:
        target = _output_path(args.output, source)
        if not is_jsonl(source, args.jsonl):
            job = Job(
                args.source, _written(args.to), args.drop_unsupported, _indent(args, target),
                on_unsupported=args.on_unsupported, max_tokens=args.max_tokens,
            )
            _, text, notes = transform(job, read_document(source))
            if text is None:  # a results line of a request without a reply: nothing to write
                raise CommandError("; ".join(notes))
            for note in notes:
                _warn(note)
            with _output(args.to, target) as out:
                out.write((text + "\n").encode())
            return 0
        if args.indent:
            raise CommandError("--indent does not apply to JSONL (one conversation a line)", 2)
        return _convert_lines(args, source, target)


def _convert_lines(args: argparse.Namespace, source: Input, target: Path | None) -> int:
    job = Job(
        args.source, _written(args.to), args.drop_unsupported, None, args.debug,
        on_unsupported=args.on_unsupported, plugins=tuple(args.plugin),
        max_tokens=args.max_tokens,
    )
    converted = skipped = dropped = unanswered = 0
    with (
        open_pool(job, args.workers) as pool,
        _output(args.to, target) as out,
        Progress(source, args.quiet, "converting") as progress,
        closing(run_chunks(job, read_chunks(source.stream), pool, args.workers)) as results,
    ):
        for chunk, outcomes in results:
            for outcome in outcomes:
                where = f"line {outcome.line:,}"
                if outcome.error is not None:
                    if outcome.trace:
                        progress.write(outcome.trace.rstrip())
                    if not args.skip_invalid:
                        raise CommandError(at_line(outcome.line, outcome.error))
                    place, what = line_position(outcome.line, outcome.error)
                    progress.write(f"{PROG}: {place}: skipped: {what}")
                    skipped += 1
                    continue
                for note in outcome.warnings:
                    progress.write(f"{PROG}: warning: {where}: {note}")
                if outcome.data is None:  # a results line of a request without a reply
                    unanswered += 1
                    continue
                dropped += len(outcome.warnings)
                out.write(outcome.data)
                converted += 1
            progress.advance(chunk.size)
    if not args.quiet:
        summary = f"converted {_count(converted, 'conversation')} to {args.to}"
        if dropped:
            summary += f"; dropped {_count(dropped, 'item')}"
        if unanswered:
            summary += f"; left out {_count(unanswered, 'request')} without a reply"
        if skipped:
            summary += f"; skipped {_count(skipped, 'invalid line')}"
        print(f"{PROG}: {summary}", file=sys.stderr)
    return 0


def _written(to: str) -> str:
    """The format a conversion writes: our JSON for ``--to parquet``, else ``--to`` itself."""
    return "semantic-chat" if to == "parquet" else to


def _output(to: str, target: Path | None) -> contextlib.AbstractContextManager[Any]:
    """Where converted lines go: the target file (or stdout), or Parquet rows for ``parquet``.

    Raises:
        CommandError: ``--to parquet`` without ``-o`` or without pyarrow.
    """
    if to != "parquet":
        return atomic_output(target)
    from .parquet import parquet_output  # noqa: PLC0415 - imports pyarrow only when asked for

    return parquet_output(target)


def validate(args: argparse.Namespace) -> int:
    """Check a conversation or a JSONL file; print every problem with its location.

    The checks are `formats.validate`'s: reading, then the rules of ``--to`` (or of the
    input's own format). Errors print as ``path: message``, warnings (what converting would
    leave out) as ``path: warning: message``; at most ``--max-problems`` lines (0: all).
    The exit status is 1 when there is an error.
    """
    report = _Problems(args.max_problems)
    with open_input(args.input) as source:
        if is_jsonl(source, args.jsonl):
            return _validate_lines(args, source, report)
        try:
            checked = formats.validation.check(
                read_document(source), args.source, target=args.to, max_tokens=args.max_tokens
            )
        except (SemanticChatError, ValueError) as error:
            if args.debug:
                raise
            checked = formats.validation.Checked(
                None, None, [formats.Problem("", describe_error(error))]
            )
    for problem in checked.problems:
        report.add(problem, print)
    report.close(print)
    if not args.quiet:
        if checked.problems:
            print(f"{source.name}: {report.summary()}")
        else:
            assert checked.history is not None
            messages = _count(len(checked.history), "message")
            print(f"{source.name}: no problems ({checked.format}, {messages})")
    return 1 if report.errors else 0


class _Problems:
    """Counts problems by severity and prints the first ``limit`` of them (0: all)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.errors = self.warnings = 0

    def add(self, problem: formats.Problem, write: Callable[[str], Any], where: str = "") -> None:
        shown = self.errors + self.warnings
        if problem.severity == "error":
            self.errors += 1
        else:
            self.warnings += 1
        if self.limit and shown >= self.limit:
            return
        text = cli_words(problem.message)
        if problem.severity == "warning":
            text = f"warning: {text}"
        parts = [part for part in (where, problem.path, text) if part]
        write(": ".join(parts))

    def close(self, write: Callable[[str], Any]) -> None:
        hidden = self.errors + self.warnings - self.limit if self.limit else 0
        if hidden > 0:
            write(f"... {_count(hidden, 'more problem')} not shown (see --max-problems)")

    def summary(self) -> str:
        counts = [_count(self.errors, "error")] if self.errors else []
        if self.warnings:
            counts.append(_count(self.warnings, "warning"))
        return ", ".join(counts)


def _validate_lines(args: argparse.Namespace, source: Input, report: _Problems) -> int:
    job = Job(args.source, args.to, debug=args.debug, check=True, max_tokens=args.max_tokens)
    found: Counter[str] = Counter()
    lines = 0
    with (
        open_pool(job, args.workers) as pool,
        Progress(source, args.quiet, "validating") as progress,
        closing(run_chunks(job, read_chunks(source.stream), pool, args.workers)) as results,
    ):
        for chunk, outcomes in results:
            for outcome in outcomes:
                lines += 1
                if outcome.trace:
                    progress.write(outcome.trace.rstrip())
                for problem in outcome.problems:
                    where, located = _in_line(outcome.line, problem)
                    report.add(located, lambda text: progress.write(text, error=False), where)
                if not outcome.problems:
                    found[outcome.source or "?"] += 1
            progress.advance(chunk.size)
        report.close(lambda text: progress.write(text, error=False))
    total = _count(lines, "conversation")
    if not args.quiet:
        if report.errors or report.warnings:
            print(f"{source.name}: {report.summary()} in {total}")
        else:
            kinds = ", ".join(f"{count:,} {name}" for name, count in sorted(found.items()))
            print(f"{source.name}: no problems in {total}" + (f" ({kinds})" if kinds else ""))
    return 1 if report.errors else 0


def _in_line(number: int, problem: formats.Problem) -> tuple[str, formats.Problem]:
    """Where a problem of JSONL line ``number`` is: a parser's error names its column."""
    where, what = line_position(number, problem.message)
    if problem.path or what == problem.message:
        return f"line {number:,}", problem
    return where, formats.Problem("", what, problem.severity)


def show(args: argparse.Namespace) -> int:
    """Print a conversation, or each in a JSONL file, as a transcript or an HTML page.

    ``--line N`` picks one line of a JSONL file. With ``--html`` a document (or that line)
    is one page, to standard output or ``-o FILE``; a whole JSONL file is a directory
    (``-o DIR``) of one page per conversation and an index (`_show_pages`).
    """
    if not args.html:
        for given, option in ((args.output, "-o/--output"), (args.theme, "--theme"),
                              (args.title, "--title")):
            if given is not None:
                raise CommandError(f"{option} applies to --html pages only", 2)
    color = args.color == "always" or (
        args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    )
    with open_input(args.input) as source:
        jsonl = is_jsonl(source, args.jsonl)
        if args.line is not None and not jsonl:
            raise CommandError(
                f"--line {args.line}: {source.name} is one JSON document, not JSONL "
                "(pass --jsonl if it holds one conversation a line)", 2,
            )
        if args.html:
            return _show_html(args, source, jsonl)
        if not jsonl:
            print(_transcript(_read(args.source, read_document(source)), color))
            return 0
        first = True
        for number, raw in _lines(source, args.line):
            shown = _read_line(args, number, raw)
            heading = f"══ line {number:,} · {shown.name}"
            if not first:
                print()
            print(_styled(heading, _BOLD, color))
            print(_transcript(shown, color))
            first = False
    return 0


def _show_html(args: argparse.Namespace, source: Input, jsonl: bool) -> int:
    """``show --html``: one page for a document or ``--line N``, else a directory of pages."""
    theme = args.theme or "auto"
    title = args.title
    if title is None and source.path is not None:
        title = source.path.name
    if not jsonl:
        target = _output_path(args.output, source)
        history = _page_history(_read(args.source, read_document(source)), "")
        _write_page(target, render(history, title=title, theme=theme))
        return 0
    if args.line is not None:
        target = _output_path(args.output, source)
        ((number, raw),) = _lines(source, args.line)
        history = _page_history(_read_line(args, number, raw), f"line {number:,}: ")
        page_title = f"{title} · line {number:,}" if title else f"line {number:,}"
        _write_page(target, render(history, title=page_title, theme=theme))
        return 0
    if args.output is None or args.output == "-":
        raise CommandError(
            f"{source.name} holds one conversation a line: pass -o DIR for a page each and "
            "an index.html, or --line N for the page of line N", 2,
        )
    return _show_pages(args, source, Path(args.output), title or "Conversations", theme)


def _show_pages(
    args: argparse.Namespace, source: Input, directory: Path, title: str, theme: str
) -> int:
    """Write a page per JSONL line into ``directory``, then ``index.html`` linking them.

    Every file is written atomically; the index comes last, so a run stopped by a bad line
    leaves the pages written so far and no index pointing at pages that are missing. Once
    the index is written, the pages an earlier run left for lines this input does not have
    (``conversation-N.html`` files this run did not write) are removed, so that the
    directory holds this input's pages only.
    """
    if directory.exists() and not directory.is_dir():
        raise CommandError(
            f"--output {args.output}: is not a directory (a JSONL file gives a directory of "
            "pages; pass --line N for one page)", 2,
        )
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CommandError(f"{directory}: cannot create: {error.strerror or error}") from None
    entries: list[pages.IndexEntry] = []
    with Progress(source, args.quiet, "rendering") as progress:
        for chunk in read_chunks(source.stream):
            for number, raw in chunk.lines:
                shown = _read_line(args, number, raw)
                if shown.history is None:  # listed in the index as what it is; no page
                    entries.append(pages.IndexEntry(number, shown.name, 0, None, shown.no_reply))
                    continue
                page = render(shown.history, title=f"{title} · line {number:,}", theme=theme)
                _write_page(_inside(directory, pages.page_name(number), source), page)
                entries.append(pages.entry_for(number, shown.name, shown.history))
            progress.advance(chunk.size)
    index = pages.render_index(entries, title=title, theme=theme)
    _write_page(_inside(directory, pages.INDEX_NAME, source), index)
    written = {pages.page_name(entry.line) for entry in entries if entry.no_reply is None}
    removed = _remove_stale_pages(directory, written, source)
    if not args.quiet:
        count = _count(len(written), "conversation page")
        done = f"{PROG}: wrote {count} and {pages.INDEX_NAME} to {directory}"
        if len(written) < len(entries):
            done += f" ({_count(len(entries) - len(written), 'line')} without a reply: no page)"
        if removed:
            done += f"; removed {_count(removed, 'page')} an earlier run left for other lines"
        print(done, file=sys.stderr)
    return 0


def _remove_stale_pages(directory: Path, written: set[str], source: Input) -> int:
    """Remove the conversation pages in ``directory`` not in ``written``; how many went.

    The input is never removed, whatever its name.

    Raises:
        CommandError: a stale page cannot be removed (status 1).
    """
    removed = 0
    for path in sorted(directory.iterdir()):
        if path.name in written or not pages.is_page_name(path.name) or not path.is_file():
            continue
        if source.path is not None and _same_file(path, source.path):
            continue
        try:
            path.unlink()
        except FileNotFoundError:
            continue  # gone meanwhile: nothing to do
        except OSError as error:
            raise CommandError(
                f"{path}: cannot remove this page an earlier run left: "
                f"{error.strerror or error}"
            ) from None
        removed += 1
    return removed


def _inside(directory: Path, name: str, source: Input) -> Path:
    """The file ``name`` in ``directory``, refused when it is the input itself."""
    path = directory / name
    if source.path is not None and path.exists() and _same_file(path, source.path):
        raise CommandError(f"--output {directory}: {name} is the input file; write elsewhere", 2)
    return path


def _write_page(target: Path | None, page: str) -> None:
    with atomic_output(target) as out:
        out.write(page.encode())
        if not page.endswith("\n"):
            out.write(b"\n")


def _lines(source: Input, only: int | None) -> Iterator[tuple[int, bytes]]:
    """The numbered non-blank lines of a JSONL input, or just line ``only``.

    Raises:
        CommandError: line ``only`` is blank or past the end of the input (status 2).
    """
    if only is None:
        for chunk in read_chunks(source.stream):
            yield from chunk.lines
        return
    count = 0
    for count, raw in enumerate(source.stream, 1):
        if count == only:
            line = raw.removeprefix(_BOM) if count == 1 else raw
            if not line.strip():
                raise CommandError(f"--line {only:,}: the line is blank in {source.name}", 2)
            yield count, line
            return
    lines = _count(count, "line")
    raise CommandError(f"--line {only:,}: out of range: {source.name} has {lines}", 2)


def _read_line(args: argparse.Namespace, number: int, raw: bytes) -> _Shown:
    """Read JSONL line ``number``; its errors are located at the line (and column)."""
    try:
        return _read(args.source, parse_json(raw))
    except (SemanticChatError, ValueError) as error:
        if args.debug:
            raise
        raise CommandError(at_line(number, describe_error(error))) from None


class _Shown(NamedTuple):
    """A conversation read to show: its format and history, or a results line's failure."""

    name: str
    history: ChatHistory | None
    no_reply: str | None = None
    """What a Batch results line of a request that got no reply says (``request r0:
    expired``): shown as it is, where the conversation would be."""




def _transcript(shown: _Shown, color: bool) -> str:
    if shown.history is None:
        return _styled(f"(no reply: {shown.no_reply})", _DIM, color)
    summary = _styled(f"Contains {summarize(shown.history)}.", _DIM, color)
    return f"{render_transcript(shown.history, color=color)}\n\n{summary}"


def _page_history(shown: _Shown, where: str) -> ChatHistory:
    """The history of a page asked for by name; a results line without a reply has none.

    Raises:
        CommandError: the line is of a request that got no reply (status 1).
    """
    if shown.history is None:
        raise CommandError(f"{where}no reply, so no page: {shown.no_reply}")
    return shown.history


def _read(source: str | None, payload: Any) -> _Shown:
    """Read a document to show it; what reading left out is printed as a warning.

    A results line of a request that got no reply (expired, errored ...) is shown as that.
    """
    failed = validation.failed_request(payload)
    if failed is not None:
        return _Shown(source or result_format(payload), None, failed)
    name = source if source is not None else formats.detect(payload)
    history, notes = read_noting(name, payload)
    for note in notes:
        _warn(note)
    return _Shown(name, history)


def _output_path(name: str | None, source: Input | None) -> Path | None:
    """The file to write (``None`` for stdout), refusing the input itself and directories."""
    if name is None or name == "-":
        return None
    path = Path(name)
    if path.is_dir():
        raise CommandError(f"--output {name}: is a directory", 2)
    if source is not None and source.path is not None and _same_file(path, source.path):
        raise CommandError(f"--output {name}: is the input file; write to another path", 2)
    return path


def _same_file(first: Path, second: Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return first.resolve() == second.resolve()


def _indent(args: argparse.Namespace, target: Path | None) -> int | None:
    """Indent a document when asked to, or when it goes to a terminal."""
    return 2 if args.indent or (target is None and sys.stdout.isatty()) else None


def _warn(note: str) -> None:
    print(f"{PROG}: warning: {note}", file=sys.stderr)


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _styled(text: str, codes: str, color: bool) -> str:
    return f"{codes}{text}{_RESET}" if color else text
