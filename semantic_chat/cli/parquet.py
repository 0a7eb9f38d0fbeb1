"""``semantic-chat convert --to parquet``: our JSON written as a Parquet file.

The conversations are converted to ``semantic-chat`` JSON as for any target, then put in rows
of `semantic_chat.batch.arrow_schema` (a ``messages`` list of structs, the items as JSON
text) and written a row group at a time, so memory stays flat however long the input is. The
file is written atomically like every output of the command, and only when pyarrow is
installed (the ``parquet`` extra); this module is imported only for ``--to parquet``.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .. import jsoncodec
from ..batch import arrow_schema, to_arrow_table
from .files import CommandError, atomic_output

__all__ = ["PARQUET", "ROW_GROUP", "ParquetLines", "parquet_output"]

PARQUET = "parquet"
"""The ``--to`` value that writes a Parquet file of our JSON."""

ROW_GROUP = 4096
"""Conversations per Parquet row group: what is held in memory before it is written."""


class _Unclosed:
    """The output file as pyarrow sees it: closing it only flushes.

    pyarrow closes the stream it wrote when the writer closes; the atomic output must stay
    open until it is flushed, synced and renamed into place. Once `abandon` is called (the
    output is being discarded) writes go nowhere, so the writer can be closed without
    writing into a removed file.
    """

    def __init__(self, handle: IO[bytes]) -> None:
        self._handle = handle
        self._abandoned = False
        self.closed = False

    def abandon(self) -> None:
        """Drop every write from now on."""
        self._abandoned = True

    def write(self, data: bytes) -> int:
        if self._abandoned:
            return len(data)
        return self._handle.write(data)

    def flush(self) -> None:
        self._handle.flush()

    def tell(self) -> int:
        return self._handle.tell()

    def close(self) -> None:
        self._handle.flush()
        self.closed = True


class ParquetLines:
    """A binary sink that takes lines of ``semantic-chat`` JSON and writes Parquet rows.

    It stands where the command writes JSONL lines: each `write` is one or more lines, and
    `close` writes the last row group and the file's footer.
    """

    def __init__(self, handle: IO[bytes], parquet: Any) -> None:
        self._stream = _Unclosed(handle)
        self._writer = parquet.ParquetWriter(self._stream, arrow_schema())
        self._rows: list[Any] = []
        self.count = 0

    def write(self, data: bytes) -> int:
        """Take the lines in ``data`` (each one document); write a row group when full."""
        for line in data.splitlines():
            if line.strip():
                self._rows.append(jsoncodec.loads(line))
        if len(self._rows) >= ROW_GROUP:
            self._flush()
        return len(data)

    def close(self) -> None:
        """Write what is left and the footer."""
        self._flush()
        self._writer.close()

    def abandon(self) -> None:
        """Close the writer without writing anything more: the output is being discarded.

        Called after `close` failed too (its last row group refused), the writer is closed
        here all the same, so that it is never left for the garbage collector to close into
        a removed file.
        """
        self._stream.abandon()
        self._rows = []
        self._writer.close()

    def _flush(self) -> None:
        if self._rows:
            self._writer.write_table(to_arrow_table(self._rows))
            self.count += len(self._rows)
            self._rows = []


@contextlib.contextmanager
def parquet_output(target: Path | None) -> Iterator[ParquetLines]:
    """A `ParquetLines` that ends up at ``target``, renamed into place only when complete.

    Raises:
        CommandError: no ``-o`` file was given (status 2), or pyarrow is not installed.
    """
    if target is None:
        raise CommandError("--to parquet writes a file: pass -o FILE.parquet", 2)
    try:
        parquet = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise CommandError(
            "--to parquet needs pyarrow: pip install 'semantic_chat[parquet]'"
        ) from None
    with atomic_output(target) as handle, parquet_lines(handle, parquet) as lines:
        yield lines


@contextlib.contextmanager
def parquet_lines(handle: Any, parquet: Any) -> Iterator[ParquetLines]:
    """`ParquetLines` into ``handle``, closed at the end or abandoned on an error.

    Closed inside, a last row group that fails is abandoned like the rest; abandoned, the
    writer is not left for the garbage collector to close into a removed temporary file
    (``Exception ignored in: ParquetWriter.__del__``).
    """
    lines = ParquetLines(handle, parquet)
    try:
        yield lines
        lines.close()
    except BaseException:
        lines.abandon()
        raise
