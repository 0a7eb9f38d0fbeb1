"""``-o`` to something that is no file to replace is written in place, never replaced.

A tester ran ``{ echo EARLIER; semantic-chat convert ok.json -o /dev/stdout; echo LATER; } >
log.txt``: the temporary file was renamed over ``log.txt`` (``/dev/stdout`` links to it), so
EARLIER was lost and LATER went to a deleted file; as root, ``-o /dev/null`` made ``/dev/null``
a plain file. A path naming an open descriptor is now written through that descriptor, and a
device, pipe or socket is opened and written (a FIFO stands in for a device here).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

from semantic_chat import ChatHistory, atomic
from semantic_chat.serialization import to_json

CONVERTED = b'{"messages":[{"role":"user","content":"hi"}]}\n'


def _source(tmp_path: Path) -> Path:
    source = tmp_path / "ok.json"
    source.write_text('[{"role":"user","content":"hi"}]')
    return source


def test_dev_stdout_is_written_where_the_redirected_log_stands(tmp_path):
    log = tmp_path / "log.txt"
    script = (
        f'echo EARLIER; "{sys.executable}" -m semantic_chat convert "{_source(tmp_path)}" '
        '--to anthropic -o /dev/stdout; echo "rc=$?"; echo LATER'
    )
    with log.open("wb") as out:
        subprocess.run(["sh", "-c", script], stdout=out, stderr=subprocess.STDOUT, check=True)
    assert log.read_bytes() == b"EARLIER\n" + CONVERTED + b"rc=0\nLATER\n"


def test_a_descriptor_path_into_a_pipe_is_written_through_the_pipe(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "semantic_chat", "convert", str(_source(tmp_path)),
         "--to", "anthropic", "-o", "/dev/fd/1"],
        capture_output=True, check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, CONVERTED, b"")


def test_a_fifo_is_written_into_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    done = subprocess.run(
        [sys.executable, "-m", "semantic_chat", "convert", str(_source(tmp_path)),
         "--to", "anthropic", "-o", str(fifo)],
        capture_output=True, check=False,
    )
    reader.join(timeout=30)
    assert (done.returncode, done.stderr) == (0, b"")
    assert received == [CONVERTED]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["ok.json", "out.fifo"]


def test_save_into_a_fifo_through_a_link_writes_it_in_place(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link.json"
    link.symlink_to(fifo)
    history = ChatHistory()
    history.add_user_message("hi")
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    history.save(link)
    reader.join(timeout=30)
    assert received == [(to_json(history) + "\n").encode()]
    assert link.is_symlink()
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_regular_file_and_a_missing_one_are_still_replaced_atomically(tmp_path):
    existing = tmp_path / "there.json"
    existing.write_text("old")
    assert atomic.open_direct(existing) is None
    assert atomic.open_direct(tmp_path / "not-yet.json") is None
    assert atomic.open_direct(tmp_path) is None  # a folder: the rename refuses it, named


def test_a_descriptor_that_is_not_open_is_an_error_naming_the_path():
    free = 1000
    while True:
        try:
            os.fstat(free)
        except OSError:
            break
        free += 1
    done = subprocess.run(
        [sys.executable, "-m", "semantic_chat", "convert", "-", "--to", "anthropic",
         "-o", f"/dev/fd/{free}"],
        input=b'[{"role":"user","content":"hi"}]', capture_output=True, check=False,
    )
    assert done.returncode == 1
    assert done.stderr == (
        f"semantic-chat: /dev/fd/{free}: cannot write: Bad file descriptor\n".encode())
