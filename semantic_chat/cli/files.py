"""Input, output and progress for the command line.

Input is a file or standard input, read as bytes: a JSON document whole, a JSONL file in
chunks of lines so that memory does not grow with its length. Output goes to standard output,
or to a temporary file next to the target that is renamed into place only when complete.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

from .. import atomic, jsoncodec
from ..errors import SerializationError
from .wording import EMPTY_INPUT, document_position

__all__ = [
    "CHUNK_BYTES",
    "CHUNK_LINES",
    "Chunk",
    "CommandError",
    "Input",
    "Progress",
    "atomic_output",
    "is_jsonl",
    "open_input",
    "parse_json",
    "read_chunks",
    "read_document",
]

CHUNK_LINES = 256
"""At most this many lines go to a worker at a time."""

CHUNK_BYTES = 1 << 20
"""A chunk is closed early once its lines hold this many bytes."""

_BOM = b"\xef\xbb\xbf"
_JSON_SPACE = b" \t\r\n"
_JSONL_SUFFIXES = (".jsonl", ".ndjson")


class CommandError(Exception):
    """An error the command line reports in one line and exits with ``status`` for.

    Status 2 is a usage error (a bad option or combination), 1 bad input or a failed write.
    """

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


class Input(NamedTuple):
    """An opened input: its name for messages, its path (``None`` for stdin) and its bytes."""

    name: str
    path: Path | None
    stream: IO[bytes]


class Chunk(NamedTuple):
    """Consecutive non-blank lines of a JSONL file, numbered from 1, and the bytes they took."""

    lines: list[tuple[int, bytes]]
    size: int


@contextlib.contextmanager
def open_input(name: str) -> Iterator[Input]:
    """Open the file ``name`` for reading as bytes, or standard input for ``-``.

    Raises:
        CommandError: the file cannot be opened (status 1), or the input would be read from
            a terminal (status 2).
    """
    if name == "-":
        if sys.stdin is None or sys.stdin.isatty():
            raise CommandError("no input: name a file, or pipe a conversation in", 2)
        yield Input("<stdin>", None, sys.stdin.buffer)
        return
    path = Path(name)
    try:
        stream = path.open("rb")
    except OSError as error:
        raise CommandError(f"{name}: {error.strerror or error}") from None
    with stream:
        yield Input(name, path, stream)


def is_jsonl(source: Input, forced: bool) -> bool:
    """Say whether to read ``source`` as JSONL: when asked, or by its ``.jsonl`` suffix."""
    return forced or (
        source.path is not None and source.path.suffix.lower() in _JSONL_SUFFIXES
    )


def read_document(source: Input) -> Any:
    """Read the whole input as one JSON value.

    Raises:
        SerializationError: the input is empty or not JSON, located at ``line 3, column 5``
            when the parser says where; when it looks like JSONL, says so.
    """
    data = source.stream.read()
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    if not data.strip(_JSON_SPACE):
        raise SerializationError(EMPTY_INPUT)
    if data.startswith(_PARQUET_MAGIC):
        raise SerializationError(
            "this is a Parquet file, not JSON: convert --engine dask reads Parquet shards (the "
            "'messages' column); the other commands read JSON and JSONL"
        )
    try:
        return parse_json(data)
    except SerializationError as error:
        where, what = document_position(str(error))
        first, _, rest = data.strip().partition(b"\n")
        if rest.strip() and _parses(first):
            what += " (one JSON value per line? pass --jsonl)"
        raise SerializationError(what, path=where) from None


def parse_json(data: bytes) -> Any:
    """Parse JSON bytes; bytes that are not UTF-8 are an error placed at the first bad one.

    The parsers say ``str is not valid UTF-8`` at line 1, column 1 whatever the byte; this
    says which byte and where (``not UTF-8: byte 0xe9: line 3 column 12 (char 40)``, placed by
    `semantic_chat.cli.wording`), or that the text is UTF-16 or UTF-32 by its byte order mark.
    A line that ends inside a string (a JSONL line cut short) is said so, at the line's end,
    instead of the parsers' ``unexpected control character`` (the newline) or end of data.

    Raises:
        SerializationError: the bytes are not UTF-8 JSON.
    """
    try:
        return jsoncodec.loads(data)
    except SerializationError as error:
        problem = (
            jsoncodec.utf8_error(data)
            or _open_string_error(data, str(error))
            or _events_error(data)
        )
        if problem is None:
            raise
    raise SerializationError(problem) from None


_PARQUET_MAGIC = b"PAR1"
"""The first bytes of every Parquet file."""

_EVENT_FIELDS = (b"data:", b"event:", b"id:", b"retry:", b":")
"""What a line of a server-sent events capture starts with (``:`` a comment)."""


def _events_error(data: bytes) -> str | None:
    """Say that the text is a server-sent events capture (``data: {...}`` lines), if it is.

    A stream saved as it came over the wire is no JSON; the parsers would only say that its
    first character is unexpected.
    """
    if not data.lstrip().startswith(_EVENT_FIELDS):
        return None
    return (
        "this is a server-sent events capture ('data:' lines), not JSON: a recorded stream is "
        "read in Python (the JSON of each data line, given to its format's from_stream, then "
        "StreamingChatMessageContent.accumulate(...).to_message())"
    )


_AT_CHAR = re.compile(r"\(char (\d+)\)$")
"""Where a parser stopped, at the end of its message: ``(char 46)``."""
_OPEN_STRING = re.compile(r'"(?:[^"\\\n\r]|\\.)*')
"""A JSON string from its opening quote, as far as it goes on its line."""
_UNTERMINATED = "Unterminated string starting at"
"""The standard library's words for a string open at the end of the text."""


def _open_string_error(data: bytes, message: str) -> str | None:
    """Say that a line ends inside a string, when that is where the parser stopped.

    The parsers stop at the line break (``unexpected control character``) or at the end of
    the text, or (the standard library, at the end) name the string's opening quote.

    Returns:
        ``malformed JSON: the line ends inside a string opened at column 41: line 1 column
        47 (char 46)``, at the line's end; ``None`` when the parser stopped elsewhere.
    """
    found = _AT_CHAR.search(message)
    if found is None:
        return None
    text = data.decode("utf-8")  # valid UTF-8: the caller looked for a bad byte first
    stop = int(found[1])
    at_quote = _UNTERMINATED in message  # the standard library names the opening quote
    quote = stop if at_quote else _open_quote(text, stop)
    if quote is None:
        return None
    so_far = _OPEN_STRING.match(text, quote)
    end = so_far.end() if so_far is not None else quote  # it matches: text[quote] is '"'
    if (end != len(text) and text[end] not in "\r\n") or not (at_quote or stop == end):
        return None
    line_start = text.rfind("\n", 0, end) + 1
    return (
        f"malformed JSON: the line ends inside a string opened at column "
        f"{quote - line_start + 1:,}: {jsoncodec.text_position(text, end)}"
    )


def _open_quote(text: str, stop: int) -> int | None:
    """The opening quote of the string still open at ``stop``, if any.

    A JSON string never spans lines, so the strings of ``stop``'s line are read from its start.
    """
    position = text.rfind("\n", 0, stop) + 1
    while (quote := text.find('"', position, stop)) >= 0:
        end = _OPEN_STRING.match(text, quote).end()  # type: ignore[union-attr]  # '"' matches
        if end >= stop or text[end] != '"':  # still open at stop, or never closed
            return quote
        position = end + 1
    return None


def _parses(data: bytes) -> bool:
    try:
        jsoncodec.loads(data)
    except SerializationError:
        return False
    return True


def read_chunks(stream: IO[bytes]) -> Iterator[Chunk]:
    """Read a JSONL stream in chunks of numbered, non-blank lines, never all at once."""
    lines: list[tuple[int, bytes]] = []
    size = 0
    for number, raw in enumerate(stream, 1):
        size += len(raw)
        line = raw[len(_BOM) :] if number == 1 and raw.startswith(_BOM) else raw
        if line.strip():
            lines.append((number, line))
        if len(lines) >= CHUNK_LINES or size >= CHUNK_BYTES:
            yield Chunk(lines, size)
            lines, size = [], 0
    if lines or size:
        yield Chunk(lines, size)


@contextlib.contextmanager
def atomic_output(target: Path | None) -> Iterator[IO[bytes]]:
    """Give a binary stream that ends up at ``target`` (standard output for ``None``).

    A file is written to a hidden temporary file in the target's directory, which replaces
    the target only once everything is written; on any error or interrupt it is removed, so
    the target is either untouched or complete (`semantic_chat.atomic`, as `ChatHistory.save`).

    Raises:
        CommandError: the temporary file cannot be created or renamed (status 1).
    """
    if target is None:
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    try:
        direct = atomic.open_direct(target)  # /dev/stdout, /dev/null: written in place
    except OSError as error:
        raise CommandError(f"{target}: cannot write: {error.strerror or error}") from None
    if direct is not None:
        sys.stdout.buffer.flush()  # what the command wrote before stays before
        with direct:
            yield direct
        return
    try:
        handle = atomic.temporary_beside(target)
    except OSError as error:
        raise CommandError(f"{target}: cannot write: {error.strerror or error}") from None
    try:
        yield handle
        try:
            atomic.commit(handle, target)
        except OSError as error:
            raise CommandError(f"{target}: cannot write: {error.strerror or error}") from None
    except BaseException:
        atomic.discard(handle)
        raise


class Progress:
    """A progress bar on stderr over a file's bytes, or nothing.

    The bar is drawn by ``tqdm`` when it is installed, the input is a file, standard error is
    a terminal and ``--quiet`` was not given. Messages go through `write` so that they do not
    tear the bar.
    """

    def __init__(self, source: Input, quiet: bool, description: str) -> None:
        self._bar: Any = None
        if quiet or source.path is None or not sys.stderr.isatty():
            return
        try:
            tqdm = importlib.import_module("tqdm")
            total = os.fstat(source.stream.fileno()).st_size
        except (ImportError, OSError):
            return
        self._bar = tqdm.tqdm(
            total=total,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            desc=description,
            leave=False,
            file=sys.stderr,
            dynamic_ncols=True,
        )

    def advance(self, size: int) -> None:
        """Count ``size`` more bytes of the input as done."""
        if self._bar is not None:
            self._bar.update(size)

    def write(self, text: str, *, error: bool = True) -> None:
        """Print a line on stderr (or stdout with ``error=False``) above the bar."""
        stream = sys.stderr if error else sys.stdout
        if self._bar is not None:
            self._bar.write(text, file=stream)
        else:
            print(text, file=stream)

    def close(self) -> None:
        """Remove the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
