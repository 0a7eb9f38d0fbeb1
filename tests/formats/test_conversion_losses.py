"""Issue 15, "no silent loss": what each writer refuses, warns about, drops, or carries instead.

Also the roles the Chat Completions reader refuses, and `formats.validate` reporting every
problem of a document with the checks `convert` runs.
"""

from __future__ import annotations

import re
import warnings

import pytest

from semantic_chat import (
    ChatMessageContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
    Usage,
)
from semantic_chat.errors import FormatError, InvalidValueError, UnsupportedContentError
from semantic_chat.example import example_history
from semantic_chat.formats import (
    ConversionWarning,
    Problem,
    convert,
    names,
    openai_chat,
    openai_responses,
    validate,
)
from semantic_chat.serialization import to_dict


def _caught(write):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = write()
    return written, [str(note.message) for note in caught]


def _tool(result, is_error=False, name=None):
    item = FunctionResultContent("c1", result, is_error=is_error)
    return ChatMessageContent("tool", items=[item], name=name)


# --- the README example to Responses: ada's name is no longer lost without a word ---------


def test_the_readme_example_to_responses_warns_about_the_name_and_refuses_audio():
    payload = to_dict(example_history())
    with pytest.raises(UnsupportedContentError) as raised, pytest.warns(ConversionWarning):
        convert(payload, target="openai-responses")  # the name first, then the audio clip
    assert str(raised.value) == (
        "messages[1].items[2]: OpenAI Responses cannot carry audio content in a user message "
        "(pass on_unsupported='warn' to leave it out)"
    )
    _, notes = _caught(lambda: convert(payload, target="openai-responses", on_unsupported="warn"))
    assert notes == [
        "messages[1].name: dropped: OpenAI Responses cannot carry the name of a user message",
        "messages[1].items[2]: dropped: OpenAI Responses cannot carry audio content in a user "
        "message",
        "messages[2].items[0]: dropped: OpenAI Responses cannot carry reasoning content "
        "without the id of an OpenAI reasoning item",
    ]


def test_a_name_in_responses_is_a_warning_by_default_and_refused_with_error():
    history = [ChatMessageContent("user", "hi", name="ada")]
    written, notes = _caught(lambda: openai_responses.to_payload(history))
    assert written == [{"role": "user", "content": "hi"}]
    assert notes == [
        "messages[0].name: dropped: OpenAI Responses cannot carry the name of a user message"
    ]
    with pytest.raises(UnsupportedContentError) as raised:
        openai_responses.to_payload(history, on_unsupported="error")
    assert str(raised.value) == (
        "messages[0].name: OpenAI Responses cannot carry the name of a user message "
        "(pass on_unsupported='warn' to leave it out)"
    )
    assert _caught(lambda: openai_responses.to_payload(history, on_unsupported="drop")) == (
        [{"role": "user", "content": "hi"}], []
    )


def test_a_name_on_a_chat_tool_message_is_a_warning():
    written, notes = _caught(lambda: openai_chat.to_payload([_tool("18 C", name="weather")]))
    assert written == [{"role": "tool", "tool_call_id": "c1", "content": "18 C"}]
    assert notes == [
        "messages[0].name: dropped: OpenAI Chat Completions cannot carry the name of a tool "
        "message (a result's name is its call's)"
    ]


def test_names_on_chat_user_and_assistant_messages_are_carried():
    history = [ChatMessageContent("user", "hi", name="ada"),
               ChatMessageContent("assistant", "hello", name="bot")]
    written, notes = _caught(lambda: openai_chat.to_payload(history, on_unsupported="error"))
    assert written == [{"role": "user", "content": "hi", "name": "ada"},
                       {"role": "assistant", "content": "hello", "name": "bot"}]
    assert notes == []


def test_metadata_no_hint_covers_is_a_warning_per_key():
    message = ChatMessageContent("user", items=[TextContent("hi", metadata={"lang": "en"})])
    message.metadata.update({"source": "app", "openai_chat": {"parts": True}})
    written, notes = _caught(lambda: openai_chat.to_payload([message]))
    assert written == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert notes == [
        'messages[0].metadata["source"]: dropped: OpenAI Chat Completions cannot carry metadata',
        'messages[0].items[0].metadata["lang"]: dropped: OpenAI Chat Completions cannot carry '
        "metadata",
    ]
    _, notes = _caught(lambda: openai_responses.to_payload([message]))
    assert notes == [
        'messages[0].metadata["source"]: dropped: OpenAI Responses cannot carry metadata',
        'messages[0].items[0].metadata["lang"]: dropped: OpenAI Responses cannot carry metadata',
    ]


def test_what_requests_never_carry_is_not_reported():
    message = ChatMessageContent(
        "assistant", "done", id="msg_1", model_id="gpt-x", finish_reason="stop",
        usage=Usage(prompt_tokens=1, completion_tokens=2, total_tokens=3),
    )
    for module in (openai_chat, openai_responses):
        _, notes = _caught(lambda m=module: m.to_payload([message], on_unsupported="error"))
        assert notes == []
    assert openai_chat.to_payload([message]) == [{"role": "assistant", "content": "done"}]


# --- on_unsupported values ------------------------------------------------------------------


def test_raise_is_kept_as_the_former_name_of_error():
    history = [_tool("x", name="weather")]
    with pytest.raises(UnsupportedContentError, match=re.escape("messages[0].name: ")):
        openai_chat.to_payload(history, on_unsupported="raise")


def test_an_unknown_on_unsupported_is_refused():
    with pytest.raises(InvalidValueError) as raised:
        openai_chat.to_payload([], on_unsupported="ignore")
    assert str(raised.value) == (
        "on_unsupported: expected 'error', 'warn', 'drop' or None, got 'ignore'"
    )


def test_the_warning_is_a_user_warning_that_points_at_the_caller():
    history = [ChatMessageContent("user", items=[ImageContent(file_id="f")])]
    with pytest.warns(ConversionWarning) as record:
        openai_chat.to_payload(history, on_unsupported="warn")
    assert issubclass(ConversionWarning, UserWarning)
    assert record[0].filename == __file__
    assert str(record[0].message) == (
        "messages[0].items[0]: dropped: OpenAI Chat Completions cannot carry image content by "
        "a file id"
    )


# --- error results: carried as the text the providers suggest -------------------------------


@pytest.mark.parametrize(
    ("result", "chat_content"),
    [
        ("division by zero", "Error: division by zero"),
        ({"code": 7}, 'Error: {"code":7}'),
        ([TextContent("bad"), TextContent("input")],
         [{"type": "text", "text": "Error: bad"}, {"type": "text", "text": "input"}]),
    ],
    ids=["text", "json", "parts"],
)
def test_an_error_result_in_chat_says_so_and_reads_back_as_an_error(result, chat_content):
    written = openai_chat.to_payload([_tool(result, is_error=True)])
    assert written == [{"role": "tool", "tool_call_id": "c1", "content": chat_content}]
    (read,) = openai_chat.from_payload(written).messages[0].items
    assert read.is_error is True
    assert read.result == (result if not isinstance(result, dict) else '{"code":7}')


def test_an_error_result_in_responses_says_so_and_reads_back_as_an_error():
    image = ImageContent(uri="https://x.test/a.png")
    history = [_tool("timeout", is_error=True), _tool([image], is_error=True)]
    written = openai_responses.to_payload(history)
    assert written == [
        {"type": "function_call_output", "call_id": "c1", "output": "Error: timeout"},
        {"type": "function_call_output", "call_id": "c1", "output": [
            {"type": "input_text", "text": "Error:"},
            {"type": "input_image", "image_url": "https://x.test/a.png", "detail": "auto"},
        ]},
    ]
    read = openai_responses.from_payload(written)
    assert [(item.result, item.is_error) for m in read.messages for item in m.items] == [
        ("timeout", True), ([image], True)
    ]


def test_a_legacy_function_message_carries_an_error_too():
    item = FunctionResultContent(None, "boom", name="f", is_error=True)
    written = openai_chat.to_payload([ChatMessageContent("function", items=[item])])
    assert written == [{"role": "function", "name": "f", "content": "Error: boom"}]
    assert openai_chat.from_payload(written).messages[0].items == [item]


def test_chat_tool_content_with_the_prefix_reads_as_an_error_and_writes_back_the_same():
    payload = [{"role": "tool", "tool_call_id": "c1", "content": "Error: no such city"}]
    (read,) = openai_chat.from_payload(payload).messages[0].items
    assert (read.result, read.is_error) == ("no such city", True)
    assert openai_chat.to_payload(openai_chat.from_payload(payload)) == payload


# --- roles: the reader refuses what the writer refuses ----------------------------------------


@pytest.mark.parametrize("role", ["human", "robot"])
def test_chat_reader_refuses_a_role_the_format_does_not_have(role):
    with pytest.raises(FormatError) as raised:
        openai_chat.from_payload([{"role": "user", "content": "hi"},
                                  {"role": role, "content": "x"}])
    assert str(raised.value) == f"messages[1].role: OpenAI Chat Completions has no role {role!r}"


def test_chat_reader_keeps_reading_the_legacy_function_role():
    history = openai_chat.from_payload([{"role": "function", "name": "f", "content": "42"}])
    assert history.messages[0].items == [FunctionResultContent(None, "42", name="f")]


# --- validate ----------------------------------------------------------------------------------

FOUR_PROBLEMS = [
    {"role": "user", "content": "hi"},
    {"role": "tool", "content": "x"},
    {"role": "human", "content": "hello"},
    {"role": "assistant", "content": [{"type": "video", "video": {}}]},
    {"role": "user"},
]


def test_validate_reports_every_problem_of_a_document():
    assert validate(FOUR_PROBLEMS, "openai-chat") == [
        Problem("messages[1]", "tool message without tool_call_id"),
        Problem("messages[2].role", "OpenAI Chat Completions has no role 'human'"),
        Problem("messages[3].content[0].type", "unknown content part type 'video'"),
        Problem("messages[4]", "missing 'content'"),
    ]
    assert str(Problem("messages[1]", "tool message without tool_call_id")) == (
        "messages[1]: tool message without tool_call_id"
    )


def test_validate_checks_the_format_s_own_rules_as_convert_does():
    robot = [{"role": "robot", "content": "beep"}]
    # the reader refuses it, at its place in the document, as the writer would
    assert validate(robot, "openai-responses") == [
        Problem("input[0].role", "OpenAI Responses has no role 'robot'")
    ]
    with pytest.raises(FormatError, match=re.escape("OpenAI Responses has no role 'robot'")):
        convert(robot, "openai-responses", target="openai-responses")


def test_validate_with_a_target_reports_refusals_as_errors_and_drops_as_warnings():
    assert validate(to_dict(example_history()), target="openai-responses") == [
        Problem("messages[1].name", "OpenAI Responses cannot carry the name of a user message",
                "warning"),
        Problem("messages[1].items[2]",
                "OpenAI Responses cannot carry audio content in a user message"),
        Problem("messages[2].items[0]", "OpenAI Responses cannot carry reasoning content "
                "without the id of an OpenAI reasoning item"),
    ]
    assert validate(to_dict(example_history()), target="openai-responses",
                    on_unsupported="drop") == []


def test_validate_locates_problems_inside_a_batch_line():
    line = {"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions",
            "body": {"model": "m", "messages": FOUR_PROBLEMS[:3]}}
    assert [str(problem) for problem in validate(line)] == [
        "body.messages[1]: tool message without tool_call_id",
        "body.messages[2].role: OpenAI Chat Completions has no role 'human'",
    ]


def test_validate_says_when_the_format_cannot_be_told():
    assert validate({"a": 1}) == [Problem(
        "", "cannot tell the format of this dict: pass the source format (one of "
        f"{', '.join(names())})",
    )]
    assert validate(42) == [Problem("", "this is a number, not a conversation (an object or a "
                                        "list)")]


def test_validate_of_a_good_document_is_empty():
    assert validate(openai_chat.to_payload([ChatMessageContent("user", "hi")])) == []


def test_metadata_of_a_part_inside_a_tool_result_is_reported_too():
    history = [_tool([TextContent("ok", metadata={"score": 1})])]
    _, notes = _caught(lambda: openai_chat.to_payload(history))
    assert notes == [
        'messages[0].items[0].result[0].metadata["score"]: dropped: OpenAI Chat Completions '
        "cannot carry metadata"
    ]
    _, notes = _caught(lambda: openai_responses.to_payload(history))
    assert notes == [
        'messages[0].items[0].result[0].metadata["score"]: dropped: OpenAI Responses cannot '
        "carry metadata"
    ]
