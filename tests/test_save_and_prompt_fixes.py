"""Fixes: saving onto a symbolic link or into a missing folder, and prompt strings' tools.

- ``ChatHistory.save``, the command line's ``-o`` and `semantic_chat.atomic` write the file a
  link points to and keep the link; a missing folder is a ``FileNotFoundError`` naming the
  path given and the folder, never the temporary file.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from strategies import histories

from semantic_chat import ChatHistory, atomic
from semantic_chat.cli import main as cli_main
from semantic_chat.serialization import to_json


def _parts(directory: Path) -> list[str]:
    """The temporary files left in ``directory`` (none, after a write or a failed one)."""
    return sorted(path.name for path in directory.iterdir() if path.name.endswith(".part"))


# --- saving onto a symbolic link -----------------------------------------------------------


def test_save_onto_a_link_writes_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    real, link = tmp_path / "real.json", tmp_path / "chat.json"
    ChatHistory(system_message="old").save(real)
    link.symlink_to(real)
    ChatHistory(system_message="new").save(link)
    assert link.is_symlink()
    assert os.readlink(link) == str(real)
    assert ChatHistory.load(real)[0].content == "new"
    assert real.read_text() == to_json(ChatHistory(system_message="new")) + "\n"
    assert _parts(tmp_path) == []


def test_a_relative_link_in_another_folder_is_followed(tmp_path: Path) -> None:
    """The temporary file goes beside the real file, in its folder (one file system)."""
    (tmp_path / "data").mkdir()
    (tmp_path / "links").mkdir()
    link = tmp_path / "links" / "chat.json"
    link.symlink_to(Path("..") / "data" / "real.json")
    ChatHistory(system_message="x").save(link)
    assert link.is_symlink()
    assert ChatHistory.load(tmp_path / "data" / "real.json")[0].content == "x"
    assert _parts(tmp_path / "data") == _parts(tmp_path / "links") == []


def test_a_chain_of_links_writes_the_last_file(tmp_path: Path) -> None:
    real, middle, link = tmp_path / "real.json", tmp_path / "middle.json", tmp_path / "chat.json"
    middle.symlink_to("real.json")
    link.symlink_to("middle.json")
    ChatHistory(system_message="x").save(link)
    assert (link.is_symlink(), middle.is_symlink(), real.is_symlink()) == (True, True, False)
    assert real.read_text() == to_json(ChatHistory(system_message="x")) + "\n"


def test_a_dangling_link_creates_the_file_it_names(tmp_path: Path) -> None:
    link = tmp_path / "chat.json"
    link.symlink_to("made.json")
    ChatHistory(system_message="x").save(link)
    assert link.is_symlink()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["chat.json", "made.json"]
    assert ChatHistory.load(tmp_path / "made.json")[0].content == "x"


def test_a_dangling_link_into_a_missing_folder_names_the_link_and_folder(
    tmp_path: Path,
) -> None:
    link = tmp_path / "chat.json"
    link.symlink_to("nowhere/made.json")
    with pytest.raises(FileNotFoundError) as caught:
        ChatHistory(system_message="x").save(link)
    assert str(caught.value) == (
        f"[Errno 2] the folder {tmp_path / 'nowhere'} does not exist (the link points to "
        f"{tmp_path / 'nowhere' / 'made.json'}): '{link}'"
    )
    assert caught.value.filename == str(link)
    assert link.is_symlink()


def test_a_loop_of_links_is_an_error_naming_the_path(tmp_path: Path) -> None:
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    with pytest.raises(OSError) as caught:
        ChatHistory(system_message="x").save(tmp_path / "a.json")
    assert caught.value.errno == errno.ELOOP
    assert str(caught.value) == (
        f"[Errno 40] the symbolic links form a loop: '{tmp_path / 'a.json'}'"
    )
    assert (tmp_path / "a.json").is_symlink()
    assert (tmp_path / "b.json").is_symlink()


def test_the_file_a_link_points_to_keeps_its_permissions(tmp_path: Path) -> None:
    real, link = tmp_path / "real.json", tmp_path / "chat.json"
    real.write_text("{}")
    real.chmod(0o600)
    link.symlink_to(real)
    ChatHistory(system_message="x").save(link)
    assert real.stat().st_mode & 0o777 == 0o600


def test_a_failed_write_through_a_link_leaves_the_target_and_no_temporary_file(
    tmp_path: Path,
) -> None:
    real, link = tmp_path / "real.json", tmp_path / "chat.json"
    real.write_text("before")
    link.symlink_to(real)

    def stopped_midway() -> None:
        with atomic.atomic_write(link) as handle:
            handle.write(b"half")
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        stopped_midway()
    assert real.read_text() == "before"
    assert link.is_symlink()
    assert _parts(tmp_path) == []


def test_the_command_line_output_onto_a_link_writes_its_target(tmp_path: Path) -> None:
    source, real, link = tmp_path / "in.json", tmp_path / "real.json", tmp_path / "out.json"
    ChatHistory(system_message="hi").save(source)
    real.write_text("{}")
    link.symlink_to("real.json")
    status = cli_main(["convert", str(source), "--to", "openai-chat", "-o", str(link)])
    assert status == 0
    assert link.is_symlink()
    assert real.read_text() == '[{"role":"system","content":"hi"}]\n'
    assert _parts(tmp_path) == []


def test_atomic_real_target(tmp_path: Path) -> None:
    link = tmp_path / "l.json"
    link.symlink_to("sub/r.json")
    assert atomic.real_target(link) == tmp_path / "sub" / "r.json"
    assert atomic.real_target(tmp_path / "plain.json") == tmp_path / "plain.json"


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(history=histories())
def test_a_history_saved_through_a_link_loads_back_from_its_target(history: ChatHistory) -> None:
    with tempfile.TemporaryDirectory() as directory:
        real, link = Path(directory) / "real.json", Path(directory) / "chat.json"
        link.symlink_to("real.json")
        history.save(link)
        assert link.is_symlink()
        assert ChatHistory.load(real) == history
        assert ChatHistory.load(link) == history


# --- a missing folder ----------------------------------------------------------------------


def test_saving_into_a_missing_folder_names_the_path_and_the_folder(tmp_path: Path) -> None:
    target = tmp_path / "missing_dir" / "chat.json"
    with pytest.raises(FileNotFoundError) as caught:
        ChatHistory(system_message="x").save(target)
    assert str(caught.value) == (
        f"[Errno 2] the folder {tmp_path / 'missing_dir'} does not exist: '{target}'"
    )
    assert caught.value.filename == str(target)
    assert ".part" not in str(caught.value)
    assert isinstance(caught.value, OSError)


def test_the_first_missing_folder_is_named(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "chat.json"
    with pytest.raises(FileNotFoundError) as caught:
        ChatHistory(system_message="x").save(str(target))
    assert caught.value.strerror == f"the folder {tmp_path / 'a'} does not exist"
    assert caught.value.filename == str(target)


def test_a_folder_as_the_target_names_the_path_given(tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    with pytest.raises(IsADirectoryError) as caught:
        ChatHistory(system_message="x").save(tmp_path / "adir")
    assert caught.value.filename == str(tmp_path / "adir")
    assert ".part" not in str(caught.value)
    assert _parts(tmp_path) == []


def test_the_command_line_names_the_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.json"
    ChatHistory(system_message="hi").save(source)
    target = tmp_path / "nowhere" / "out.json"
    status = cli_main(["convert", str(source), "--to", "openai-chat", "-o", str(target)])
    assert status == 1
    assert capsys.readouterr().err == (
        f"semantic-chat: {target}: cannot write: the folder {tmp_path / 'nowhere'} "
        "does not exist\n"
    )
