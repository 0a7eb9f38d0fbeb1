"""Fixes to the Semantic Kernel formats: a message's ``content`` text, the plugin / function
split between the two dialects, a ``Uri`` beside data between them, and the location of an
error on a message's ``name``.

Each test is a reproduction of the defect asserting the fixed behaviour, checked against
Semantic Kernel's own ``ChatHistory.model_validate`` where Python's JSON is concerned.
"""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantic_chat import TextContent
from semantic_chat.errors import FormatError
from semantic_chat.formats import openai_chat, sk_dotnet, sk_python

sk = pytest.importorskip("semantic_kernel.contents")

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

QUESTION = "What is the weather in Paris?"


def _caught(write: Any) -> tuple[Any, list[str]]:
    """What ``write()`` returns, and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = write()
    return written, [str(note.message) for note in caught]


def _sk_restores(payload: dict[str, Any]) -> dict[str, Any]:
    """What Semantic Kernel reads ``payload`` as, serialized again (it may change its input)."""
    return json.loads(sk.ChatHistory.model_validate(copy.deepcopy(payload)).serialize())  # type: ignore[no-any-return]


# 1. A message's "content" string is the text item Semantic Kernel makes of it.


def test_a_content_string_is_read_as_a_text_item_and_converts():
    payload = {"messages": [{"content_type": "message", "role": "user", "content": QUESTION}]}
    history = sk_python.from_payload(payload)
    assert list(history[0].items) == [
        TextContent(QUESTION, metadata={"sk_python": {"content": True}})
    ]
    assert openai_chat.to_payload(history) == [{"role": "user", "content": QUESTION}]
    assert sk_python.to_payload(history) == payload  # written back as it was read
    restored = sk.ChatHistory.restore_chat_history(json.dumps(payload))
    assert [(str(m.role.value), m.content) for m in restored.messages] == [("user", QUESTION)]


@pytest.mark.parametrize("message", [
    # with items: Semantic Kernel appends the content's text after them
    {"content_type": "message", "role": "user", "content": "b",
     "items": [{"content_type": "text", "text": "a"}]},
    # the item takes the message's model id, metadata and encoding
    {"ai_model_id": "m", "metadata": {"k": 1, "sk_python": 2}, "content_type": "message",
     "role": "assistant", "content": "hi", "encoding": "utf-8"},
    {"metadata": {"usage": {"prompt_tokens": 1, "completion_tokens": 2}},
     "content_type": "message", "role": "assistant", "content": "hi"},
    # empty or null: no item, and the key is written back
    {"content_type": "message", "role": "user", "content": "", "items": []},
    {"content_type": "message", "role": "user", "content": None},
    {"content_type": "message", "role": "user"},  # no items at all: none written
])
def test_a_content_string_reads_as_semantic_kernel_reads_it_and_writes_back(message):
    payload = {"messages": [message]}
    assert sk_python.to_payload(sk_python.from_payload(payload)) == payload
    # Read from what Semantic Kernel restores, we write what it serializes.
    ours = sk_python.from_payload(sk.ChatHistory.model_validate(copy.deepcopy(payload)))
    assert sk_python.to_payload(ours) == _sk_restores(payload)
    # And ours reads the same items as Semantic Kernel's from the content itself.
    texts = [item.text for item in sk_python.from_payload(payload)[0].items]
    assert texts == [item["text"] for item in _sk_restores(payload)["messages"][0]["items"]]


def test_a_content_item_that_was_changed_is_written_as_an_item():
    payload = {"messages": [{"content_type": "message", "role": "user", "content": "hi"}]}
    history = sk_python.from_payload(payload)
    history[0].items[0].metadata["page"] = 2  # no longer the message's metadata
    assert sk_python.to_payload(history) == {"messages": [{
        "content_type": "message", "role": "user", "items": [
            {"metadata": {"page": 2}, "content_type": "text", "text": "hi"}],
    }]}


def test_a_content_that_is_no_string_is_refused_at_its_location():
    payload = {"messages": [{"content_type": "message", "role": "user", "content": 5}]}
    with pytest.raises(FormatError) as raised:
        sk_python.from_payload(payload)
    assert str(raised.value) == "messages[0].content: expected a str, got int"


# 2. The plugin / function split crosses between the dialects as it was.


def test_a_python_function_name_with_a_dash_and_no_plugin_stays_unsplit_in_dotnet():
    history = sk.ChatHistory()
    history.add_message(sk.ChatMessageContent(role=sk.AuthorRole.ASSISTANT, items=[
        sk.FunctionCallContent(id="c1", function_name="get-forecast", arguments={})]))
    python = json.loads(history.serialize())
    dotnet = sk_dotnet.to_payload(sk_python.from_payload(python))
    assert dotnet[0]["Items"] == [{"$type": "FunctionCallContent", "Id": "c1",
                                   "FunctionName": "get-forecast", "Arguments": {}}]
    back = sk_python.to_payload(sk_dotnet.from_payload(json.loads(json.dumps(dotnet))))
    assert back == python


def test_a_dotnet_split_reaches_python_as_it_was():
    dotnet = [{"Role": {"Label": "assistant"}, "Items": [
        {"$type": "FunctionCallContent", "Id": "c1", "PluginName": "my-plugin",
         "FunctionName": "get", "Arguments": {}},
        {"$type": "FunctionCallContent", "Id": "c2", "FunctionName": "time-now",
         "Arguments": {}},
    ]}, {"Role": {"Label": "tool"}, "Items": [
        {"$type": "FunctionResultContent", "CallId": "c1", "PluginName": "my-plugin",
         "FunctionName": "get", "Result": "sunny"},
        {"$type": "FunctionResultContent", "CallId": "c2", "FunctionName": "time-now",
         "Result": "noon"},
    ]}]
    python = sk_python.to_payload(sk_dotnet.from_payload(dotnet))
    names = [{key: item.get(key) for key in ("name", "plugin_name", "function_name")}
             for message in python["messages"] for item in message["items"]]
    assert names == [
        {"name": "my-plugin-get", "plugin_name": "my-plugin", "function_name": "get"},
        {"name": None, "plugin_name": None, "function_name": "time-now"},
    ] * 2
    restored = sk.ChatHistory.model_validate(copy.deepcopy(python))
    assert [(item.plugin_name, item.function_name) for message in restored.messages
            for item in message.items] == [("my-plugin", "get"), (None, "time-now")] * 2
    assert sk_dotnet.to_payload(sk_python.from_payload(python)) == dotnet


_PART = st.text(alphabet="ab-", min_size=1, max_size=5).filter(
    lambda part: not part.startswith("-") and not part.endswith("-")
)


@st.composite
def _named_history(draw: st.DrawFn) -> dict[str, Any]:
    """A Python history, serialized by Semantic Kernel, of calls and results whose function
    names (or plugin names) hold ``-``; arguments a dict, as .NET holds them."""
    calls, results = [], []
    for number in range(draw(st.integers(1, 3))):
        plugin = draw(st.none() | _PART)
        function = draw(_PART if plugin else _PART.filter(lambda part: "-" in part))
        calls.append(sk.FunctionCallContent(
            id=f"c{number}", function_name=function, plugin_name=plugin, arguments={}))
        results.append(sk.FunctionResultContent(
            id=f"c{number}", function_name=function, plugin_name=plugin, result="ok"))
    history = sk.ChatHistory()
    history.add_message(sk.ChatMessageContent(role=sk.AuthorRole.ASSISTANT, items=calls))
    history.add_message(sk.ChatMessageContent(role=sk.AuthorRole.TOOL, items=results))
    return json.loads(history.serialize())  # type: ignore[no-any-return]


@settings(max_examples=60, deadline=None)
@given(_named_history())
def test_names_with_a_dash_convert_python_to_dotnet_and_back_exactly(python):
    dotnet = json.loads(json.dumps(sk_dotnet.to_payload(sk_python.from_payload(python))))
    assert sk_python.to_payload(sk_dotnet.from_payload(dotnet)) == python
    items = [item for message in dotnet for item in message["Items"]]
    splits = [(item.get("PluginName"), item["FunctionName"]) for item in items]
    assert splits == [(item.get("plugin_name"), item["function_name"])
                      for message in python["messages"] for item in message["items"]]


# 3. A Uri beside data crosses between the dialects, both ways.

_URI = "https://example.com/cat.png"
_DOTNET_BOTH = [{"Role": {"Label": "user"}, "Items": [
    {"$type": "ImageContent", "Uri": _URI, "MimeType": "image/png", "Data": "iVBORw0KGgo="}]}]
_PYTHON_BOTH = {"messages": [{"metadata": {}, "content_type": "message", "role": "user",
                              "items": [{"metadata": {}, "content_type": "image", "uri": _URI,
                                         "data_uri": "data:image/png;base64,iVBORw0KGgo="}]}]}


def test_a_dotnet_uri_beside_data_reaches_python():
    python, notes = _caught(lambda: sk_python.to_payload(sk_dotnet.from_payload(_DOTNET_BOTH)))
    assert notes == []
    assert python == _PYTHON_BOTH
    restored = sk.ChatHistory.model_validate(copy.deepcopy(python)).messages[0].items[0]
    assert (str(restored.uri), restored.data_uri) == (_URI, "data:image/png;base64,iVBORw0KGgo=")
    assert sk_dotnet.to_payload(sk_python.from_payload(python)) == _DOTNET_BOTH


def test_a_python_uri_beside_data_reaches_dotnet():
    dotnet, notes = _caught(lambda: sk_dotnet.to_payload(sk_python.from_payload(_PYTHON_BOTH)))
    assert notes == []
    assert dotnet == _DOTNET_BOTH
    assert sk_python.to_payload(sk_dotnet.from_payload(dotnet)) == _PYTHON_BOTH


# 4. An error on a message's name or model id is located once.


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("name", 3, "messages[0].name: expected a str, got int"),
    ("ai_model_id", [], "messages[0].ai_model_id: expected a str, got list"),
])
def test_an_error_on_a_message_field_names_the_message_once(key, value, expected):
    payload = {"messages": [{"content_type": "message", "role": "user", key: value,
                             "items": [{"content_type": "text", "text": "x"}]}]}
    with pytest.raises(FormatError) as raised:
        sk_python.from_payload(payload)
    assert str(raised.value) == expected
