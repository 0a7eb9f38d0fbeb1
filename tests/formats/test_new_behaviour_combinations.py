"""Today's new behaviours met with the rest of the library, as a tester combined them.

- an item of one of our labels with newer keys (read as ``UnknownContent("text", ...)``) is
  refused by the Gemini writer too, as by the five others (it was written as a broken part);
- an OpenAI custom tool call (free-form input) is refused under the loss policy by the
  Anthropic and Gemini writers, whose calls take JSON objects (it was a FormatError about JSON
  even with ``on_unsupported="warn"``);
- ``parse_arguments`` of arguments nested deeper than Python's stack is a located
  `FunctionArgumentsError` (it was a bare ``RecursionError``);
- the Python Semantic Kernel writer reports usage counts unknown to this version;
- an image by URL whose given type the API refuses is refused by every writer (OpenAI's and
  Anthropic's sent it; Gemini's already refused it); without a type, the URL is sent.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    ImageContent,
    UsageWithUnknownKeys,
    formats,
)
from semantic_chat.errors import FunctionArgumentsError, UnsupportedContentError
from semantic_chat.formats import gemini, openai_chat, sk_python
from semantic_chat.serialization import from_json

TITLES = {"openai-chat": "OpenAI Chat Completions", "openai-responses": "OpenAI Responses",
          "anthropic": "Anthropic Messages", "gemini": "Gemini"}


def _noted(call: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(note.message) for note in caught]


# --- an item of our label with newer keys -----------------------------------------------


NEWER = '{"version":1,"messages":[{"role":"user","items":[{"type":"text","text":"hi","lang":"en"}]}]}'


@pytest.mark.parametrize("label", ["text", "function_call"])
def test_gemini_refuses_an_item_of_our_label_with_newer_keys(label):
    history = from_json(NEWER.replace('"type":"text"', f'"type":"{label}"'), ChatHistory)
    with pytest.raises(UnsupportedContentError) as raised:
        gemini.to_payload(history)
    assert str(raised.value) == (
        f"messages[0].items[0]: Gemini cannot carry unknown content of type '{label}' (no Gemini "
        "part) (pass on_unsupported='warn' to leave it out)")


def test_validate_for_gemini_names_the_item_of_newer_keys():
    problems = formats.validate(json.loads(NEWER), "semantic-chat", target="gemini")
    assert [(problem.path, problem.severity) for problem in problems] == [
        ("messages[0].items[0]", "error")]


# --- an OpenAI custom tool call ---------------------------------------------------------


def _custom_call_history() -> ChatHistory:
    response = {"id": "c", "object": "chat.completion", "created": 1, "model": "gpt-5",
                "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                    "role": "assistant", "content": None, "tool_calls": [
                        {"id": "call_1", "type": "custom",
                         "custom": {"name": "grep", "input": "foo bar"}}]}}]}
    history = ChatHistory([ChatMessageContent("user", "find it")])
    history.append(openai_chat.from_response(response))
    return history


@pytest.mark.parametrize("name", ["anthropic", "gemini"])
def test_a_custom_tool_call_is_refused_where_calls_take_json_objects(name):
    with pytest.raises(UnsupportedContentError) as raised:
        formats.get(name).to_payload(_custom_call_history())
    assert str(raised.value) == (
        f"messages[1].items[0]: {TITLES[name]} cannot carry function_call content as an OpenAI "
        "custom tool call (free-form input, not a JSON object) (pass on_unsupported='warn' to "
        "leave it out)")


@pytest.mark.parametrize("name", ["anthropic", "gemini"])
def test_a_custom_tool_call_is_left_out_with_a_warning_when_asked(name):
    payload, notes = _noted(lambda: formats.get(name).to_payload(
        _custom_call_history(), on_unsupported="warn"))
    assert notes == [f"messages[1].items[0]: dropped: {TITLES[name]} cannot carry function_call "
                     "content as an OpenAI custom tool call (free-form input, not a JSON object)"]
    assert "foo bar" not in str(payload)


# --- deeply nested arguments --------------------------------------------------------------


@given(st.integers(2000, 6000))
def test_arguments_nested_beyond_the_stack_are_a_located_error(depth):
    call = FunctionCallContent("c1", "f", '{"a":' + "[" * depth + "]" * depth + "}")
    with pytest.raises(FunctionArgumentsError) as raised:
        call.parse_arguments()
    assert str(raised.value) == (
        "function call 'c1' (f): arguments are not valid JSON: nested too deeply to read")


# --- usage counts of a newer version --------------------------------------------------------


def test_semantic_kernel_python_reports_usage_counts_it_cannot_keep():
    usage = UsageWithUnknownKeys(prompt_tokens=3, completion_tokens=2, total_tokens=5,
                                 unknown_keys={"future_tokens": 7})
    history = ChatHistory([ChatMessageContent("assistant", "hi", usage=usage)])
    _, notes = _noted(lambda: sk_python.to_payload(history))
    assert notes == ["messages[0].usage.future_tokens: dropped: Semantic Kernel (Python) cannot "
                     "carry the token count 'future_tokens' (unknown to this version)"]


# --- an image by URL of a type the API refuses ------------------------------------------------


@pytest.mark.parametrize("name", sorted(TITLES))
def test_an_image_by_url_of_a_refused_given_type_is_refused(name):
    history = ChatHistory([ChatMessageContent("user", items=[
        ImageContent(uri="https://x.com/a.tiff", mime_type="image/tiff")])])
    with pytest.raises(UnsupportedContentError) as raised:
        formats.get(name).to_payload(history)
    assert raised.value.path == "messages[0].items[0]"
    assert "of type image/tiff" in str(raised.value)


@pytest.mark.parametrize("name", ["openai-chat", "openai-responses", "anthropic"])
@pytest.mark.parametrize("mime_type", [None, "image/png", "image/jpg"])
def test_an_image_by_url_of_an_accepted_or_no_type_is_sent(name, mime_type):
    history = ChatHistory([ChatMessageContent("user", items=[
        ImageContent(uri="https://x.com/a", mime_type=mime_type)])])
    payload, notes = _noted(lambda: formats.get(name).to_payload(history))
    assert notes == []
    assert "https://x.com/a" in str(payload)


# --- a newer Anthropic block named like one of our labels ------------------------------------


@pytest.mark.parametrize(("kind", "name"), [("file", "FileContent"), ("audio", "AudioContent")])
def test_anthropic_refuses_a_newer_block_named_like_one_of_our_items(kind, name):
    from semantic_chat.errors import FormatError
    from semantic_chat.formats import anthropic

    with pytest.raises(FormatError) as raised:
        anthropic.from_payload([{"role": "user", "content": [{"type": kind, "x": 1}]}])
    assert str(raised.value) == (
        f"messages[0].content[0].type: '{kind}' is the label of {name}: build a {name} instead")


def test_a_newer_anthropic_block_of_another_name_is_still_kept_and_written_back():
    from semantic_chat.formats import anthropic

    payload = [{"role": "user", "content": [{"type": "hologram", "x": 1}]}]
    assert anthropic.to_payload(anthropic.from_payload(payload))["messages"] == payload


# --- Gemini: results of one call turn in one content, whatever message holds them ------------


@pytest.mark.parametrize("order", ["user first", "tool first"])
def test_gemini_writes_a_user_message_of_results_beside_tool_results_as_one_content(order):
    from semantic_chat import FunctionResultContent, TextContent

    user_results = ChatMessageContent("user", items=[FunctionResultContent("c0", "18 C", name="w")])
    tool_results = ChatMessageContent("tool", items=[FunctionResultContent("c1", "21 C", name="w")])
    pair = [user_results, tool_results] if order == "user first" else [tool_results, user_results]
    history = ChatHistory([
        ChatMessageContent("user", items=[TextContent("Paris and Rome?")]),
        ChatMessageContent("assistant", items=[FunctionCallContent("c0", "w", "{}"),
                                               FunctionCallContent("c1", "w", "{}")]),
        *pair,
    ])
    contents = gemini.to_payload(history)["contents"]
    assert len(contents) == 3
    assert [part["function_response"]["id"] for part in contents[2]["parts"]] == (
        ["c0", "c1"] if order == "user first" else ["c1", "c0"])


def test_a_user_message_of_text_after_results_is_still_its_own_content():
    from semantic_chat import FunctionResultContent

    history = ChatHistory([
        ChatMessageContent("assistant", items=[FunctionCallContent("c0", "w", "{}")]),
        ChatMessageContent("tool", items=[FunctionResultContent("c0", "18 C", name="w")]),
        ChatMessageContent("user", "thanks"),
    ])
    assert [content["role"] for content in gemini.to_payload(history)["contents"]] == [
        "model", "user", "user"]
