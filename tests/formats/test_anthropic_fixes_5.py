"""Anthropic Messages writer: unknown items it did not produce, and documents by URL.

An `UnknownContent` is written back as an Anthropic block only when it is one: a type of
Anthropic's API this code keeps whole (``server_tool_use``, ``compaction`` ...), or a newer
type the reader marked (``metadata["anthropic"]["block"]``). Any other (a plugin's item read
without its plugin, another format's) is refused at its place, as the other writers refuse
it. A file by URL without a media type is checked by the type its URL's name says.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from format_helpers import validate_anthropic_payload
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    TextContent,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import anthropic, openai_responses
from semantic_chat.formats.anthropic import writing
from semantic_chat.formats.anthropic.shared import KEPT_BLOCK_TYPES
from semantic_chat.formats.wire import ConversionWarning
from semantic_chat.serialization import from_json, to_json

# A history saved with a plugin's item, read where the plugin is not imported.
PLUGIN_FILE = (
    '{"version":1,"messages":[{"role":"user","items":[{"type":"text","text":"hi"},'
    '{"type":"widget","name":"w","count":3}]}]}'
)
WIDGET_REFUSED = (
    "Anthropic Messages cannot carry unknown content of type 'widget' (no Anthropic block)"
)
NEWER = {"anthropic": {"block": True}}  # the reader's mark on a block type newer than it
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _both(messages: list[ChatMessageContent], on_unsupported: Any = None) -> dict[str, Any]:
    """The payload, after checking the quick writer and the general one agree on it."""
    quick = writing._to_payload(messages, on_unsupported, True, True)
    assert quick == writing._to_payload(messages, on_unsupported, True, False)
    validate_anthropic_payload(quick)
    return quick


def _user(*items: Any) -> ChatMessageContent:
    return ChatMessageContent("user", items=list(items))


# --- defect 1: an unknown item Anthropic did not produce --------------------------------------


def test_a_plugin_item_read_without_its_plugin_is_refused_at_its_place():
    history = from_json(PLUGIN_FILE, ChatHistory)
    assert history[0].items[1] == UnknownContent("widget", {"name": "w", "count": 3})
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic.to_payload(history)
    assert raised.value.path == "messages[0].items[1]"
    assert str(raised.value) == (
        f"messages[0].items[1]: {WIDGET_REFUSED} (pass on_unsupported='warn' to leave it out)"
    )


def test_a_plugin_item_read_without_its_plugin_is_left_out_with_a_warning_when_asked():
    history = from_json(PLUGIN_FILE, ChatHistory)
    with pytest.warns(ConversionWarning) as caught:
        payload = anthropic.to_payload(history, on_unsupported="warn")
    assert [str(w.message) for w in caught] == [f"messages[0].items[1]: dropped: {WIDGET_REFUSED}"]
    assert payload == {"messages": [{"role": "user", "content": "hi"}]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _both(list(history), "drop") == payload


def test_an_unknown_item_of_another_origin_is_refused_in_a_tool_result_and_an_assistant_turn():
    widget = UnknownContent("widget", {"n": 1})
    call = FunctionCallContent(id="c1", name="f", arguments="{}")
    history = [
        _user(TextContent("a")),
        ChatMessageContent("assistant", items=[call, widget]),
        ChatMessageContent("tool", items=[FunctionResultContent("c1", [TextContent("r"), widget])]),
    ]
    with pytest.warns(ConversionWarning) as caught:
        payload = anthropic.to_payload(history, on_unsupported="warn")
    assert [str(w.message) for w in caught] == [
        "messages[1].items[1]: dropped: Anthropic Messages cannot carry unknown content of "
        "type 'widget' (no Anthropic block)",
        "messages[2].items[0].result[1]: dropped: Anthropic Messages cannot carry unknown "
        "content of type 'widget' (no Anthropic block)",
    ]
    assert payload == {"messages": [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "f",
                                           "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1",
                                      "content": [{"type": "text", "text": "r"}]}]},
    ]}


def test_a_responses_compaction_item_is_no_anthropic_compaction_block():
    (message,) = openai_responses.from_payload(
        [{"type": "compaction", "id": "cmp_1", "encrypted_content": "x"}])
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic.to_payload([_user(TextContent("a")), message])
    assert str(raised.value) == (
        "messages[1].items[0]: Anthropic Messages cannot carry unknown content of type "
        "'compaction' (no Anthropic block) (pass on_unsupported='warn' to leave it out)"
    )


def test_a_mark_that_is_not_true_does_not_make_an_item_anthropic_s():
    item = UnknownContent("widget", {}, metadata={"anthropic": {"block": "yes"}})
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic.to_payload([_user(TextContent("a"), item)])
    assert raised.value.path == "messages[0].items[1]"


def test_anthropic_blocks_read_whole_are_written_back_exactly():
    content = [
        {"type": "text", "text": "Searching."},
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
         "input": {"query": "q"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
        {"type": "compaction", "content": "Summary.", "encrypted_content": "Eq"},
        {"type": "block_of_2030", "note": "newer than this code"},
    ]
    history = anthropic.from_payload([{"role": "assistant", "content": content}])
    assert history[0].items[1:] == [
        UnknownContent("server_tool_use", {"id": "srvtoolu_1", "name": "web_search",
                                           "input": {"query": "q"}}),
        UnknownContent("web_search_tool_result", {"tool_use_id": "srvtoolu_1",
                                                  "content": []}),
        UnknownContent("compaction", {"content": "Summary.", "encrypted_content": "Eq"}),
        UnknownContent("block_of_2030", {"note": "newer than this code"}, metadata=NEWER),
    ]
    expected = {"messages": [{"role": "assistant", "content": content}]}
    assert anthropic.to_payload(history, on_unsupported="error") == expected
    saved = from_json(to_json(history), ChatHistory)  # the mark is kept in the file
    assert anthropic.to_payload(saved, on_unsupported="error") == expected


def test_an_anthropic_block_type_built_by_hand_is_written_as_before():
    item = UnknownContent("container_upload", {"file_id": "file_1"})
    assert _both([_user(TextContent("a"), item)]) == {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "a"}, {"type": "container_upload", "file_id": "file_1"}]}]}


def test_a_marked_newer_block_holding_a_value_that_is_not_json_is_located():
    item = UnknownContent("block_of_2030", {"at": []}, metadata=NEWER)
    item.fields["at"].append({1, 2})
    with pytest.raises(FormatError) as raised:
        anthropic.to_payload([_user(TextContent("a"), item)])
    assert raised.value.path == 'messages[0].items[1].fields["at"][0]'


def test_the_cli_validate_and_convert_refuse_the_plugin_item(tmp_path: Path):
    (tmp_path / "h.json").write_text(PLUGIN_FILE)
    command = str(Path(sys.executable).with_name("semantic-chat"))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([command, *args], cwd=tmp_path, capture_output=True, text=True,
                              timeout=120, check=False)

    checked = run("validate", "h.json", "--to", "anthropic")
    assert (checked.returncode, checked.stdout.splitlines()) == (
        1, [f"messages[0].items[1]: {WIDGET_REFUSED}", "h.json: 1 error"])
    converted = run("convert", "h.json", "--to", "anthropic")
    assert (converted.returncode, converted.stdout) == (1, "")
    assert converted.stderr.splitlines() == [
        f"semantic-chat: messages[0].items[1]: {WIDGET_REFUSED} "
        "(pass --drop-unsupported to leave it out)"]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=6,
)
_FIELDS = st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True).filter(
    lambda key: key != "type"), _JSON, max_size=4)
_NEWER_TYPES = st.from_regex(r"x_[a-z_]{1,12}", fullmatch=True)
_KEPT_TYPES = st.sampled_from(sorted(KEPT_BLOCK_TYPES - {"document"}))  # document: modelled


@given(kind=_KEPT_TYPES | _NEWER_TYPES, fields=_FIELDS,
       role=st.sampled_from(["user", "assistant"]))
def test_anthropic_s_own_unknown_blocks_round_trip(kind, fields, role):
    content = [{"type": "text", "text": "a"}, {"type": kind, **fields}]
    history = anthropic.from_payload([{"role": role, "content": content}])
    (item,) = history[0].items[1:]
    assert item == UnknownContent(kind, fields, metadata=None if kind in KEPT_BLOCK_TYPES
                                  else NEWER)
    expected = {"messages": [{"role": role, "content": content}]}
    assert anthropic.to_payload(history, on_unsupported="error") == expected
    assert anthropic.to_payload(from_json(to_json(history), ChatHistory)) == expected


@given(kind=_NEWER_TYPES, fields=_FIELDS, role=st.sampled_from(["user", "assistant"]))
def test_unknown_items_anthropic_did_not_read_are_refused(kind, fields, role):
    history = [ChatMessageContent(role, items=[TextContent("a"), UnknownContent(kind, fields)])]
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic.to_payload(history)
    assert str(raised.value) == (
        f"messages[0].items[1]: Anthropic Messages cannot carry unknown content of type "
        f"{kind!r} (no Anthropic block) (pass on_unsupported='warn' to leave it out)"
    )
    assert anthropic.to_payload(history, on_unsupported="drop") == {
        "messages": [{"role": role, "content": "a"}]}


# --- defect 2: a file by URL without a media type ---------------------------------------------


@pytest.mark.parametrize(("uri", "kind"), [
    ("https://x.com/a.docx", DOCX),
    ("https://x.com/a.png", "image/png"),
    ("HTTP://x.com/dir/notes.TXT?download=1#top", "text/plain"),
])
def test_a_file_url_whose_name_says_a_type_other_than_pdf_is_refused(uri, kind):
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic.to_payload([_user(TextContent("x"), FileContent(uri=uri))])
    assert raised.value.path == "messages[0].items[1]"
    assert str(raised.value) == (
        f"messages[0].items[1]: Anthropic Messages cannot carry file content of type {kind} "
        "by URL (PDF only; the type guessed from the URL's name) "
        "(pass on_unsupported='warn' to leave it out)"
    )


def test_a_file_url_of_another_type_is_left_out_with_a_warning_in_a_tool_result():
    result = FunctionResultContent("c1", [FileContent(uri="https://x.com/a.docx")])
    history = [
        _user(TextContent("a")),
        ChatMessageContent("assistant", items=[FunctionCallContent(id="c1", name="f",
                                                                   arguments="{}")]),
        ChatMessageContent("tool", items=[result]),
    ]
    with pytest.warns(ConversionWarning) as caught:
        payload = anthropic.to_payload(history, on_unsupported="warn")
    assert [str(w.message) for w in caught] == [
        f"messages[2].items[0].result[0]: dropped: Anthropic Messages cannot carry file "
        f"content of type {DOCX} by URL (PDF only; the type guessed from the URL's name)"]
    assert payload["messages"][2] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "c1", "content": []}]}


@pytest.mark.parametrize("uri", [
    "https://x.com/a.pdf",
    "https://x.com/a.PDF?v=1.png",  # the query is no part of the name
    "https://arxiv.org/pdf/2401.12345",  # a name of no known type
    "https://x.com",  # no name at all: the host is none
    "https://x.com/report",
])
def test_a_file_url_named_as_a_pdf_or_of_no_known_type_is_a_document(uri):
    assert _both([_user(TextContent("x"), FileContent(uri=uri))]) == {"messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "x"},
            {"type": "document", "source": {"type": "url", "url": uri}},
        ]},
    ]}


def test_an_explicit_media_type_wins_over_the_name():
    item = FileContent(uri="https://x.com/a.docx", mime_type="application/pdf")
    assert _both([_user(TextContent("x"), item)])["messages"][0]["content"][1] == {
        "type": "document", "source": {"type": "url", "url": "https://x.com/a.docx"}}
    item = FileContent(uri="https://x.com/a.pdf", mime_type=DOCX)
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic.to_payload([_user(TextContent("x"), item)])
    assert str(raised.value) == (
        f"messages[0].items[1]: Anthropic Messages cannot carry file content of type {DOCX} "
        "by URL (PDF only) (pass on_unsupported='warn' to leave it out)"
    )
