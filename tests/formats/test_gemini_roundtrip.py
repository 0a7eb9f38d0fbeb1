"""Google Gemini: hand-written cases, read to exact items and written back to exact dicts.

Each case gives the payload and what it reads as, so a reader and a writer that make the same
mistake cannot pass: every part kind, thought signatures on the part they came with, roles,
made-up call ids and the pairing of results by name and order, the ``response`` wrappers,
``system_instruction`` as a string and a Content, both spellings; then what the writer
leaves out or refuses, with its exact message and location, and malformed input located. A
property pins the writer's quick loop to its general path.
"""

from __future__ import annotations

import base64
import json
import warnings
from typing import Any

import pytest
from format_helpers import PDF, PNG, WAV, validate_gemini_payload
from hypothesis import given, settings
from hypothesis import strategies as st

from semantic_chat import (
    AudioContent,
    ChatHistory,
    ChatMessageContent,
    Citation,
    FileContent,
    FinishReason,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    Usage,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import FormatError, InvalidValueError, UnsupportedContentError
from semantic_chat.formats import openai_chat
from semantic_chat.formats.gemini import reading, shared, writing
from semantic_chat.formats.wire import ConversionWarning, collect_losses

SIG = "c2lnbmF0dXJl"  # a thought signature as the API sends it: base64 text
SIG2 = "b3RoZXI="


def read(contents: list[Any], system: Any = None) -> ChatHistory:
    return reading.from_payload(contents, system)


def write(history: Any, spelling: str = "snake", **options: Any) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)  # nothing is lost in these cases
        written = writing.to_payload(history, spelling=spelling, **options)  # type: ignore[arg-type]
    validate_gemini_payload(written)
    return written


def hinted(item: Any, **hints: Any) -> Any:
    item.metadata["gemini"] = dict(hints)
    return item


def message(author: str, *items: KernelContent, **hints: Any) -> ChatMessageContent:
    made = ChatMessageContent(author, items=list(items))
    if hints:
        made.metadata["gemini"] = dict(hints)
    return made


def roundtrip(contents: list[Any], expected: list[ChatMessageContent], system: Any = None,
              spelling: str = "snake") -> None:
    """``contents`` reads as ``expected`` and is written back as it was."""
    history = read(contents, system)
    assert list(history) == expected
    payload = {"contents": contents}
    if system is not None:
        payload["system_instruction" if spelling == "snake" else "systemInstruction"] = system
    assert write(history, spelling) == payload


def losses(history: Any, **options: Any) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    with collect_losses() as lost:
        written = writing.to_payload(history, **options)
    return written, lost


# --- names ----------------------------------------------------------------------------------


def test_names_and_spelling_helpers():
    assert (shared.NAME, shared.HINTS, shared.FORMAT, shared.PROVIDER) == (
        "gemini", "gemini", "Gemini", "gemini")
    assert shared.snake_key("functionCall") == "function_call"
    assert shared.snake_key("thoughtSignature") == "thought_signature"
    assert shared.snake_key("topK") == "top_k"
    assert shared.camel_key("function_call") == "functionCall"
    assert shared.camel_key("top_k") == "topK"
    assert shared.snake_key("$ref") == "$ref"
    assert shared.camel_key("URL") == "URL"
    assert shared.made_call_id(3, 1) == "gemini-call-3-1"
    assert shared.is_made_id("gemini-call-3-1")
    assert not shared.is_made_id("gemini-call-3-x")
    assert not shared.is_made_id("call-gemini-call-3-1")


def test_respell_keeps_the_users_data():
    value = {
        "videoMetadata": {"startOffset": "1s"},
        "functionCall": {"name": "f", "args": {"someKey": {"innerKey": 1}}},
        "partMetadata": {"myKey": 1},
        "properties": {"cityName": {"anyOf": [{"maxLength": 3}]}},
    }
    snake = shared.respell(value, "snake")
    assert snake == {
        "video_metadata": {"start_offset": "1s"},
        "function_call": {"name": "f", "args": {"someKey": {"innerKey": 1}}},
        "part_metadata": {"myKey": 1},
        "properties": {"cityName": {"any_of": [{"max_length": 3}]}},
    }
    assert shared.respell(snake, "camel") == value


def test_check_spelling_refuses_other_values():
    with pytest.raises(InvalidValueError, match=r"^spelling: expected 'snake' or 'camel', got 'kebab'$"):
        writing.to_payload([], spelling="kebab")  # type: ignore[arg-type]


def test_finish_reasons():
    assert shared.finish_reason("STOP") == FinishReason.STOP
    assert shared.finish_reason("STOP", calls=True) == FinishReason.TOOL_CALLS
    assert shared.finish_reason("MAX_TOKENS") == FinishReason.LENGTH
    for label in ("SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII",
                  "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION"):
        assert shared.finish_reason(label) == FinishReason.CONTENT_FILTER
    assert shared.finish_reason("MALFORMED_FUNCTION_CALL") == FinishReason(
        "malformed_function_call")


def test_usage_adds_tool_use_prompt_and_thoughts():
    usage = shared.read_usage({
        "promptTokenCount": 10, "toolUsePromptTokenCount": 5, "candidates_token_count": 7,
        "thoughtsTokenCount": 3, "cachedContentTokenCount": 4, "totalTokenCount": 25,
    })
    assert usage == Usage(prompt_tokens=15, completion_tokens=10, total_tokens=25,
                          cached_tokens=4, reasoning_tokens=3)
    assert shared.read_usage({"prompt_token_count": 2, "candidates_token_count": 1}) == Usage(
        prompt_tokens=2, completion_tokens=1, total_tokens=3)


# --- parts ------------------------------------------------------------------------------------


def test_text_parts_and_thoughts():
    roundtrip(
        [
            {"role": "user", "parts": [{"text": "Hi"}, {"text": "there"}]},
            {"role": "model", "parts": [
                {"text": "Planning", "thought": True, "thought_signature": SIG},
                {"text": "Summary", "thought": True},
                {"text": "Hello", "thought_signature": SIG2},
                {"text": "plain", "thought": False},
            ]},
        ],
        [
            message("user", TextContent("Hi"), TextContent("there")),
            message(
                "assistant",
                ReasoningContent("Planning", signature=SIG, provider="gemini"),
                ReasoningContent("Summary", provider="gemini"),
                hinted(TextContent("Hello"), thought_signature=SIG2),
                hinted(TextContent("plain"), fields={"thought": False}),
            ),
        ],
    )


@pytest.mark.parametrize(
    ("part", "hints"),
    [
        ({"thought": True}, {"empty": ["thought"]}),
        ({"thought_signature": SIG}, {"empty": ["thought_signature"]}),
        ({"thought": True, "thought_signature": SIG}, {"empty": ["thought", "thought_signature"]}),
        ({}, {"empty": []}),
    ],
)
def test_a_part_without_data_is_empty_reasoning_written_back_exactly(part, hints):
    signature = part.get("thought_signature")
    expected = hinted(ReasoningContent("", signature=signature, provider="gemini"), **hints)
    roundtrip([{"role": "model", "parts": [part]}], [message("assistant", expected)])


def test_signature_on_a_function_call_stays_on_that_call():
    roundtrip(
        [
            {"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]},
            {"role": "model", "parts": [
                {"function_call": {"name": "weather", "args": {"city": "Paris"}},
                 "thought_signature": SIG},
                {"function_call": {"name": "weather", "args": {"city": "Rome"}}},
            ]},
        ],
        [
            message("user", TextContent("Weather in Paris and Rome?")),
            message(
                "assistant",
                hinted(FunctionCallContent("gemini-call-1-0", "weather", {"city": "Paris"}),
                       thought_signature=SIG),
                FunctionCallContent("gemini-call-1-1", "weather", {"city": "Rome"}),
            ),
        ],
    )


def test_media_parts():
    roundtrip(
        [{"role": "user", "parts": [
            {"inline_data": {"mime_type": "image/png", "data": PNG}},
            {"inline_data": {"mime_type": "audio/wav", "data": WAV}},
            {"inline_data": {"mime_type": "application/pdf", "data": PDF,
                             "display_name": "a.pdf"}},
            {"inline_data": {"mime_type": "image/png", "data": PNG, "display_name": "p.png"}},
            {"file_data": {"file_uri": "gs://b/v.mp4", "mime_type": "video/mp4"},
             "video_metadata": {"start_offset": "1s", "end_offset": "5s", "fps": 2},
             "media_resolution": {"level": "MEDIA_RESOLUTION_LOW"}},
            {"file_data": {"file_uri": "https://example.com/f"}},
            {"inline_data": {"mime_type": "text/plain; charset=utf-8", "data": "aGk="}},
        ]}],
        [message(
            "user",
            ImageContent.from_base64(PNG, mime_type="image/png"),
            AudioContent.from_base64(WAV, mime_type="audio/wav"),
            hinted(FileContent.from_base64(PDF, mime_type="application/pdf", filename="a.pdf"),
                   display_name=True),
            hinted(ImageContent.from_base64(PNG, mime_type="image/png"), display_name="p.png"),
            hinted(FileContent(uri="gs://b/v.mp4", mime_type="video/mp4"), fields={
                "video_metadata": {"start_offset": "1s", "end_offset": "5s", "fps": 2},
                "media_resolution": {"level": "MEDIA_RESOLUTION_LOW"}}),
            FileContent(uri="https://example.com/f"),
            hinted(FileContent(data=b"hi", mime_type="text/plain;charset=utf-8"),
                   mime_type="text/plain; charset=utf-8"),
        )],
    )


def test_url_safe_base64_is_read_and_written_back_url_safe():
    data = base64.urlsafe_b64encode(b"\xfb\xff\xfe").decode()
    history = read([{"role": "user", "parts": [
        {"inline_data": {"mime_type": "application/octet-stream", "data": data}}]}])
    (item,) = history[0].items
    assert item.data == b"\xfb\xff\xfe"
    assert item.metadata == {"gemini": {"base64": "urlsafe"}}
    assert write(history)["contents"][0]["parts"][0]["inline_data"]["data"] == data


def test_code_execution_and_newer_data_keys_are_kept_whole():
    roundtrip(
        [{"role": "model", "parts": [
            {"executable_code": {"language": "PYTHON", "code": "print(1)"},
             "thought_signature": SIG},
            {"code_execution_result": {"outcome": "OUTCOME_OK", "output": "1\n"}},
        ]}],
        [message(
            "assistant",
            hinted(UnknownContent("executable_code", {"language": "PYTHON", "code": "print(1)"}),
                   thought_signature=SIG),
            UnknownContent("code_execution_result", {"outcome": "OUTCOME_OK", "output": "1\n"}),
        )],
    )
    history = read([{"role": "model", "parts": [
        {"hologram": {"frameRate": 3}}, {"sparkle": 7, "partMetadata": {"k": 1}}]}])
    assert history[0].items == [
        hinted(UnknownContent("hologram", {"frame_rate": 3}), part=True),
        hinted(UnknownContent("sparkle", {"value": 7}), part=True, value=True,
               fields={"part_metadata": {"k": 1}}),
    ]
    newer = writing.to_payload(history, spelling="camel")  # no SDK knows these keys yet
    assert newer["contents"][0]["parts"] == [
        {"hologram": {"frameRate": 3}}, {"sparkle": 7, "partMetadata": {"k": 1}}]


def test_a_plugin_decoder_takes_a_data_key_and_an_encoder_writes_its_part():
    class Code(UnknownContent):
        pass

    def decode(part: dict[str, Any]) -> KernelContent:
        return TextContent("code: " + part["executable_code"]["code"])

    shared.register_decoder("executable_code", decode)
    try:
        history = read([{"role": "model", "parts": [
            {"executableCode": {"code": "x = 1", "language": "PYTHON"}}]}])
    finally:
        shared.codecs.unregister_decoder("executable_code")
    assert history[0].items == [TextContent("code: x = 1")]
    with pytest.raises(InvalidValueError, match="'text' is built in: Gemini reads it itself"):
        shared.register_decoder("text", decode)


# --- calls and results ----------------------------------------------------------------------


def test_results_without_ids_pair_with_calls_by_name_and_order():
    contents = [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [
            {"function_call": {"name": "a", "args": {"n": 1}}},
            {"function_call": {"name": "b", "args": {}}},
            {"function_call": {"name": "a", "args": {"n": 2}}},
        ]},
        {"role": "user", "parts": [
            {"function_response": {"name": "a", "response": {"result": "one"}}},
            {"function_response": {"name": "a", "response": {"result": "two"}}},
            {"function_response": {"name": "b", "response": {"result": "bee"}}},
            {"function_response": {"name": "c", "response": {"result": "lost"}}},
        ]},
    ]
    roundtrip(contents, [
        message("user", TextContent("go")),
        message(
            "assistant",
            FunctionCallContent("gemini-call-1-0", "a", {"n": 1}),
            FunctionCallContent("gemini-call-1-1", "b", {}),
            FunctionCallContent("gemini-call-1-2", "a", {"n": 2}),
        ),
        message(
            "tool",
            FunctionResultContent("gemini-call-1-0", "one", name="a"),
            FunctionResultContent("gemini-call-1-2", "two", name="a"),
            FunctionResultContent("gemini-call-1-1", "bee", name="b"),
            FunctionResultContent("gemini-call-2-3", "lost", name="c"),
        ),
    ])


def test_a_result_with_an_id_answers_that_call_first():
    history = read([
        {"role": "model", "parts": [
            {"function_call": {"id": "x1", "name": "a"}},
            {"function_call": {"name": "a", "args": {}}},
        ]},
        {"role": "user", "parts": [
            {"function_response": {"id": "x1", "name": "a", "response": {"result": 1}}},
            {"function_response": {"name": "a", "response": {"result": 2}}},
        ]},
    ])
    assert history[0].items == [
        hinted(FunctionCallContent("x1", "a", {}), no_args=True),
        FunctionCallContent("gemini-call-0-1", "a", {}),
    ]
    assert [r.call_id for r in history[1].items] == ["x1", "gemini-call-0-1"]
    assert write(history)["contents"][0]["parts"] == [
        {"function_call": {"id": "x1", "name": "a"}},
        {"function_call": {"name": "a", "args": {}}},
    ]


def test_made_up_ids_are_not_written_and_pair_after_a_trip_through_openai():
    history = read([
        {"role": "model", "parts": [{"function_call": {"name": "f", "args": {"q": 1}}}]},
        {"role": "user", "parts": [{"function_response": {"name": "f",
                                                          "response": {"result": "r"}}}]},
    ])
    chat = openai_chat.to_payload(history)
    assert chat[0]["tool_calls"][0]["id"] == "gemini-call-0-0"
    assert chat[1] == {"role": "tool", "tool_call_id": "gemini-call-0-0", "content": "r"}
    back = openai_chat.from_payload(chat)
    assert write(back)["contents"] == [
        {"role": "model", "parts": [{"function_call": {"name": "f", "args": {"q": 1}}}]},
        {"role": "user", "parts": [{"function_response": {"name": "f",
                                                          "response": {"result": "r"}}}]},
    ]


@pytest.mark.parametrize(
    ("response", "result", "is_error", "hints"),
    [
        ({"result": "sunny"}, "sunny", False, {}),
        ({"output": "sunny"}, "sunny", False, {"wrap": "output"}),
        ({"error": "offline"}, "offline", True, {}),
        ({"error": {"code": 5}}, {"code": 5}, True, {}),
        ({"temp": 18, "sky": "clear"}, {"temp": 18, "sky": "clear"}, False, {}),
        ({}, {}, False, {}),
        ({"result": {"locked": True}}, {"locked": True}, False, {"wrap": "result"}),
        ({"result": {"result": 1}}, {"result": 1}, False, {}),
        ({"result": None}, None, False, {}),
        ({"result": [1, 2]}, [1, 2], False, {}),
    ],
)
def test_response_wrappers(response, result, is_error, hints):
    contents = [
        {"role": "model", "parts": [{"function_call": {"id": "c", "name": "f", "args": {}}}]},
        {"role": "user", "parts": [{"function_response": {"id": "c", "name": "f",
                                                          "response": response}}]},
    ]
    expected = FunctionResultContent("c", result, name="f", is_error=is_error)
    roundtrip(contents, [
        message("assistant", FunctionCallContent("c", "f", {})),
        message("tool", hinted(expected, **hints) if hints else expected),
    ])


def test_a_multimodal_response_is_a_list_of_items():
    contents = [
        {"role": "model", "parts": [{"function_call": {"id": "c", "name": "shot", "args": {}}}]},
        {"role": "user", "parts": [{"function_response": {
            "id": "c", "name": "shot", "response": {"result": "the screen"},
            "parts": [{"inline_data": {"mime_type": "image/png", "data": PNG}},
                      {"file_data": {"file_uri": "gs://b/a.pdf", "mime_type": "application/pdf"},
                       "media_resolution": {"level": "MEDIA_RESOLUTION_HIGH"}}],
            "will_continue": False,
        }}]},
    ]
    history = read(contents)
    (result,) = history[1].items
    assert result == hinted(FunctionResultContent("c", [
        TextContent("the screen"),
        ImageContent.from_base64(PNG, mime_type="image/png"),
        hinted(FileContent(uri="gs://b/a.pdf", mime_type="application/pdf"),
               fields={"media_resolution": {"level": "MEDIA_RESOLUTION_HIGH"}}),
    ], name="shot"), response_fields={"will_continue": False})
    assert write(history) == {"contents": contents}
    media_only = FunctionResultContent("c", [ImageContent.from_base64(PNG, mime_type="image/png")],
                                       name="shot")
    part = write([message("tool", media_only)])["contents"][0]["parts"][0]
    assert part == {"function_response": {
        "id": "c", "name": "shot", "response": {},
        "parts": [{"inline_data": {"mime_type": "image/png", "data": PNG}}]}}
    assert read(write([message("tool", media_only)])["contents"])[0].items == [media_only]


def test_results_without_ids_are_written_in_the_order_of_their_calls():
    # OpenAI lets tools answer in any order; Gemini pairs by name and order, so results of
    # one function are put back in the order of their calls (their made-up ids say it).
    history = ChatHistory([
        message("assistant", FunctionCallContent("gemini-call-0-0", "f", {"n": 1}),
                FunctionCallContent("gemini-call-0-1", "g", {}),
                FunctionCallContent("gemini-call-0-2", "f", {"n": 2})),
        message("tool", FunctionResultContent("gemini-call-0-2", "two", name="f")),
        message("tool", FunctionResultContent("gemini-call-0-1", "gee", name="g")),
        message("tool", FunctionResultContent("gemini-call-0-0", "one", name="f")),
    ])
    results = write(history)["contents"][1]["parts"]
    assert results == [
        {"function_response": {"name": "f", "response": {"result": "one"}}},
        {"function_response": {"name": "g", "response": {"result": "gee"}}},
        {"function_response": {"name": "f", "response": {"result": "two"}}},
    ]
    paired = read(write(history)["contents"])[1].items
    assert [(r.call_id, r.result) for r in paired] == [
        ("gemini-call-0-0", "one"), ("gemini-call-0-1", "gee"), ("gemini-call-0-2", "two")]


def test_an_image_by_uri_without_a_media_type_gets_one_from_its_name():
    history = [message("user", ImageContent(uri="https://example.com/oslo.jpg?s=2"),
                       AudioContent(uri="gs://b/clip.wav"), ImageContent(uri="gs://b/picture"))]
    written, lost = losses(history)
    assert written["contents"][0]["parts"] == [
        {"file_data": {"file_uri": "https://example.com/oslo.jpg?s=2", "mime_type": "image/jpeg"}},
        {"file_data": {"file_uri": "gs://b/clip.wav", "mime_type": "audio/wav"}},
        {"file_data": {"file_uri": "gs://b/picture"}},
    ]
    assert lost == [("messages[0].items[2].mime_type", "Gemini cannot carry the kind of an "
                     "image by a URI without a media type (it is read back as a file)", "warn")]


def test_a_result_named_by_its_call_and_a_json_text_arguments():
    history = ChatHistory([
        message("assistant", FunctionCallContent("c1", "lookup", '{"q": "x"}'),
                FunctionCallContent("c2", "blank", "  ")),
        message("tool", FunctionResultContent("c1", {"hits": 2})),
        message("tool", FunctionResultContent("c2", "done", is_error=True)),
    ])
    assert write(history)["contents"] == [
        {"role": "model", "parts": [
            {"function_call": {"id": "c1", "name": "lookup", "args": {"q": "x"}}},
            {"function_call": {"id": "c2", "name": "blank", "args": {}}},
        ]},
        {"role": "user", "parts": [
            {"function_response": {"id": "c1", "name": "lookup", "response": {"hits": 2}}},
            {"function_response": {"id": "c2", "name": "blank",
                                   "response": {"error": "done"}}},
        ]},
    ]


# --- roles --------------------------------------------------------------------------------


def test_roles_tool_function_and_missing():
    roundtrip(
        [
            {"parts": [{"text": "no role"}]},
            {"role": "model", "parts": [{"function_call": {"id": "1", "name": "f", "args": {}}}]},
            {"role": "tool", "parts": [{"function_response": {"id": "1", "name": "f",
                                                              "response": {"result": "a"}}}]},
            {"role": "model", "parts": [{"function_call": {"id": "2", "name": "g", "args": {}}}]},
            {"role": "function", "parts": [
                {"function_response": {"id": "2", "name": "g", "response": {"result": "b"}}},
                {"text": "and text in it"}]},
        ],
        [
            message("user", TextContent("no role"), role=None),
            message("assistant", FunctionCallContent("1", "f", {})),
            message("tool", FunctionResultContent("1", "a", name="f"), role="tool"),
            message("assistant", FunctionCallContent("2", "g", {})),
            message("tool", FunctionResultContent("2", "b", name="g"),
                    TextContent("and text in it"), role="function"),
        ],
    )


def test_a_user_content_that_starts_with_results_is_a_tool_message_then_a_user_message():
    contents = [
        {"role": "model", "parts": [{"function_call": {"id": "1", "name": "f", "args": {}}}]},
        {"role": "user", "parts": [
            {"function_response": {"id": "1", "name": "f", "response": {"result": "a"}}},
            {"text": "thanks; next?"}]},
        {"parts": [
            {"function_response": {"id": "9", "name": "h", "response": {"result": "z"}}},
            {"text": "roleless"}]},
    ]
    roundtrip(contents, [
        message("assistant", FunctionCallContent("1", "f", {})),
        message("tool", FunctionResultContent("1", "a", name="f")),
        message("user", TextContent("thanks; next?"), join=True),
        message("tool", FunctionResultContent("9", "z", name="h"), role=None),
        message("user", TextContent("roleless"), join=True, role=None),
    ])


def test_consecutive_result_contents_stay_apart_and_tool_messages_join_one():
    contents = [
        {"role": "model", "parts": [{"function_call": {"id": "1", "name": "f", "args": {}}},
                                    {"function_call": {"id": "2", "name": "f", "args": {}}}]},
        {"role": "user", "parts": [{"function_response": {"id": "1", "name": "f",
                                                          "response": {"result": "a"}}}]},
        {"role": "user", "parts": [{"function_response": {"id": "2", "name": "f",
                                                          "response": {"result": "b"}}}]},
    ]
    history = read(contents)
    assert history[2].metadata == {"gemini": {"separate": True}}
    assert write(history) == {"contents": contents}
    del history[2].metadata["gemini"]
    assert write(history)["contents"][1:] == [{"role": "user", "parts": [
        {"function_response": {"id": "1", "name": "f", "response": {"result": "a"}}},
        {"function_response": {"id": "2", "name": "f", "response": {"result": "b"}}},
    ]}]


def test_consecutive_turns_of_one_role_are_not_merged():
    history = ChatHistory([message("user", TextContent("a")), message("user", TextContent("b")),
                           message("assistant", TextContent("c")),
                           message("assistant", TextContent("d"))])
    assert write(history)["contents"] == [
        {"role": "user", "parts": [{"text": "a"}]}, {"role": "user", "parts": [{"text": "b"}]},
        {"role": "model", "parts": [{"text": "c"}]}, {"role": "model", "parts": [{"text": "d"}]},
    ]


# --- system instruction ----------------------------------------------------------------------


def test_system_instruction_as_a_string_and_as_a_content():
    roundtrip([{"role": "user", "parts": [{"text": "hi"}]}],
              [message("system", TextContent("Be brief."), string=True),
               message("user", TextContent("hi"))],
              system="Be brief.")
    system = {"role": "system", "parts": [{"text": "One."}, {"text": "Two."}]}
    roundtrip([{"role": "user", "parts": [{"text": "hi"}]}],
              [message("system", TextContent("One."), TextContent("Two."), role="system"),
               message("user", TextContent("hi"))],
              system=system)
    roundtrip([{"role": "user", "parts": [{"text": "hi"}]}],
              [message("system", TextContent("Plain.")), message("user", TextContent("hi"))],
              system={"parts": [{"text": "Plain."}]}, spelling="camel")


def test_system_and_developer_messages_join_the_system_instruction():
    history = ChatHistory([message("system", TextContent("S")),
                           message("developer", TextContent("D")),
                           message("user", TextContent("u"))])
    assert write(history) == {
        "contents": [{"role": "user", "parts": [{"text": "u"}]}],
        "system_instruction": {"parts": [{"text": "S"}, {"text": "D"}]},
    }
    assert write(history, "camel")["systemInstruction"] == {"parts": [{"text": "S"},
                                                                     {"text": "D"}]}


# --- spelling ---------------------------------------------------------------------------------


def test_one_history_in_both_spellings_and_camel_read_the_same():
    snake = {
        "contents": [
            {"role": "user", "parts": [
                {"inline_data": {"mime_type": "image/png", "data": PNG, "display_name": "x"}},
                {"file_data": {"file_uri": "gs://a/b", "mime_type": "video/mp4"},
                 "video_metadata": {"start_offset": "2s"}}]},
            {"role": "model", "parts": [
                {"function_call": {"name": "f", "args": {"some_arg": {"inner_key": 1}}},
                 "thought_signature": SIG},
                {"text": "t", "thought": True, "thought_signature": SIG2}]},
            {"role": "user", "parts": [{"function_response": {
                "name": "f", "response": {"the_result": 1}, "will_continue": True}}]},
        ],
        "system_instruction": {"parts": [{"text": "s"}]},
    }
    camel = {
        "contents": [
            {"role": "user", "parts": [
                {"inlineData": {"mimeType": "image/png", "data": PNG, "displayName": "x"}},
                {"fileData": {"fileUri": "gs://a/b", "mimeType": "video/mp4"},
                 "videoMetadata": {"startOffset": "2s"}}]},
            {"role": "model", "parts": [
                {"functionCall": {"name": "f", "args": {"some_arg": {"inner_key": 1}}},
                 "thoughtSignature": SIG},
                {"text": "t", "thought": True, "thoughtSignature": SIG2}]},
            {"role": "user", "parts": [{"functionResponse": {
                "name": "f", "response": {"the_result": 1}, "willContinue": True}}]},
        ],
        "systemInstruction": {"parts": [{"text": "s"}]},
    }
    from_snake = read(snake["contents"], snake["system_instruction"])
    from_camel = read(camel["contents"], camel["systemInstruction"])
    assert from_snake == from_camel
    assert write(from_camel, "snake") == snake
    assert write(from_snake, "camel") == camel


def test_a_key_in_both_spellings_is_refused():
    with pytest.raises(FormatError, match=r"^contents\[0\]\.parts\[0\]: 'function_call' and "
                                          r"'functionCall' are the same key$"):
        read([{"role": "model", "parts": [{"function_call": {"name": "a"},
                                           "functionCall": {"name": "b"}}]}])


def test_sdk_objects_read_as_their_json():
    from google.genai import types

    sdk = types.Content(role="model", parts=[
        types.Part(text="t", thought_signature=b"\xfb\xff\x01"),
        types.Part(inline_data=types.Blob(mime_type="image/png", data=base64.b64decode(PNG))),
        types.Part(function_call=types.FunctionCall(name="f", args={"a": 1})),
    ])
    as_json = {"role": "model", "parts": [
        {"text": "t", "thoughtSignature": base64.b64encode(b"\xfb\xff\x01").decode()},
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
        {"functionCall": {"name": "f", "args": {"a": 1}}},
    ]}
    assert read([sdk]) == read([as_json])
    assert read([sdk])[0].items[0].metadata == {"gemini": {"thought_signature": "+/8B"}}


# --- responses ------------------------------------------------------------------------------


RESPONSE = {
    "candidates": [
        {"content": {"role": "model", "parts": [
            {"text": "thinking", "thought": True},
            {"functionCall": {"name": "f", "args": {"x": 1}}, "thoughtSignature": SIG}]},
         "finishReason": "STOP", "index": 0, "avgLogprobs": -0.5},
        {"content": {"role": "model", "parts": [{"text": "cut"}]},
         "finishReason": "MAX_TOKENS", "index": 1},
    ],
    "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                      "thoughtsTokenCount": 2, "totalTokenCount": 17},
    "modelVersion": "gemini-2.5-flash",
    "responseId": "resp-1",
    "createTime": "2025-01-01T00:00:00Z",
}


def test_a_response_candidate_is_the_assistant_message():
    reply = reading.from_response(RESPONSE)
    assert reply.role == "assistant"
    assert reply.items == [
        ReasoningContent("thinking", provider="gemini"),
        hinted(FunctionCallContent("gemini-call-0-0", "f", {"x": 1}), thought_signature=SIG),
    ]
    assert (reply.id, reply.model_id, reply.finish_reason) == (
        "resp-1", "gemini-2.5-flash", FinishReason.TOOL_CALLS)
    assert reply.usage == Usage(prompt_tokens=10, completion_tokens=7, total_tokens=17,
                                reasoning_tokens=2)
    assert reply.metadata == {"gemini": {
        "finish_reason": "STOP",
        "usage_metadata": {"prompt_token_count": 10, "candidates_token_count": 5,
                           "thoughts_token_count": 2, "total_token_count": 17},
        "candidate": {"index": 0, "avg_logprobs": -0.5},
        "response": {"create_time": "2025-01-01T00:00:00Z"},
    }}
    assert reply.inner_content is RESPONSE
    assert write([reply])["contents"] == [{"role": "model", "parts": [
        {"text": "thinking", "thought": True},
        {"function_call": {"name": "f", "args": {"x": 1}}, "thought_signature": SIG}]}]
    second = reading.from_response(RESPONSE, candidate=1)
    assert second.items == [TextContent("cut")]
    assert second.finish_reason == FinishReason.LENGTH
    with pytest.raises(FormatError, match=r"^response\.candidates: no candidate 2 among 2$"):
        reading.from_response(RESPONSE, candidate=2)


def test_a_blocked_candidate_and_a_response_without_candidates_are_empty_messages():
    blocked = reading.from_response({"candidates": [{"finishReason": "SAFETY"}]})
    assert blocked.items == []
    assert blocked.finish_reason == FinishReason.CONTENT_FILTER
    none = reading.from_response({"promptFeedback": {"blockReason": "SAFETY"}})
    assert none.items == []
    assert none.metadata == {"gemini": {"response": {"prompt_feedback": {
        "block_reason": "SAFETY"}}}}


def test_grounding_citations_hang_on_the_text_and_are_never_written():
    response = {"candidates": [{
        "content": {"role": "model", "parts": [{"text": "Spain won."}]},
        "groundingMetadata": {
            "groundingChunks": [{"web": {"uri": "https://a.example", "title": "a"}}],
            "groundingSupports": [{"segment": {"startIndex": 0, "endIndex": 10,
                                               "text": "Spain won."},
                                   "groundingChunkIndices": [0]}],
        },
    }]}
    reply = reading.from_response(response)
    (text,) = reply.items
    assert [(c.url, c.title, c.text_start, c.text_end, c.source_index)
            for c in text.citations] == [("https://a.example", "a", 0, 10, 0)]
    assert "grounding_metadata" in reply.metadata["gemini"]
    assert write([reply])["contents"] == [{"role": "model", "parts": [{"text": "Spain won."}]}]


# --- what the writer leaves out or refuses -----------------------------------------------------


def test_reasoning_of_another_provider_or_encrypted_is_never_sent():
    history = ChatHistory([message(
        "assistant",
        ReasoningContent("why", signature="s", provider="anthropic"),
        ReasoningContent("", encrypted="e"),
        ReasoningContent("mine", provider=None),
        TextContent("answer"),
    )])
    written, lost = losses(history)
    assert written["contents"] == [{"role": "model", "parts": [{"text": "answer"}]}]
    assert lost == [
        ("messages[0].items[0]",
         "Gemini cannot carry reasoning from another provider ('anthropic'); it is never sent",
         "warn"),
        ("messages[0].items[1]",
         "Gemini cannot carry encrypted reasoning (another provider's); it is never sent",
         "warn"),
        ("messages[0].items[2]",
         "Gemini cannot carry reasoning of no named provider (only its own thoughts, provider "
         "'gemini', are sent back); it is never sent",
         "warn"),
    ]
    with pytest.raises(UnsupportedContentError, match=r"^messages\[0\]\.items\[0\]: Gemini "
                       r"cannot carry reasoning from another provider \('anthropic'\)"):
        writing.to_payload(history, on_unsupported="error")
    with pytest.warns(ConversionWarning) as record:
        writing.to_payload(history)
    assert [str(warning.message) for warning in record] == [
        f"{where}: dropped: {detail}" for where, detail, _ in lost]


def test_field_losses_are_reported_at_their_place():
    image = ImageContent(uri="gs://b/i.png", mime_type="image/png", detail="high")
    cited = TextContent("t", citations=[Citation(url="https://x.example")])
    history = ChatHistory([
        message("user", TextContent("u")),
        ChatMessageContent("user", items=[image, FileContent.from_base64(
            PDF, mime_type="application/pdf", filename="a.pdf"), cited], name="ada"),
        message("system", TextContent("late")),
    ])
    history[0].metadata["mine"] = 1
    written, lost = losses(history)
    assert written == {
        "contents": [
            {"role": "user", "parts": [{"text": "u"}]},
            {"role": "user", "parts": [
                {"file_data": {"file_uri": "gs://b/i.png", "mime_type": "image/png"}},
                {"inline_data": {"mime_type": "application/pdf", "data": PDF}},
                {"text": "t"}]},
        ],
        "system_instruction": {"parts": [{"text": "late"}]},
    }
    assert lost == [
        ('messages[0].metadata["mine"]', "Gemini cannot carry metadata", "warn"),
        ("messages[1].name", "Gemini cannot carry the name of a user message", "warn"),
        ("messages[1].items[0].detail", "Gemini cannot carry an image's detail", "warn"),
        ("messages[1].items[1].filename",
         "Gemini cannot carry a file's name (the Gemini Developer API refuses display_name)",
         "warn"),
        ("messages[1].items[2].citations",
         "Gemini cannot carry citations on text (its grounding is data of a response only)",
         "warn"),
        ("messages[2]", "Gemini cannot carry the place of a system message after the first "
                        "content (moved to the system)", "warn"),
    ]


def test_a_signature_that_is_not_base64_is_left_out_at_its_place():
    text = hinted(TextContent("a"), thought_signature="not base64!")
    thought = ReasoningContent("hm", signature="0", provider="gemini")
    written, lost = losses([message("assistant", text, thought)])
    assert written["contents"] == [{"role": "model", "parts": [
        {"text": "a"}, {"text": "hm", "thought": True}]}]
    what = "Gemini cannot carry a thought signature that is not base64 text (the API takes " \
           "bytes there)"
    assert lost == [('messages[0].items[0].metadata["gemini"].thought_signature', what, "warn"),
                    ("messages[0].items[1].signature", what, "warn")]
    url_safe = hinted(TextContent("b"), thought_signature="-_8=")
    assert write([message("assistant", url_safe)])["contents"][0]["parts"] == [
        {"text": "b", "thought_signature": "-_8="}]


def test_another_formats_signature_hint_is_not_gemini_s_to_report():
    text = TextContent("x")
    text.metadata["anthropic"] = {"fields": {"cache_control": {"type": "ephemeral"}}}
    written, lost = losses([message("user", text)])
    assert written["contents"] == [{"role": "user", "parts": [{"text": "x"}]}]
    assert lost == []


@pytest.mark.parametrize(
    ("item", "role", "detail"),
    [
        (RefusalContent("no"), "assistant",
         "Gemini cannot carry refusal content in an assistant message"),
        (ImageContent(file_id="file-1", mime_type="image/png"), "user",
         "Gemini cannot carry image content by a file id (Gemini names files by URI)"),
        (UnknownContent("server_tool_use", {"id": "x"}), "assistant",
         "Gemini cannot carry unknown content of type 'server_tool_use' (no Gemini part)"),
        (FunctionCallContent("c", "f", "{}"), "user",
         "Gemini cannot carry function_call content in a user message"),
        (FunctionResultContent("c", "r", name="f"), "assistant",
         "Gemini cannot carry function_result content in an assistant message"),
    ],
)
def test_items_the_format_cannot_carry_are_refused(item, role, detail):
    history = [message(role, item)]
    with pytest.raises(UnsupportedContentError) as raised:
        writing.to_payload(history)
    assert str(raised.value) == (
        f"messages[0].items[0]: {detail} (pass on_unsupported='warn' to leave it out)")
    written, lost = losses(history, on_unsupported="warn")
    assert written == {"contents": []}  # its only item left out: the message too
    assert lost == [("messages[0].items[0]", detail, "warn")]


@pytest.mark.parametrize(
    ("history", "pattern"),
    [
        ([message("critic", TextContent("x"))], r"^messages\[0\]\.role: Gemini has no role 'critic'$"),
        ([message("assistant", FunctionCallContent("c", "f", "[1]"))],
         r"^messages\[0\]\.items\[0\]\.arguments: expected arguments that are a JSON object, "
         r"got an array$"),
        ([message("assistant", FunctionCallContent("c", "f", "{oops"))],
         r"^messages\[0\]\.items\[0\]\.arguments: arguments are not valid JSON"),
        ([message("tool", FunctionResultContent("c9", "r"))],
         r"^messages\[0\]\.items\[0\]\.name: Gemini needs the name of the function a result "
         r"answers: none is given, and no call before it has the id 'c9'$"),
    ],
)
def test_what_cannot_be_written_is_a_located_format_error(history, pattern):
    with pytest.raises(FormatError, match=pattern):
        writing.to_payload(history)


# --- malformed input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contents", "pattern"),
    [
        ("hi", r"^contents: expected a list of contents, got str$"),
        (["hi"], r"^contents\[0\]: expected a Content object, got str$"),
        ([{"role": "assistant", "parts": []}], r"^contents\[0\]\.role: Gemini has no role "
                                               r"'assistant'$"),
        ([{"role": "user", "parts": {}}], r"^contents\[0\]\.parts: expected a list of parts, "
                                          r"got dict$"),
        ([{"role": "user", "parts": [{"text": "a", "function_call": {"name": "f"}}]}],
         r"^contents\[0\]\.parts\[0\]: a part holds one kind of data, got 'text' and "
         r"'function_call'$"),
        ([{"role": "user", "parts": [{"text": 5}]}],
         r"^contents\[0\]\.parts\[0\]\.text: expected str, got int$"),
        ([{"role": "model", "parts": [{"function_call": {"args": {}}}]}],
         r"^contents\[0\]\.parts\[0\]\.function_call: missing 'name'$"),
        ([{"role": "model", "parts": [{"functionCall": {"name": "f", "args": [1]}}]}],
         r"^contents\[0\]\.parts\[0\]\.function_call\.args: expected an object, got list$"),
        ([{"role": "user", "parts": [{"function_response": {"name": "f", "response": "x"}}]}],
         r"^contents\[0\]\.parts\[0\]\.function_response\.response: expected an object, "
         r"got str$"),
        ([{"role": "user", "parts": [{"inline_data": {"data": PNG}}]}],
         r"^contents\[0\]\.parts\[0\]\.inline_data: missing 'mime_type'$"),
        ([{"role": "user", "parts": [{"inline_data": {"mime_type": "image/png",
                                                      "data": "@@@"}}]}],
         r"^contents\[0\]\.parts\[0\]\.inline_data\.data: "),
        ([{"role": "user", "parts": [{"file_data": {"mime_type": "image/png"}}]}],
         r"^contents\[0\]\.parts\[0\]\.file_data: missing 'file_uri'$"),
        ([{"role": "model", "parts": [{"text": "a", "thought": "yes"}]}],
         r"^contents\[0\]\.parts\[0\]\.thought: expected bool, got str$"),
        ([{"role": "model", "parts": [{"text": "a", "thoughtSignature": 5}]}],
         r"^contents\[0\]\.parts\[0\]\.thought_signature: expected base64 text, got int$"),
        ([{"role": "model", "parts": [{"text": "a", "thoughtSignature": "a b"}]}],
         r"^contents\[0\]\.parts\[0\]\.thought_signature: invalid base64 at character 1"),
    ],
)
def test_malformed_contents_are_located(contents, pattern):
    with pytest.raises(FormatError, match=pattern):
        read(contents)


def test_malformed_system_instruction_and_response_are_located():
    with pytest.raises(FormatError, match=r"^system_instruction: expected a string, a "
                                          r"Content object, a part or a list of parts, got "
                                          r"int$"):
        read([], 5)
    with pytest.raises(FormatError, match=r"^system_instruction\.parts\[0\]\.text: expected "
                                          r"str, got list$"):
        read([], {"parts": [{"text": ["x"]}]})
    with pytest.raises(FormatError, match=r"^response: expected a GenerateContentResponse "
                                          r"object, got str$"):
        reading.from_response("x")
    with pytest.raises(FormatError, match=r"^response\.candidates\[0\]\.content\.role: an "
                                          r"answer is the model's, got role 'user'$"):
        reading.from_response({"candidates": [{"content": {"role": "user", "parts": []}}]})
    with pytest.raises(FormatError, match=r"^response\.usage_metadata\.prompt_token_count: "
                                          r"expected int, got str$"):
        reading.from_response({"usageMetadata": {"promptTokenCount": "5"}})
    with pytest.raises(FormatError, match=r"^response\.candidates\[0\]\.content\.parts\[0\]"
                                          r"\.function_call\.name: expected str, got int$"):
        reading.from_response({"candidates": [{"content": {"parts": [
            {"functionCall": {"name": 1}}]}}]})


# --- the quick writer ---------------------------------------------------------------------------


_TEXT = st.text(max_size=12)
_NAMES = st.sampled_from(["f", "get_weather", "lookup"])
_IDS = st.one_of(st.none(), st.sampled_from(["c1", "c2", "gemini-call-0-0", "gemini-call-3-1"]))


@st.composite
def _items(draw: st.DrawFn, role: str) -> list[KernelContent]:
    """Items of the shapes the quick loop writes, and some it leaves to the general path."""
    items: list[KernelContent] = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["text", "call", "image", "audio", "thought", "odd"]))
        if kind == "text":
            item: KernelContent = TextContent(draw(_TEXT))
        elif kind == "call":
            arguments = draw(st.one_of(
                st.dictionaries(st.sampled_from("abc"), st.integers(0, 9), max_size=2),
                st.sampled_from(['{"a": 1}', "{}", " ", '{"b": [1, 2]}'])))
            item = FunctionCallContent(draw(_IDS), draw(_NAMES), arguments)
        elif kind == "image":
            item = ImageContent.from_base64(PNG, mime_type="image/png")
            if draw(st.booleans()):
                item = ImageContent(data=base64.b64decode(PNG), mime_type="image/png")
        elif kind == "audio":
            item = AudioContent.from_base64(WAV, mime_type="audio/wav")
        elif kind == "thought":
            item = ReasoningContent(draw(_TEXT), signature=draw(st.none() | st.just(SIG)),
                                    provider=draw(st.sampled_from(["gemini", None])))
        else:
            item = hinted(TextContent(draw(_TEXT)), thought_signature=SIG)
        items.append(item)
    return items


@st.composite
def _histories(draw: st.DrawFn) -> ChatHistory:
    messages: list[ChatMessageContent] = []
    names: dict[str, str] = {}
    for _ in range(draw(st.integers(0, 6))):
        role = draw(st.sampled_from(["system", "developer", "user", "assistant", "tool"]))
        if role == "tool":
            results = []
            for _ in range(draw(st.integers(1, 2))):
                call_id = draw(st.sampled_from(["c1", "c2", "gemini-call-0-0",
                                                "gemini-call-3-1", "gemini-call-1-0"]))
                named = draw(st.one_of(st.just(None), _NAMES)) if call_id in names else draw(
                    _NAMES)
                value = draw(st.one_of(_TEXT, st.just({"k": 1})))
                results.append(FunctionResultContent(call_id, value, name=named,
                                                     is_error=draw(st.booleans())))
            messages.append(ChatMessageContent("tool", items=results))
            continue
        if role in ("system", "developer"):
            items: list[KernelContent] = [TextContent(draw(_TEXT))]
        else:
            items = [item for item in draw(_items(role)) if role == "assistant" or not (
                isinstance(item, (FunctionCallContent, ReasoningContent)))]
        for item in items:
            if isinstance(item, FunctionCallContent) and item.id is not None:
                names[item.id] = item.name
        messages.append(ChatMessageContent(role, items=items))
    return ChatHistory(messages)


@settings(max_examples=300)
@given(history=_histories(), spelling=st.sampled_from(["snake", "camel"]))
def test_the_quick_writer_agrees_with_the_general_writer(history, spelling):
    keys = writing._KEYS[spelling]
    outcomes = []
    for quick in (False, True):
        with collect_losses() as lost:
            try:
                written: Any = writing._to_payload(history, None, keys, quick)
            except FormatError as error:  # the same error, at the same place, both ways
                written = (type(error), str(error))
        outcomes.append((json.dumps(written, sort_keys=True, default=repr), list(lost)))
    assert outcomes[0] == outcomes[1]


# --- the quick reader -------------------------------------------------------------------------


_PARTS = st.sampled_from([
    {"text": "a"},
    {"text": "b", "thought": True},
    {"text": "c", "thought_signature": SIG},
    {"functionCall": {"name": "f", "args": {"x": 1}}},
    {"function_call": {"id": "c1", "name": "f", "args": {}}},
    {"function_call": {"name": "g"}},
    {"function_response": {"name": "f", "response": {"result": "r"}}},
    {"functionResponse": {"id": "c1", "name": "f", "response": {"result": "s"}}},
    {"function_response": {"name": "g", "response": {"output": "o"}}},
    {"inline_data": {"mime_type": "image/png", "data": PNG}},
    {"inlineData": {"mimeType": "audio/wav", "data": WAV}},
    {"inline_data": {"mime_type": "application/pdf", "data": PDF}},
    {"inline_data": {"mime_type": "text/plain; charset=utf-8", "data": "aGk="}},
    {"inline_data": {"mime_type": "image/png", "data": "@@"}},
    {"executable_code": {"code": "1", "language": "PYTHON"}},
    {"thought": True},
])


@st.composite
def _payloads(draw: st.DrawFn) -> tuple[list[Any], Any]:
    contents = []
    for _ in range(draw(st.integers(0, 6))):
        content: dict[str, Any] = {"role": draw(st.sampled_from(["user", "model", "tool"])),
                                   "parts": draw(st.lists(_PARTS, max_size=4))}
        if draw(st.integers(0, 5)) == 0:
            del content["role"]
        contents.append(content)
    system = draw(st.sampled_from([None, "s", {"parts": [{"text": "s"}, {"text": "t"}]},
                                   {"parts": [{"text": "s", "thought": True}]}]))
    return contents, system


@settings(max_examples=300)
@given(payload=_payloads())
def test_the_quick_reader_agrees_with_the_general_reader(payload):
    contents, system = payload
    outcomes = []
    for quick in (False, True):
        try:
            history = reading._from_payload(contents, system, quick)
        except FormatError as error:  # the same error, at the same place, both ways
            outcomes.append(str(error))
        else:
            outcomes.append([(m, m.metadata, [i.metadata for i in m.items]) for m in history])
    assert outcomes[0] == outcomes[1]


def test_the_system_instruction_takes_text_only() -> None:
    """Gemini's ``system_instruction`` is text only: anything else there is refused or dropped."""
    history = ChatHistory()
    history.add_system_message(items=[TextContent("Be brief."), ImageContent.from_base64(
        PNG, mime_type="image/png")])
    history.add_developer_message(items=[ReasoningContent("why", provider="gemini")])
    history.add_user_message("hi")
    with pytest.raises(UnsupportedContentError) as raised:
        writing.to_payload(history)
    assert str(raised.value) == (
        "messages[0].items[1]: Gemini cannot carry image content in a system message "
        "(pass on_unsupported='warn' to leave it out)"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = writing.to_payload(history, on_unsupported="warn")
    assert [str(note.message) for note in caught] == [
        "messages[0].items[1]: dropped: Gemini cannot carry image content in a system message",
        "messages[1].items[0]: dropped: Gemini cannot carry reasoning content in a developer "
        "message",
    ]
    assert payload == {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "system_instruction": {"parts": [{"text": "Be brief."}]},
    }
