"""Writing a file atomically: into a temporary file beside it, renamed into place when complete.

A reader of the target, or a crash while writing, never sees half a file: the target is
either untouched or complete. `ChatHistory.save` and the command line both write this way.
A target that is a symbolic link stays one: the file it points to is written (the temporary
file goes beside that file, so that the rename stays on one file system). A target that is no
file to replace is written in place, never replaced (`open_direct`): a device (``/dev/null``),
a pipe or socket, or a path naming an open file descriptor (``/dev/stdout``, ``/dev/fd/3``),
which is written where it stands, as a shell redirection opened it. Errors name the path the
caller gave, never the temporary file. The module imports nothing of the package, so
that anything may use it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

__all__ = ["atomic_write", "commit", "discard", "open_direct", "real_target", "temporary_beside"]


def real_target(target: Path) -> Path:
    """The file ``target`` names: itself, or what a symbolic link (or a chain of them) points to.

    A dangling link gives the path it names, the file a write creates. Only the last component
    is followed: a linked folder on the way is no matter, as the rename stays inside it.

    Raises:
        OSError: (``ELOOP``) the links form a loop; the message names ``target``.
    """
    path = target
    seen: set[Path] = set()
    while path.is_symlink():
        if path in seen:
            raise OSError(errno.ELOOP, "the symbolic links form a loop", str(target))
        seen.add(path)
        path = path.parent / path.readlink()
    return path


def temporary_beside(target: Path) -> IO[bytes]:
    """Open a new hidden temporary file beside ``target`` (beside the file a link points to).

    Raises:
        FileNotFoundError: a folder of ``target`` does not exist; the message names ``target``
            and the first missing folder (``FileNotFoundError`` is an ``OSError``).
        OSError: the folder cannot be written to; the message names ``target``.
    """
    real = real_target(target)
    try:
        return tempfile.NamedTemporaryFile(
            dir=real.parent, prefix=f".{real.name}.", suffix=".part", delete=False
        )
    except OSError as error:
        raise _located(error, target, real) from None


def commit(handle: IO[bytes], target: Path) -> None:
    """Flush ``handle`` to disk, close it and rename it to ``target``, replacing it.

    A ``target`` that is a symbolic link is kept: the file it points to is replaced. The file
    gets the permissions the replaced file has, or a new file would get.

    Raises:
        OSError: the data cannot be flushed or the file cannot be renamed (the message names
            ``target``); call `discard`.
    """
    real = real_target(target)
    try:
        handle.flush()
        os.fsync(handle.fileno())
        handle.close()
        os.chmod(handle.name, _mode_for(real))
        os.replace(handle.name, real)
    except OSError as error:
        raise _located(error, target, real) from None


def discard(handle: IO[bytes]) -> None:
    """Close and remove the temporary file ``handle`` (nothing happens if it is gone)."""
    handle.close()
    with contextlib.suppress(OSError):
        os.unlink(handle.name)


def open_direct(target: Path) -> IO[bytes] | None:
    """A stream writing ``target`` in place, when it is no file to replace; else ``None``.

    A path naming an open file descriptor (``/dev/stdout``, ``/dev/fd/3``, ``/proc/self/fd/1``,
    directly or through links) gives a duplicate of that descriptor, so the bytes go where it
    stands (after what a redirected ``>> log`` already holds, or into the pipe). A device, a
    pipe or a socket (``/dev/null``) is opened and written: renaming a file over it would put
    a plain file in its place. ``None`` for a regular file or one not there yet.

    Raises:
        OSError: the descriptor or the device cannot be opened; the message names ``target``.
    """
    descriptor = _descriptor_of(target)
    if descriptor is not None:
        try:
            return os.fdopen(os.dup(descriptor), "wb")
        except OSError as error:
            raise type(error)(error.errno, error.strerror or str(error), str(target)) from None
    try:
        found = os.stat(target)  # follows links
    except OSError:  # not there, or a loop of links: the atomic way says which
        return None
    if stat.S_ISREG(found.st_mode) or stat.S_ISDIR(found.st_mode):
        return None  # a folder: the rename refuses it, naming it
    try:
        return open(target, "wb")  # the caller closes it
    except OSError as error:
        raise type(error)(error.errno, error.strerror or str(error), str(target)) from None


def _descriptor_of(target: Path) -> int | None:
    """The file descriptor ``target`` names (``/dev/stdout``: 1), following links; or ``None``."""
    folders = {os.path.realpath(folder) for folder in ("/proc/self/fd", "/dev/fd")}
    path = target
    seen: set[Path] = set()
    while True:
        if path.name.isdigit() and os.path.realpath(path.parent) in folders:
            return int(path.name)
        if path in seen or not path.is_symlink():
            return None
        seen.add(path)
        try:
            path = path.parent / path.readlink()
        except OSError:  # unreadable: no descriptor, and the atomic way says why
            return None


@contextlib.contextmanager
def atomic_write(target: Path) -> Iterator[IO[bytes]]:
    """Give a binary stream whose bytes replace ``target`` once the block ends without error.

    On any error or interrupt in the block, or while committing, the temporary file is
    removed and the error propagates, leaving ``target`` as it was. A symbolic link is kept
    and the file it points to written.

    A target that is no file to replace (a device, a pipe, ``/dev/stdout``) is written in
    place (`open_direct`): what was written before an error stays there.

    Raises:
        FileNotFoundError: a folder of ``target`` does not exist (named in the message).
        OSError: the temporary file cannot be created, flushed or renamed; the message names
            ``target``, not the temporary file.
    """
    direct = open_direct(target)
    if direct is not None:
        with direct:
            yield direct
        return
    handle = temporary_beside(target)
    try:
        yield handle
        commit(handle, target)
    except BaseException:
        discard(handle)
        raise


def _located(error: OSError, target: Path, real: Path) -> OSError:
    """``error`` (of the same class) naming ``target`` instead of the temporary file.

    A missing folder is named: the first one of the path that does not exist.
    """
    reason = error.strerror or str(error)
    if error.errno == errno.ENOENT:
        missing = real.parent
        while not missing.parent.exists() and missing.parent != missing:
            missing = missing.parent
        reason = f"the folder {missing} does not exist"
    if real != target:
        reason += f" (the link points to {real})"
    return type(error)(error.errno, reason, str(target))


def _mode_for(target: Path) -> int:
    """The permissions a new file would get (or the target's own, when it exists)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
