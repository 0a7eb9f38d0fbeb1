"""Gemini: contents without ``parts`` refused, reasoning of no provider never sent as a thought.

- a content of a request's ``contents`` (or of a bare contents list) without a ``parts`` list
  says nothing: it was read as an empty user message, and what it held instead (a Chat
  message's ``content``, a stream chunk's ``candidates``) reached no other format. It is a
  `FormatError` at ``contents[i]`` naming the keys it has. A response's candidate content
  without parts (``MAX_TOKENS``, ``SAFETY``, a stream's last chunk) still reads as it did;
- `ReasoningContent` of no provider (a Semantic Kernel history's, the bundled example's) is
  left out of a Gemini payload with a located `ConversionWarning`, as the Anthropic writer
  leaves it out; Gemini's own thoughts, which its readers mark ``provider="gemini"``, are
  written back as they were read.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from google.genai import types as genai_types
from hypothesis import given, settings
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    FunctionCallContent,
    FunctionResultContent,
    ReasoningContent,
    TextContent,
)
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import ConversionWarning, gemini
from semantic_chat.message import ChatMessageContent
from semantic_chat.streaming import StreamingChatMessageContent

NO_PROVIDER = (
    "Gemini cannot carry reasoning of no named provider (only its own thoughts, provider "
    "'gemini', are sent back); it is never sent"
)


def _caught(write: Any) -> tuple[Any, list[str]]:
    """What ``write()`` returns, and the text of each `ConversionWarning` it gave."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        result = write()
    return result, [str(note.message) for note in record if note.category is ConversionWarning]


# --- a content without parts --------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param([{"role": "user", "content": "hi"}],
                     "contents[0]: missing 'parts' (a Content holds 'role' and 'parts', got "
                     "'content')", id="chat-message"),
        pytest.param([{"role": "user", "parts": [{"text": "a"}]}, {"role": "model"}],
                     "contents[1]: missing 'parts'", id="role-only"),
        pytest.param([{}], "contents[0]: missing 'parts'", id="empty-object"),
        pytest.param({"contents": [{"role": "user", "parts": [{"text": "a"}]}, {"role": "user"}],
                      "system_instruction": "Be brief."},
                     "contents[1]: missing 'parts'", id="document"),
        pytest.param({"model": "gemini-2.5-flash", "contents": [{"role": "user"}]},
                     "contents[0]: missing 'parts'", id="request"),
        pytest.param({"key": "k1", "request": {"contents": [{"role": "user", "content": "hi"}]}},
                     "request.contents[0]: missing 'parts' (a Content holds 'role' and "
                     "'parts', got 'content')", id="batch-line"),
        pytest.param(
            [{"candidates": [{"content": {"role": "model", "parts": [{"text": "The sky"}]},
                              "index": 0}],
              "modelVersion": "gemini-2.5-flash", "responseId": "s1"}],
            "this is a stream of Gemini events, not a conversation: accumulate it first (its "
            "format's from_stream, then StreamingChatMessageContent.accumulate(...).to_message())",
            id="stream-chunks"),
        pytest.param([genai_types.Content(role="user")], "contents[0]: missing 'parts'",
                     id="sdk-object"),
    ],
)
def test_a_content_without_parts_is_refused_at_its_place(payload: Any, expected: str) -> None:
    with pytest.raises(FormatError) as raised:
        gemini.from_payload(payload)
    assert str(raised.value) == expected


def test_a_role_the_format_lacks_is_still_named_first() -> None:
    with pytest.raises(FormatError) as raised:
        gemini.from_payload([{"role": "assistant", "content": "hi"}])
    assert str(raised.value) == "contents[0].role: Gemini has no role 'assistant'"


@pytest.mark.parametrize(
    ("parts", "expected"),
    [(None, "contents[0]: missing 'parts'"),  # null reads as absent, as everywhere (proto JSON)
     ("hi", "contents[0].parts: expected a list of parts, got str")],
)
def test_parts_that_are_no_list_are_refused(parts: Any, expected: str) -> None:
    with pytest.raises(FormatError) as raised:
        gemini.from_payload([{"role": "user", "parts": parts}])
    assert str(raised.value) == expected


NO_ITEMS = ("dropped: Gemini cannot carry a message of no items (the API refuses a content "
            "without parts)")


def test_empty_parts_and_a_system_instruction_without_parts_still_read() -> None:
    payload = {"contents": [{"role": "user", "parts": []}], "system_instruction": {"role": "x"}}
    history = gemini.from_payload(payload)
    assert [(message.role, message.items) for message in history] == [
        ("system", []), ("user", [])]
    # Written back, the empty content is left out: the API refuses it.
    written, notes = _caught(lambda: gemini.to_payload(history))
    assert written == {"contents": [], "system_instruction": {"role": "x"}}
    assert notes == [f"messages[1]: {NO_ITEMS}"]


@pytest.mark.parametrize("role", ["user", "assistant", "tool"])
@pytest.mark.parametrize("metadata", [{}, {"gemini": {"no_parts": True}}])  # an older reader's
def test_a_message_of_no_items_is_left_out_with_a_warning(
    role: str, metadata: dict[str, Any]
) -> None:
    # What was seen: a blocked candidate's empty reply, sent back, was written as
    # {"role": "model", "parts": []}, and the API answers "GenerateContentRequest.contents[1]
    # .parts: contents.parts must not be empty".
    history = ChatHistory([ChatMessageContent("user", items=[TextContent("hi")]),
                           ChatMessageContent(role, items=[], metadata=metadata),
                           ChatMessageContent("user", items=[TextContent("again")])])
    payload, notes = _caught(lambda: gemini.to_payload(history))
    assert payload == {"contents": [{"role": "user", "parts": [{"text": "hi"}]},
                                    {"role": "user", "parts": [{"text": "again"}]}]}
    assert notes == [f"messages[1]: {NO_ITEMS}"]
    for content in payload["contents"]:
        genai_types.Content.model_validate(content)


def test_a_message_of_no_items_is_left_out_without_a_word_with_drop() -> None:
    history = ChatHistory([ChatMessageContent("assistant", items=[])])
    payload, notes = _caught(lambda: gemini.to_payload(history, on_unsupported="drop"))
    assert payload == {"contents": []}
    assert notes == []


def test_a_message_of_no_items_is_a_warning_even_with_error() -> None:
    # It said nothing: leaving it out loses nothing, so it is not an error.
    history = ChatHistory([ChatMessageContent("assistant", items=[])])
    payload, notes = _caught(lambda: gemini.to_payload(history, on_unsupported="error"))
    assert payload == {"contents": []}
    assert notes == [f"messages[0]: {NO_ITEMS}"]


@pytest.mark.parametrize("content", [{"role": "model"}, {}])
@pytest.mark.parametrize("reason", ["MAX_TOKENS", "SAFETY"])
def test_a_candidate_content_without_parts_is_still_an_empty_answer(
    content: dict[str, Any], reason: str
) -> None:
    reply, notes = _caught(lambda: gemini.from_response(
        {"candidates": [{"content": content, "finishReason": reason}], "responseId": "r1"}))
    assert notes == []
    assert reply.items == []
    assert reply.id == "r1"
    assert reply.metadata["gemini"] == {"finish_reason": reason}


def test_a_stream_chunk_without_parts_still_ends_the_answer() -> None:
    chunks = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "The sky"}]}}]},
        {"candidates": [{"content": {"role": "model", "parts": [{"text": " is blue."}]}}]},
        {"candidates": [{"content": {"role": "model"}, "finishReason": "STOP"}]},
    ]
    message = StreamingChatMessageContent.accumulate(gemini.from_stream(chunks)).to_message()
    assert message.items == [TextContent("The sky is blue.")]
    assert message.finish_reason == "stop"


_TEXT_CONTENTS = st.lists(
    st.builds(lambda role, text: {"role": role, "parts": [{"text": text}]},
              st.sampled_from(["user", "model"]), st.text(min_size=1, max_size=8)),
    min_size=1, max_size=5,
)


@settings(max_examples=60, deadline=None)
@given(contents=_TEXT_CONTENTS, data=st.data())
def test_any_content_stripped_of_its_parts_is_refused_there(
    contents: list[dict[str, Any]], data: st.DataObject
) -> None:
    assert gemini.to_payload(gemini.from_payload(contents)) == {"contents": contents}
    index = data.draw(st.integers(0, len(contents) - 1))
    stripped = [*contents[:index], {"role": contents[index]["role"]}, *contents[index + 1:]]
    with pytest.raises(FormatError) as raised:
        gemini.from_payload(stripped)
    assert str(raised.value) == f"contents[{index}]: missing 'parts'"


# --- reasoning of no provider -----------------------------------------------------------


def _answer(*items: Any) -> ChatHistory:
    return ChatHistory([ChatMessageContent("user", "q"),
                        ChatMessageContent("assistant", items=[*items, TextContent("answer")])])


def test_reasoning_of_no_provider_is_left_out_with_a_located_warning() -> None:
    history = _answer(ReasoningContent("my private chain of thought"))
    payload, notes = _caught(lambda: gemini.to_payload(history))
    assert payload == {"contents": [{"role": "user", "parts": [{"text": "q"}]},
                                    {"role": "model", "parts": [{"text": "answer"}]}]}
    assert notes == [f"messages[1].items[0]: dropped: {NO_PROVIDER}"]


def test_reasoning_of_no_provider_is_dropped_silently_or_refused_as_asked() -> None:
    history = _answer(ReasoningContent("mine", signature="AAAA"))
    payload, notes = _caught(lambda: gemini.to_payload(history, on_unsupported="drop"))
    assert payload["contents"][1] == {"role": "model", "parts": [{"text": "answer"}]}
    assert notes == []
    with pytest.raises(UnsupportedContentError) as raised:
        gemini.to_payload(history, on_unsupported="error")
    assert str(raised.value) == (
        f"messages[1].items[0]: {NO_PROVIDER} (pass on_unsupported='warn' to leave it out)")


def test_gemini_thoughts_read_back_are_gemini_s_and_written_back_unchanged() -> None:
    contents = [
        {"role": "user", "parts": [{"text": "q"}]},
        {"role": "model", "parts": [{"text": "hmm", "thought": True, "thought_signature": "AAAA"},
                                    {"thought": True}, {"text": "answer"}]},
    ]
    history = gemini.from_payload(contents)
    assert [item.provider for item in history[1].items[:2]] == ["gemini", "gemini"]
    payload, notes = _caught(lambda: gemini.to_payload(history, on_unsupported="error"))
    assert payload == {"contents": contents}
    assert notes == []
    reply = gemini.from_response({"candidates": [{"content": contents[1]}]})
    assert [item.provider for item in reply.items[:2]] == ["gemini", "gemini"]


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=12), provider=st.sampled_from([None, "gemini", "anthropic"]))
def test_only_gemini_s_thoughts_are_written_and_they_read_back_equal(
    text: str, provider: str | None
) -> None:
    thought = ReasoningContent(text, provider=provider)
    payload, notes = _caught(lambda: gemini.to_payload(_answer(thought)))
    if provider == "gemini":
        assert notes == []
        assert payload["contents"][1]["parts"] == [{"text": text, "thought": True},
                                                   {"text": "answer"}]
        assert gemini.from_payload(payload["contents"])[1].items == [thought,
                                                                      TextContent("answer")]
    else:
        assert len(notes) == 1
        assert notes[0].startswith("messages[1].items[0]: dropped: Gemini cannot carry ")
        assert payload["contents"][1]["parts"] == [{"text": "answer"}]


def test_a_results_several_texts_are_joined_with_a_warning() -> None:
    # What was seen: an Anthropic tool_result of two text blocks became {"result": "a\nb"},
    # and came back as one text, without a word.
    history = ChatHistory([
        ChatMessageContent("assistant", items=[FunctionCallContent("t1", "w", "{}")]),
        ChatMessageContent("tool", items=[FunctionResultContent(
            "t1", [TextContent("a"), TextContent("b")], name="w")]),
    ])
    payload, notes = _caught(lambda: gemini.to_payload(history))
    assert payload["contents"][1] == {"role": "user", "parts": [{"function_response": {
        "id": "t1", "name": "w", "response": {"result": "a\nb"}}}]}
    assert notes == [
        "messages[1].items[0].result: dropped: Gemini cannot carry a result's several texts "
        "apart (joined by line breaks: a response holds one value)"]
    with pytest.raises(UnsupportedContentError):
        gemini.to_payload(history, on_unsupported="error")


def test_an_image_item_of_a_pdfs_bytes_is_refused_as_the_other_writers_refuse_it() -> None:
    # What was seen: ImageContent(data=<PDF bytes>) (its type sniffed as application/pdf) was
    # sent as inline_data application/pdf and read back as a FileContent; the OpenAI and
    # Anthropic writers refuse it, and the Gemini table says an image of another type is.
    from semantic_chat import ImageContent

    pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
    history = ChatHistory([ChatMessageContent("user", items=[
        TextContent("x"), ImageContent(data=pdf)])])
    with pytest.raises(UnsupportedContentError) as raised:
        gemini.to_payload(history)
    assert str(raised.value) == (
        "messages[0].items[1]: Gemini cannot carry image content of type application/pdf "
        "(PNG, JPEG, WebP, HEIC or HEIF only) (pass on_unsupported='warn' to leave it out)")


def test_a_binary_item_is_written_as_data_and_reported_as_it_reads_back_a_file() -> None:
    # What was seen: a BinaryContent came back as a FileContent, not equal, without a word.
    from semantic_chat import BinaryContent, FileContent

    blob = BinaryContent(data=b"\x00\x01\x02", mime_type="application/octet-stream")
    history = ChatHistory([ChatMessageContent("user", items=[TextContent("x"), blob])])
    payload, notes = _caught(lambda: gemini.to_payload(history))
    assert payload["contents"][0]["parts"][1] == {
        "inline_data": {"mime_type": "application/octet-stream", "data": "AAEC"}}
    assert notes == [
        "messages[0].items[1]: dropped: Gemini cannot carry a binary item's kind (written as "
        "data, it reads back as a FileContent)"]
    assert type(gemini.from_payload(payload)[0].items[1]) is FileContent


def test_the_sdks_model_and_user_contents_keep_their_roles() -> None:
    # What was seen: ModelContent and UserContent, the SDK's way to build a history, read as
    # ['user', 'user'] and were written without a role: their role is their class's default,
    # which a dump of the fields set leaves out.
    contents = [genai_types.UserContent(parts=[genai_types.Part.from_text(text="2+2?")]),
                genai_types.ModelContent(parts=[genai_types.Part.from_text(text="4")])]
    assert [str(m.role) for m in gemini.from_payload(contents)] == ["user", "assistant"]
    history = gemini.from_request({"model": "gemini-2.5-flash", "contents": contents})
    assert gemini.to_request(history)["contents"] == [
        {"role": "user", "parts": [{"text": "2+2?"}]},
        {"role": "model", "parts": [{"text": "4"}]}]


@pytest.mark.parametrize(("given", "texts"), [
    ({"text": "Answer in French."}, ["Answer in French."]),
    (["Answer in French.", "Be brief."], ["Answer in French.", "Be brief."]),
    (["A", {"text": "B"}], ["A", "B"]),
])
def test_a_system_instruction_in_the_sdks_other_forms_is_its_text(
    given: Any, texts: list[str]
) -> None:
    # What was seen: a part ({"text": ...}), which GenerateContentConfig takes, read as a
    # system message of no items (the text only in hints) that other formats then left out
    # without a word; a list of strings was refused.
    body = {"model": "gemini-2.5-flash", "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            "config": {"system_instruction": given}}
    genai_types.GenerateContentConfig.model_validate(body["config"])
    history = gemini.from_request(body)
    assert [item.text for item in history[0].items] == texts
    assert gemini.to_request(history) == body
    from semantic_chat.formats import openai_chat

    assert openai_chat.to_payload(history)[0]["role"] == "system"


def test_a_config_object_holding_a_python_function_is_a_located_format_error() -> None:
    # What was seen: a GenerateContentConfig holding a Python function as a tool (the SDK's
    # automatic function calling) raised pydantic's PydanticSerializationError, unlocated.
    def get_weather(city: str) -> str:
        """The weather."""
        return city

    config = genai_types.GenerateContentConfig(tools=[get_weather])
    body = {"model": "gemini-2.5-flash", "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            "config": config}
    with pytest.raises(FormatError) as raised:
        gemini.from_request(body)
    assert str(raised.value) == (
        "config: GenerateContentConfig holds what is no JSON: Unable to serialize unknown type: "
        "<class 'function'>")
