"""Writing a file atomically: into a temporary file beside it, renamed into place when complete.

A reader of the target, or a crash while writing, never sees half a file: the target is
either untouched or complete. `ChatHistory.save` and the command line both write this way.
The module imports nothing of the package, so that anything may use it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

__all__ = ["atomic_write", "commit", "discard", "temporary_beside"]


def temporary_beside(target: Path) -> IO[bytes]:
    """Open a new hidden temporary file in ``target``'s directory for writing bytes.

    Raises:
        OSError: the directory does not exist or cannot be written to.
    """
    return tempfile.NamedTemporaryFile(
        dir=target.parent, prefix=f".{target.name}.", suffix=".part", delete=False
    )


def commit(handle: IO[bytes], target: Path) -> None:
    """Flush ``handle`` to disk, close it and rename it to ``target``, replacing it.

    The file gets the permissions the target has, or a new file would get.

    Raises:
        OSError: the data cannot be flushed or the file cannot be renamed; call `discard`.
    """
    handle.flush()
    os.fsync(handle.fileno())
    handle.close()
    os.chmod(handle.name, _mode_for(target))
    os.replace(handle.name, target)


def discard(handle: IO[bytes]) -> None:
    """Close and remove the temporary file ``handle`` (nothing happens if it is gone)."""
    handle.close()
    with contextlib.suppress(OSError):
        os.unlink(handle.name)


@contextlib.contextmanager
def atomic_write(target: Path) -> Iterator[IO[bytes]]:
    """Give a binary stream whose bytes replace ``target`` once the block ends without error.

    On any error or interrupt in the block, or while committing, the temporary file is
    removed and the error propagates, leaving ``target`` as it was.

    Raises:
        OSError: the temporary file cannot be created, flushed or renamed.
    """
    handle = temporary_beside(target)
    try:
        yield handle
        commit(handle, target)
    except BaseException:
        discard(handle)
        raise


def _mode_for(target: Path) -> int:
    """The permissions a new file would get (or the target's own, when it exists)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
