"""Fixes to the Semantic Kernel formats: big integers in a result's repr, request options,
the media type of an item by URI, and a .NET annotation's metadata written for Python.

Each test is a reproduction of the defect asserting the fixed behaviour.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantic_chat import (
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    Citation,
    ImageContent,
    TextContent,
    formats,
)
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import sk_dotnet, sk_python
from semantic_chat.formats.wire import HINT_KEYS
from semantic_chat.options import ChatOptions

sk = pytest.importorskip("semantic_kernel.contents")

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")


def _result_payload(result: str) -> dict[str, Any]:
    return {"messages": [{"content_type": "message", "role": "tool", "metadata": {}, "items": [
        {"content_type": "function_result", "metadata": {}, "id": "c1", "name": "f",
         "function_name": "f", "result": result},
    ]}]}


def _caught(write: Any) -> tuple[Any, list[str]]:
    """What ``write()`` returns, and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = write()
    return written, [str(note.message) for note in caught]


# 1. A repr holding an integer beyond 64 bits stays the string SK wrote.


@pytest.mark.parametrize("text", [
    "{'order_id': 18446744073709551616}",     # 2**64: one past what JSON readers take
    "[-9223372036854775809]",                 # -2**63 - 1
    "{'a': [1, {'b': 100000000000000000000000}]}",
    "{'\\ud800': 1}",                         # a lone surrogate key: no UTF-8 writes it
    "['\\udfff']",
])
def test_a_repr_our_json_cannot_hold_stays_the_string(text):
    read = sk_python.from_payload(_result_payload(text))
    result = read[0].items[0]
    assert result.result == text
    assert result.metadata == {"sk_python": {"names": {"name": "f", "function_name": "f"}}}
    assert sk_python.to_payload(read) == _result_payload(text)


def test_a_repr_at_the_64_bit_limits_is_still_read_as_the_value():
    text = "{'low': -9223372036854775808, 'high': 18446744073709551615}"
    result = sk_python.from_payload(_result_payload(text))[0].items[0]
    assert result.result == {"low": -(2**63), "high": 2**64 - 1}
    assert result.metadata["sk_python"]["result"] == "repr"


def test_a_big_integer_repr_converts_to_every_format():
    payload = _result_payload("{'order_id': 18446744073709551616}")
    chat = formats.convert(payload, "sk-python", target="openai-chat")
    assert chat[0]["content"] == "{'order_id': 18446744073709551616}"


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(max_size=4), st.integers(), max_size=4))
def test_property_any_int_dict_repr_reads_and_writes_back_exactly(value):
    text = repr(value)
    read = sk_python.from_payload(_result_payload(text))
    assert sk_python.to_payload(read) == _result_payload(text)
    result = read[0].items[0].result
    fits = all(-(2**63) <= number < 2**64 for number in value.values())
    assert result == (value if fits else text)


# 2. Request options: SK's JSON holds messages only, each option is reported.

REQUEST = {
    "model": "gpt-4o",
    "temperature": 0.2,
    "tools": [{"type": "function", "function": {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    }}],
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
}


@pytest.mark.parametrize(("target", "name"), [
    ("sk-python", "Semantic Kernel (Python)"),
    ("sk-dotnet", ".NET Semantic Kernel"),
])
def test_a_request_body_s_options_are_reported_as_field_losses(target, name):
    written, notes = _caught(lambda: formats.convert(REQUEST, target=target))
    assert notes == [
        f"options.model: dropped: {name} cannot carry the option 'model'",
        f"options.tools: dropped: {name} cannot carry the option 'tools'",
        f"options.temperature: dropped: {name} cannot carry the option 'temperature'",
    ]
    back = formats.convert(written, target, target="openai-chat")
    assert back == [{"role": "user", "content": "Weather in Paris?"}]


@pytest.mark.parametrize("writer", [sk_python.to_payload, sk_dotnet.to_payload])
def test_options_are_refused_with_error_and_silent_with_drop(writer):
    history = formats.get("openai-chat").from_payload(REQUEST)
    with pytest.raises(UnsupportedContentError) as raised:
        writer(history, on_unsupported="error")
    assert str(raised.value).startswith("options.model: ")
    _, notes = _caught(lambda: writer(history, on_unsupported="drop"))
    assert notes == []


def test_extra_and_metadata_options_are_named_by_key_and_hints_are_not():
    history = ChatHistory([ChatMessageContent("user", "hi")])
    history.options = ChatOptions(
        seed=7, extra={"store": True}, metadata={"user": "ada", "openai_chat": {"x": 1}}
    )
    _, notes = _caught(lambda: sk_python.to_payload(history))
    assert notes == [
        "options.seed: dropped: Semantic Kernel (Python) cannot carry the option 'seed'",
        'options.extra["store"]: dropped: Semantic Kernel (Python) cannot carry the option '
        "'store'",
        'options.metadata["user"]: dropped: Semantic Kernel (Python) cannot carry metadata',
    ]


def test_a_history_without_options_is_written_without_a_word():
    history = ChatHistory([ChatMessageContent("user", "hi")])
    written, notes = _caught(lambda: sk_dotnet.to_payload(history, on_unsupported="error"))
    assert notes == []
    assert written == [{"Role": {"Label": "user"}, "Items": [
        {"$type": "TextContent", "Text": "hi"}]}]


def test_the_cli_warns_about_each_option(tmp_path):
    source = tmp_path / "req.json"
    source.write_text(json.dumps(REQUEST))
    done = subprocess.run(
        [sys.executable, "-m", "semantic_chat", "convert", str(source), "--to", "sk-python"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["messages"][0]["items"][0]["text"] == "Weather in Paris?"
    assert done.stderr.splitlines() == [
        "semantic-chat: warning: options.model: dropped: Semantic Kernel (Python) cannot "
        "carry the option 'model'",
        "semantic-chat: warning: options.tools: dropped: Semantic Kernel (Python) cannot "
        "carry the option 'tools'",
        "semantic-chat: warning: options.temperature: dropped: Semantic Kernel (Python) "
        "cannot carry the option 'temperature'",
    ]


# 3. The media type of an item by URI: SK restores it as text/plain, so it is reported.


def test_sk_itself_restores_an_item_by_uri_without_its_media_type():
    payload = {"messages": [{"content_type": "message", "role": "user", "items": [
        {"content_type": "binary", "uri": "gs://b/doc.pdf", "data_uri": "",
         "mime_type": "application/pdf"}]}]}
    restored = sk.ChatHistory.restore_chat_history(json.dumps(payload))
    assert restored.messages[0].items[0].mime_type == "text/plain"


def test_the_media_type_of_an_item_by_uri_is_reported():
    gemini = {"contents": [{"role": "user", "parts": [
        {"file_data": {"file_uri": "gs://b/x.jpg", "mime_type": "image/jpeg"}},
        {"file_data": {"file_uri": "gs://b/doc.pdf", "mime_type": "application/pdf"}},
        {"file_data": {"file_uri": "gs://b/a.mp3"}},
    ]}]}
    written, notes = _caught(lambda: formats.convert(gemini, target="sk-python"))
    assert notes == [
        f"messages[0].items[{index}].mime_type: dropped: Semantic Kernel (Python) cannot "
        "carry the media type of an item by URI"
        for index in (0, 1)
    ]
    assert written["messages"][0]["items"][1] == {
        "metadata": {}, "content_type": "binary", "uri": "gs://b/doc.pdf", "data_uri": "",
    }


def test_the_media_type_of_an_item_by_uri_is_refused_with_error():
    history = [ChatMessageContent("user", items=[
        TextContent("see"), BinaryContent(uri="gs://b/doc.pdf", mime_type="application/pdf")])]
    with pytest.raises(UnsupportedContentError) as raised:
        sk_python.to_payload(history, on_unsupported="error")
    assert str(raised.value).startswith("messages[0].items[1].mime_type: ")


def test_an_item_by_uri_without_a_media_type_is_written_without_a_word():
    history = [ChatMessageContent("user", items=[ImageContent(uri="https://a.b/c.png")])]
    written, notes = _caught(lambda: sk_python.to_payload(history, on_unsupported="error"))
    assert notes == []
    assert written["messages"][0]["items"] == [
        {"metadata": {}, "content_type": "image", "uri": "https://a.b/c.png", "data_uri": ""}]


# 4. A citation's own metadata is written into the Python annotation's metadata.


def test_a_dotnet_annotation_s_metadata_is_written_for_python():
    dotnet = [{"Role": {"Label": "assistant"}, "Items": [
        {"$type": "TextContent", "Text": "hello"},
        {"$type": "AnnotationContent", "Kind": {"Label": "urlcitation"}, "Label": "hello",
         "ReferenceId": "https://x", "StartIndex": 0, "EndIndex": 5,
         "Metadata": {"source": "web"}},
    ]}]
    written, notes = _caught(lambda: formats.convert(dotnet, target="sk-python"))
    assert notes == []
    annotation = written["messages"][0]["items"][1]
    assert annotation == {
        "metadata": {"source": "web"}, "content_type": "annotation", "quote": "hello",
        "start_index": 0, "end_index": 5, "url": "https://x",
    }
    restored = sk.ChatHistory.restore_chat_history(json.dumps(written))
    assert restored.messages[0].items[1].metadata == {"source": "web"}
    assert sk_python.from_payload(written)[0].items[0].citations[0].metadata == {
        "sk_python": {"metadata": {"source": "web"}}}


def test_metadata_set_on_a_read_annotation_joins_what_it_had():
    payload = {"messages": [{"content_type": "message", "role": "assistant", "items": [
        {"content_type": "text", "text": "hello"},
        {"content_type": "annotation", "metadata": {"source": "web", "n": 1}, "url": "https://x"},
    ]}]}
    history = sk_python.from_payload(payload)
    citation = history[0].items[0].citations[0]
    citation.metadata["n"] = 2
    citation.metadata["by"] = "ada"
    written, notes = _caught(lambda: sk_python.to_payload(history, on_unsupported="error"))
    assert notes == []
    assert written["messages"][0]["items"][1]["metadata"] == {"source": "web", "n": 2, "by": "ada"}


def test_annotation_metadata_that_is_not_json_is_refused_where_it_is():
    history = [ChatMessageContent("assistant", items=[
        TextContent("hi", citations=[Citation(url="https://x", metadata={"k": "v"})])])]
    history[0].items[0].citations[0].metadata["k"] = {1, 2}  # type: ignore[index]
    with pytest.raises(FormatError) as raised:
        sk_python.to_payload(history)
    assert str(raised.value) == (
        'messages[0].items[0].citations[0].metadata["k"]: set is not a JSON value'
    )


@settings(max_examples=50, deadline=None)
@given(st.dictionaries(
    st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=6).filter(
        lambda key: key not in HINT_KEYS),
    st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), st.text(max_size=5)),
    max_size=4,
))
def test_property_citation_metadata_goes_through_semantic_kernel_python(metadata):
    history = [ChatMessageContent("assistant", items=[
        TextContent("hello", citations=[Citation(cited_text="hello", url="https://x",
                                                 metadata=metadata)])])]
    written, notes = _caught(lambda: sk_python.to_payload(history, on_unsupported="error"))
    assert notes == []
    restored = sk.ChatHistory.restore_chat_history(json.dumps(written))
    assert json.loads(restored.serialize()) == written
    read = sk_python.from_payload(written)[0].items[0].citations[0]
    expected = {"sk_python": {"metadata": metadata}} if metadata else {}
    assert read.metadata == expected
