"""Anthropic Messages writer: what it wrote that the API refuses, now left out or refused.

Empty text blocks beside other blocks (OpenAI Chat's ``"content": ""`` beside tool calls) are
left out; unknown items read from another format (Gemini's ``executable_code``) and documents
the API cannot fetch (a video by URL, a ``gs://`` PDF) are refused at their place. Also the
OpenAI Chat writer's messages for an item whose source it cannot carry. Every payload
written is checked against the anthropic SDK's request types, block by block.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from format_helpers import validate_anthropic_payload, validate_anthropic_request
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    AudioContent,
    ChatMessageContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import (
    anthropic,
    convert,
    gemini,
    openai_chat,
    openai_responses,
    validate,
)
from semantic_chat.formats.anthropic import writing
from semantic_chat.formats.wire import ConversionWarning

_CALL = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
_TOOL_USE = {"type": "tool_use", "id": "c1", "name": "f", "input": {}}
_RESULT = {"type": "tool_result", "tool_use_id": "c1", "content": "ok"}


def _both(messages: list[ChatMessageContent]) -> dict[str, Any]:
    """The payload, after checking the quick writer and the general one agree on it."""
    quick = writing._to_payload(messages, None, True, True)
    assert quick == writing._to_payload(messages, None, True, False)
    validate_anthropic_payload(quick)
    return quick


def _m(role: str, *items: Any, **metadata: Any) -> ChatMessageContent:
    message = ChatMessageContent(role, items=list(items))
    message.metadata.update(metadata)
    return message


def _call() -> FunctionCallContent:
    return FunctionCallContent("c1", "f", "{}")


def _result() -> FunctionResultContent:
    return FunctionResultContent("c1", "ok")


# --- 1. empty text blocks ---------------------------------------------------------------


def test_an_openai_chat_tool_call_turn_with_empty_content_has_no_empty_text_block():
    body = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "", "tool_calls": [_CALL]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)  # it says nothing: no warning
        payload = convert(body, target="anthropic")
    assert payload == {"messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [_TOOL_USE]},
        {"role": "user", "content": [_RESULT]},
    ]}
    validate_anthropic_request({"model": "claude-sonnet-4-5", "max_tokens": 64, **payload})
    assert validate(body, target="anthropic") == []
    history = openai_chat.from_payload(body)
    assert anthropic.to_payload(history) == payload
    assert writing._to_payload(history, None, True, False) == payload


@pytest.mark.parametrize(("messages", "expected"), [
    pytest.param([_m("assistant", TextContent(""), _call())],
                 [{"role": "assistant", "content": [_TOOL_USE]}], id="assistant-quick"),
    pytest.param([_m("assistant", TextContent(""), _call(), anthropic={})],  # hints: general
                 [{"role": "assistant", "content": [_TOOL_USE]}], id="assistant-general"),
    pytest.param([_m("assistant", TextContent(""), TextContent("a"))],
                 [{"role": "assistant", "content": "a"}], id="one-text-left-is-a-string"),
    pytest.param([_m("user", TextContent(""), ImageContent(uri="https://x.test/a.png"))],
                 [{"role": "user", "content": [
                     {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}}]}],
                 id="user-quick"),
    pytest.param([_m("tool", _result(), TextContent(""))],
                 [{"role": "user", "content": [_RESULT]}], id="tool-message"),
    pytest.param([_m("user", TextContent("")), _m("user", TextContent("hi"))],
                 [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
                 id="merged-user-turns"),
    pytest.param([_m("assistant", TextContent("")), _m("assistant", _call())],
                 [{"role": "assistant", "content": [_TOOL_USE]}], id="merged-assistant-turns"),
    pytest.param([_m("assistant", _call()), _m("tool", _result()), _m("user", TextContent(""))],
                 [{"role": "assistant", "content": [_TOOL_USE]},
                  {"role": "user", "content": [_RESULT]}], id="results-joining-a-user-turn"),
    pytest.param([_m("assistant", _call()), _m("user", TextContent("")), _m("tool", _result())],
                 [{"role": "assistant", "content": [_TOOL_USE]},
                  {"role": "user", "content": [_RESULT]}], id="results-joining-before-it"),
    pytest.param([_m("assistant", _call()), _m("tool", _result()), _m("tool", TextContent(""))],
                 [{"role": "assistant", "content": [_TOOL_USE]},
                  {"role": "user", "content": [_RESULT]}], id="tool-messages-joining"),
])
def test_an_empty_text_beside_other_blocks_is_left_out_without_a_word(messages, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        assert _both(messages) == {"messages": expected}


def test_a_last_assistant_turn_of_empty_texts_only_is_written_as_it_is():
    messages = [_m("assistant", TextContent(""), TextContent(""))]  # the empty prefill
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        assert _both(messages) == {"messages": [
            {"role": "assistant", "content": [{"type": "text", "text": ""}] * 2}]}


@pytest.mark.parametrize("messages", [
    pytest.param([_m("user", TextContent(""))], id="one"),
    pytest.param([_m("user", TextContent("")), _m("user", TextContent(""))], id="merged"),
])
def test_a_user_turn_of_empty_texts_only_is_left_out_with_a_warning(messages):
    # The API refuses an empty message (test_writer_fixes.py covers the rest).
    with pytest.warns(ConversionWarning) as caught:
        assert _both(messages) == {"messages": []}
    assert {str(each.message) for each in caught} == {
        "messages[0]: dropped: Anthropic Messages cannot carry a message of empty or blank "
        "text only (the API refuses it; only the last assistant message may be empty)"}


def test_an_empty_text_marked_for_the_cache_is_kept():
    text = TextContent("")
    anthropic.cache_control(text)
    payload = anthropic.to_payload([_m("assistant", text, _call())])
    assert payload == {"messages": [{"role": "assistant", "content": [
        {"type": "text", "text": "", "cache_control": {"type": "ephemeral"}}, _TOOL_USE]}]}


_texts = st.sampled_from(["", "", "a"]).map(TextContent)
_messages = st.one_of(
    st.builds(lambda items: _m("user", *items),
              st.lists(_texts | st.just(ImageContent(uri="https://x.test/a.png")), max_size=3)),
    st.builds(lambda items: _m("assistant", *items),
              st.lists(_texts | st.builds(_call), max_size=3)),
    st.builds(lambda items: _m("tool", *items), st.lists(_texts | st.builds(_result),
                                                          min_size=1, max_size=2)),
)


@given(st.lists(_messages, max_size=6))
def test_a_turn_holds_no_empty_text_unless_it_holds_nothing_else(messages):
    payload = _both(messages)  # the quick and general writers agree, and it is valid
    for turn in payload["messages"]:
        content = turn["content"]
        if isinstance(content, list) and any(block != {"type": "text", "text": ""}
                                             for block in content):
            assert {"type": "text", "text": ""} not in content


# --- 2. unknown items of another format -------------------------------------------------

_CODE_EXECUTION = {"contents": [
    {"role": "user", "parts": [{"text": "compute 1"}]},
    {"role": "model", "parts": [
        {"text": "ok"},
        {"executable_code": {"language": "PYTHON", "code": "print(1)"}},
        {"code_execution_result": {"outcome": "OUTCOME_OK", "output": "1"}}]},
    {"role": "user", "parts": [{"text": "thanks"}]},
]}


def test_gemini_code_execution_parts_are_refused_by_name():
    with pytest.raises(UnsupportedContentError) as raised:
        convert(_CODE_EXECUTION, target="anthropic")
    assert str(raised.value) == (
        "messages[1].items[1]: Anthropic Messages cannot carry unknown content of type "
        "'executable_code' (no Anthropic block) (pass on_unsupported='warn' to leave it out)")
    assert [(p.path, p.message) for p in validate(_CODE_EXECUTION, target="anthropic")] == [
        ("messages[1].items[1]", "Anthropic Messages cannot carry unknown content of type "
                                 "'executable_code' (no Anthropic block)"),
        ("messages[1].items[2]", "Anthropic Messages cannot carry unknown content of type "
                                 "'code_execution_result' (no Anthropic block)"),
    ]


def test_gemini_code_execution_parts_are_left_out_with_a_warning_when_asked():
    with pytest.warns(ConversionWarning) as caught:
        payload = convert(_CODE_EXECUTION, target="anthropic", on_unsupported="warn")
    assert [str(w.message) for w in caught] == [
        "messages[1].items[1]: dropped: Anthropic Messages cannot carry unknown content of "
        "type 'executable_code' (no Anthropic block)",
        "messages[1].items[2]: dropped: Anthropic Messages cannot carry unknown content of "
        "type 'code_execution_result' (no Anthropic block)",
    ]
    assert payload == {"messages": [
        {"role": "user", "content": "compute 1"},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "thanks"},
    ]}
    validate_anthropic_payload(payload)


@pytest.mark.parametrize("item", [
    pytest.param(UnknownContent("executableCode", {"code": "1"}), id="gemini-camel-case"),
    pytest.param(gemini.from_payload({"contents": [{"role": "user", "parts": [
        {"future_part": {"a": 1}}]}]})[0].items[0], id="gemini-newer-part"),
    pytest.param(openai_responses.from_payload([
        {"type": "web_search_call", "id": "ws_1", "status": "completed",
         "action": {"type": "search", "query": "x"}}])[0].items[0], id="responses-item"),
])
def test_unknown_items_of_other_formats_are_refused_where_they_are(item):
    kind = item.type
    result = FunctionResultContent("c1", [TextContent("a"), item])
    history = [_m("user", TextContent("a"), item), _m("assistant", _call()), _m("tool", result)]
    with pytest.warns(ConversionWarning) as caught:
        payload = anthropic.to_payload(history, on_unsupported="warn")
    assert [str(w.message) for w in caught] == [
        f"{where}: dropped: Anthropic Messages cannot carry unknown content of type "
        f"{kind!r} (no Anthropic block)"
        for where in ("messages[0].items[1]", "messages[2].items[0].result[1]")]
    assert payload == {"messages": [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": [_TOOL_USE]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1",
                                      "content": [{"type": "text", "text": "a"}]}]},
    ]}


def test_unknown_anthropic_blocks_are_still_written_back_exactly():
    payload = {"messages": [
        {"role": "user", "content": "search"},
        {"role": "assistant", "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
             "input": {"query": "x"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
            {"type": "a_block_newer_than_this_code", "data": 1}]},
    ]}
    assert anthropic.to_payload(anthropic.from_payload(payload)) == payload


# --- 3. documents by URL ----------------------------------------------------------------

_MEDIA = {"contents": [{"role": "user", "parts": [
    {"text": "Summarise these"},
    {"file_data": {"file_uri": "https://www.youtube.com/watch?v=9hE5-98ZeCg",
                   "mime_type": "video/mp4"}},
    {"file_data": {"file_uri": "gs://bucket/report.pdf", "mime_type": "application/pdf"}}]}]}


def test_a_video_and_a_gs_file_by_uri_are_refused_with_their_reason():
    with pytest.raises(UnsupportedContentError) as raised:
        convert(_MEDIA, target="anthropic")
    assert str(raised.value) == (
        "messages[0].items[1]: Anthropic Messages cannot carry file content of type video/mp4 "
        "by URL (PDF only) (pass on_unsupported='warn' to leave it out)")
    with pytest.warns(ConversionWarning) as caught:
        payload = convert(_MEDIA, target="anthropic", on_unsupported="warn")
    assert [str(w.message) for w in caught] == [
        "messages[0].items[1]: dropped: Anthropic Messages cannot carry file content of type "
        "video/mp4 by URL (PDF only)",
        "messages[0].items[2]: dropped: Anthropic Messages cannot carry file content by a URI "
        "other than http(s)",
    ]
    assert payload == {"messages": [{"role": "user", "content": "Summarise these"}]}


@pytest.mark.parametrize("mime_type", [None, "application/pdf", "Application/PDF"])
def test_a_pdf_or_a_file_of_unknown_type_by_url_is_a_url_document(mime_type):
    item = FileContent(uri="https://x.test/a.pdf", mime_type=mime_type, filename="a")
    payload = anthropic.to_payload([_m("user", item)])
    assert payload == {"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "url", "url": "https://x.test/a.pdf"},
         "title": "a"}]}]}
    validate_anthropic_payload(payload)


def test_a_url_document_read_from_anthropic_round_trips_exactly():
    payload = {"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "url", "url": "http://x.test/a"},
         "title": "t", "citations": {"enabled": True}, "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "summarise"}]}]}
    assert anthropic.to_payload(anthropic.from_payload(payload)) == payload
    validate_anthropic_payload(payload)


def test_a_document_in_a_tool_result_is_refused_at_its_place():
    result = FunctionResultContent("c1", [FileContent(uri="s3://b/a.pdf")])
    with pytest.raises(UnsupportedContentError) as raised:
        anthropic.to_payload([_m("assistant", _call()), _m("tool", result)])
    assert str(raised.value) == (
        "messages[1].items[0].result[0]: Anthropic Messages cannot carry file content by a URI "
        "other than http(s) (pass on_unsupported='warn' to leave it out)")


# --- 4. OpenAI Chat: the source named ---------------------------------------------------


def test_openai_chat_names_the_source_it_cannot_carry():
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user",
            "content": [
                {"type": "text", "text": "compare"},
                {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}},
                {"type": "image", "source": {"type": "file", "file_id": "file_img"}},
                {"type": "document", "source": {"type": "url", "url": "https://x.test/a.pdf"}}]}]}
    assert [(p.path, p.message) for p in validate(body, target="openai-chat")] == [
        ("messages[0].items[2]", "OpenAI Chat Completions cannot carry image content by a file id"),
        ("messages[0].items[3]", "OpenAI Chat Completions cannot carry file content by a URL"),
    ]


@pytest.mark.parametrize(("item", "why"), [
    pytest.param(AudioContent(file_id="file_a"), "audio content by a file id", id="audio-id"),
    pytest.param(FileContent(uri="https://x.test/a.pdf"), "file content by a URL", id="file-url"),
])
def test_openai_chat_refuses_a_source_by_name(item, why):
    with pytest.raises(UnsupportedContentError) as raised:
        openai_chat.to_payload([_m("user", TextContent("a"), item)])
    assert str(raised.value) == (
        f"messages[0].items[1]: OpenAI Chat Completions cannot carry {why} "
        "(pass on_unsupported='warn' to leave it out)")


def test_no_empty_text_block_in_the_system_or_a_tool_result():
    # Left undone by the first fix: the API refuses an empty text block there too.
    history = [
        ChatMessageContent("system", ""),
        ChatMessageContent("system", "Be brief."),
        ChatMessageContent("user", "Look"),
        ChatMessageContent("assistant", items=[FunctionCallContent("toolu_1", "shot", {})]),
        ChatMessageContent("tool", items=[FunctionResultContent("toolu_1", [
            TextContent(""), ImageContent(uri="https://example.com/a.png"),
        ])]),
    ]
    payload = anthropic.to_payload(history)
    assert payload["system"] == "Be brief."
    assert payload["messages"][2]["content"] == [{
        "type": "tool_result", "tool_use_id": "toolu_1",
        "content": [{"type": "image", "source": {"type": "url",
                                                 "url": "https://example.com/a.png"}}],
    }]


def test_an_openai_bodys_nulls_are_absent_in_the_anthropic_request() -> None:
    # What was seen: an SDK tool's model_dump() (description, parameters, strict: null) and
    # "stream": null were written to Anthropic as null, which its request types refuse.
    import warnings

    import pydantic
    from anthropic.types import ToolParam
    from openai.types.chat import ChatCompletionFunctionTool

    from semantic_chat import formats

    tool = ChatCompletionFunctionTool.model_validate(
        {"type": "function", "function": {"name": "f"}}).model_dump()
    body = {"model": "gpt-4o", "max_tokens": 50, "stream": None, "user": None,
            "messages": [{"role": "user", "content": "Hi"}], "tools": [tool]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a null is no loss: no warning either
        written = formats.convert(body, target="anthropic")
    assert written == {"model": "gpt-4o", "max_tokens": 50,
                       "messages": [{"role": "user", "content": "Hi"}],
                       "tools": [{"name": "f", "input_schema": {"type": "object",
                                                                "properties": {}}}]}
    pydantic.TypeAdapter(ToolParam).validate_python(written["tools"][0])


def test_a_temperature_above_one_is_reported_and_left_out_for_anthropic() -> None:
    # What was seen: Chat's temperature 1.6 (Gemini's 2.0) was written as it is, which the
    # Anthropic API refuses (0 to 1), and formats.validate found nothing.
    import warnings

    from semantic_chat import formats

    body = {"model": "gpt-4o", "max_tokens": 50, "temperature": 1.6,
            "messages": [{"role": "user", "content": "Hi"}]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = formats.convert(body, target="anthropic")
    assert "temperature" not in written
    assert [str(note.message) for note in caught] == [
        "options.temperature: dropped: Anthropic Messages cannot carry a temperature above 1 "
        "(1.6: Anthropic takes 0 to 1)"]
    assert [problem.path for problem in formats.validate(body, target="anthropic")] == [
        "options.temperature"]
    assert formats.convert({**body, "temperature": 0.7}, target="anthropic")["temperature"] == 0.7


def test_an_anthropic_system_of_no_blocks_is_no_instruction_elsewhere() -> None:
    # What was seen: "system": [] (no system prompt) became {"role": "system", "content": []}
    # for Chat and Responses, which OpenAI refuses (an empty array), and
    # "system_instruction": {"parts": []} for Gemini ("contents.parts must not be empty").
    import warnings

    from semantic_chat import formats

    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "system": [],
            "messages": [{"role": "user", "content": "Hi"}]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chat = formats.convert(body, target="openai-chat")
        responses = formats.convert(body, target="openai-responses")
        gemini_body = formats.convert(body, target="gemini")
    assert chat["messages"] == [{"role": "user", "content": "Hi"}]
    assert responses["input"] == [{"role": "user", "content": "Hi"}]
    assert "system_instruction" not in gemini_body
    assert formats.convert(body, target="anthropic") == body  # its own: written back


def test_convert_takes_max_tokens_and_to_request_refuses_a_limit_below_one() -> None:
    # What was seen: formats.convert(..., max_tokens=64) raised TypeError where validate,
    # convert_batch and --max-tokens take it; to_request wrote max_tokens 0 and -1.
    from semantic_chat import formats
    from semantic_chat.errors import InvalidValueError

    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}]}
    assert formats.convert(body, target="anthropic", max_tokens=64)["max_tokens"] == 64
    history = formats.get("openai-chat").from_payload(body)
    for bad in (0, -1):
        with pytest.raises(InvalidValueError) as raised:
            anthropic.to_request(history, max_tokens=bad)
        assert str(raised.value) == (
            f"max_tokens: expected a whole number of tokens above 0, got {bad}")
