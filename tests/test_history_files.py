"""ChatHistory.save and ChatHistory.load: our JSON in a file, written atomically."""

import os
import re
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from strategies import histories

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    SerializationError,
    UnknownContent,
    UnknownContentTypeError,
    UnsupportedVersionError,
    atomic,
)
from semantic_chat.serialization import from_json, to_json


def _history() -> ChatHistory:
    history = ChatHistory(system_message="Be brief.")
    history.add_user_message("What is the weather in Paris?")
    history.add_assistant_message("Sunny.")
    return history


class Unregistered(ChatMessageContent):
    """A subclass attrs never saw: the writer refuses it."""


def _leftovers(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir() if path.name.endswith(".part"))


# --- save -----------------------------------------------------------------------------------


def test_save_writes_our_json_and_a_newline(tmp_path):
    target = tmp_path / "chat.json"
    _history().save(target)
    assert target.read_text(encoding="utf-8") == to_json(_history()) + "\n"
    assert _leftovers(tmp_path) == []


def test_save_indented(tmp_path):
    target = tmp_path / "chat.json"
    _history().save(target, indent=2)
    assert target.read_text(encoding="utf-8") == to_json(_history(), indent=2) + "\n"


def test_save_takes_a_string_path(tmp_path):
    _history().save(str(tmp_path / "chat.json"))
    assert ChatHistory.load(str(tmp_path / "chat.json")) == _history()


def test_save_replaces_a_file_and_keeps_its_permissions(tmp_path):
    target = tmp_path / "chat.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    _history().save(target)
    assert target.read_text(encoding="utf-8") == to_json(_history()) + "\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_save_refused_by_the_writer_leaves_the_file_untouched(tmp_path):
    target = tmp_path / "chat.json"
    target.write_text("old", encoding="utf-8")
    history = _history()
    history.append(Unregistered("user", "x"))
    with pytest.raises(SerializationError) as excinfo:
        history.save(target)
    assert str(excinfo.value) == (
        f"messages[3]: {__name__}.Unregistered is not a registered message class: "
        "decorate it with @attrs.define and give it its own message_type"
    )
    assert target.read_text(encoding="utf-8") == "old"
    assert _leftovers(tmp_path) == []


def test_save_failing_to_commit_leaves_the_file_untouched(tmp_path, monkeypatch):
    target = tmp_path / "chat.json"
    target.write_text("old", encoding="utf-8")

    def fail(handle, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic, "commit", fail)
    with pytest.raises(OSError, match=re.escape("[Errno 28] No space left on device")):
        _history().save(target)
    assert target.read_text(encoding="utf-8") == "old"
    assert _leftovers(tmp_path) == []


def test_save_into_a_missing_directory(tmp_path):
    with pytest.raises(FileNotFoundError):
        _history().save(tmp_path / "missing" / "chat.json")
    assert list(tmp_path.iterdir()) == []


def test_save_refuses_an_indent_json_cannot_write(tmp_path):
    with pytest.raises(ValueError, match=re.escape("indent must be None or 2, got 4")):
        _history().save(tmp_path / "chat.json", indent=4)
    assert list(tmp_path.iterdir()) == []


# --- load -----------------------------------------------------------------------------------


def test_load_reads_what_save_wrote(tmp_path):
    target = tmp_path / "chat.json"
    _history().save(target)
    loaded = ChatHistory.load(target)
    assert type(loaded) is ChatHistory
    assert loaded == _history()
    assert type(loaded._messages) is list  # the reader's list, as from_json gives


def test_load_skips_a_byte_order_mark(tmp_path):
    target = tmp_path / "chat.json"
    target.write_bytes(b"\xef\xbb\xbf" + to_json(_history()).encode())
    assert ChatHistory.load(target) == _history()


def test_load_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError) as excinfo:
        ChatHistory.load(tmp_path / "missing.json")
    assert excinfo.value.filename == str(tmp_path / "missing.json")


@pytest.mark.parametrize(
    "text",
    [
        '{"version": 1, "messages": [',
        "not json",
        "",
    ],
    ids=["truncated", "not-json", "empty"],
)
def test_load_malformed_json_raises_what_from_json_raises(tmp_path, text):
    target = tmp_path / "chat.json"
    target.write_text(text, encoding="utf-8")
    with pytest.raises(SerializationError) as expected:
        from_json(text, ChatHistory)
    with pytest.raises(SerializationError) as excinfo:
        ChatHistory.load(target)
    assert str(excinfo.value) == str(expected.value)
    assert str(excinfo.value).startswith("malformed JSON: ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"version": 1, "messages": [{"role": "user", "items": '
            '[{"type": "image", "data": "@@"}]}]}',
            "messages[0].items[0].data: invalid base64 at character 0: "
            "'@' is not a base64 character",
        ),
        ('{"role": "user"}', "version: missing the format version"),
        ("[]", "expected a history object, got list"),
    ],
    ids=["bad-item", "a-message", "a-list"],
)
def test_load_a_file_that_is_not_a_history_says_where(tmp_path, text, message):
    target = tmp_path / "chat.json"
    target.write_text(text, encoding="utf-8")
    with pytest.raises(SerializationError) as excinfo:
        ChatHistory.load(target)
    assert str(excinfo.value) == message


def test_load_a_newer_version(tmp_path):
    target = tmp_path / "chat.json"
    target.write_text('{"version": 99, "messages": []}', encoding="utf-8")
    with pytest.raises(UnsupportedVersionError) as excinfo:
        ChatHistory.load(target)
    assert str(excinfo.value) == (
        "version: found version 99, this library reads version 1 and older: upgrade semantic_chat"
    )


def test_load_strict_refuses_unknown_labels(tmp_path):
    target = tmp_path / "chat.json"
    target.write_text(
        '{"version": 1, "messages": [{"role": "user", "items": [{"type": "hologram"}]}]}',
        encoding="utf-8",
    )
    assert ChatHistory.load(target)[0].items == [UnknownContent("hologram", {})]
    with pytest.raises(UnknownContentTypeError) as excinfo:
        ChatHistory.load(target, strict=True)
    assert str(excinfo.value) == (
        "messages[0].items[0]: unknown content type 'hologram': no class is registered under it"
    )


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_save_then_load_gives_the_history_back(history):
    with tempfile.TemporaryDirectory() as directory:
        target = Path(directory) / "chat.json"
        history.save(target)
        assert ChatHistory.load(target) == history
        assert os.listdir(directory) == ["chat.json"]
