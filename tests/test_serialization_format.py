"""The exact JSON `semantic_chat.serialization` writes, lazy base64, and the public converter."""

from __future__ import annotations

import json
from typing import Any

import attrs
import cattrs
import pytest
from json_backends import BACKENDS, backend

from semantic_chat import (
    AudioContent,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    SerializationError,
    TextContent,
    UnknownContent,
    UnsupportedVersionError,
    Usage,
    jsoncodec,
    serialization,
)
from semantic_chat.contents import binary as binary_module
from semantic_chat.serialization import (
    FORMAT_VERSION,
    configure_converter,
    from_dict,
    from_json,
    make_converter,
    to_dict,
    to_json,
)

PNG_HEAD = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
PNG_HEAD_B64 = "iVBORw0KGgoAAAANSUhEUg=="


def sample_history() -> ChatHistory:
    history = ChatHistory(system_message="You are terse.")
    history.add_user_message(
        items=[
            TextContent("What is in these? é😀"),
            ImageContent(data=PNG_HEAD, mime_type="image/png"),
            ImageContent(uri="https://example.com/cat.jpg", detail="low"),
            FileContent(file_id="file-abc123", filename="report.pdf"),
        ],
        name="alice",
    )
    history.add_assistant_message(
        items=[
            ReasoningContent("Check the weather.", signature="c2lnbmF0dXJl"),
            FunctionCallContent(
                "call_1",
                "get_weather",
                '{"city": "Paris",  "unit":"C"}',
                metadata={"index_hint": 0},
            ),
        ],
        id="resp_1",
        finish_reason="tool_calls",
        usage=Usage(120, 30, 150, cached_tokens=100),
        model_id="gpt-x",
        inner_content={"raw": "provider object"},
    )
    history.add_tool_message(
        {"temp": 21.5, "sky": "clear", "alerts": [], "ok": True, "station": None},
        call_id="call_1",
        name="get_weather",
    )
    history.add_message(
        ChatMessageContent(
            "tool",
            items=[
                FunctionResultContent(
                    "call_2",
                    [TextContent("chart:"), ImageContent(uri="https://example.com/chart.png")],
                    is_error=True,
                )
            ],
        )
    )
    history.add_assistant_message(
        items=[RefusalContent("I can't help with that.")],
        finish_reason="stop",
        metadata={"provider": "openai", "logprobs": None, "scores": [0.5, 1e-7]},
    )
    return history


SAMPLE_COMPACT = (
    '{"version":1,"messages":['
    '{"role":"system","items":[{"type":"text","text":"You are terse."}]},'
    '{"role":"user","items":['
    '{"type":"text","text":"What is in these? é😀"},'
    '{"type":"image","data":"iVBORw0KGgoAAAANSUhEUg==","mime_type":"image/png"},'
    '{"type":"image","uri":"https://example.com/cat.jpg","detail":"low"},'
    '{"type":"file","file_id":"file-abc123","filename":"report.pdf"}'
    '],"name":"alice"},'
    '{"role":"assistant","items":['
    '{"type":"reasoning","text":"Check the weather.","signature":"c2lnbmF0dXJl"},'
    '{"type":"function_call","id":"call_1","name":"get_weather","metadata":{"index_hint":0},'
    '"arguments":"{\\"city\\": \\"Paris\\",  \\"unit\\":\\"C\\"}"}'
    '],"id":"resp_1","finish_reason":"tool_calls",'
    '"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150,"cached_tokens":100},'
    '"model_id":"gpt-x"},'
    '{"role":"tool","items":[{"type":"function_result","call_id":"call_1","name":"get_weather",'
    '"result":{"temp":21.5,"sky":"clear","alerts":[],"ok":true,"station":null}}]},'
    '{"role":"tool","items":[{"type":"function_result","call_id":"call_2","is_error":true,'
    '"result_items":[{"type":"text","text":"chart:"},'
    '{"type":"image","uri":"https://example.com/chart.png"}]}]},'
    '{"role":"assistant","items":[{"type":"refusal","text":"I can\'t help with that."}],'
    '"finish_reason":"stop",'
    '"metadata":{"provider":"openai","logprobs":null,"scores":[0.5,1e-7]}}'
    "]}"
)

SAMPLE_INDENTED = """\
{
  "version": 1,
  "messages": [
    {
      "role": "system",
      "items": [
        {
          "type": "text",
          "text": "You are terse."
        }
      ]
    },
    {
      "role": "user",
      "items": [
        {
          "type": "text",
          "text": "What is in these? é😀"
        },
        {
          "type": "image",
          "data": "iVBORw0KGgoAAAANSUhEUg==",
          "mime_type": "image/png"
        },
        {
          "type": "image",
          "uri": "https://example.com/cat.jpg",
          "detail": "low"
        },
        {
          "type": "file",
          "file_id": "file-abc123",
          "filename": "report.pdf"
        }
      ],
      "name": "alice"
    },
    {
      "role": "assistant",
      "items": [
        {
          "type": "reasoning",
          "text": "Check the weather.",
          "signature": "c2lnbmF0dXJl"
        },
        {
          "type": "function_call",
          "id": "call_1",
          "name": "get_weather",
          "metadata": {
            "index_hint": 0
          },
          "arguments": "{\\"city\\": \\"Paris\\",  \\"unit\\":\\"C\\"}"
        }
      ],
      "id": "resp_1",
      "finish_reason": "tool_calls",
      "usage": {
        "prompt_tokens": 120,
        "completion_tokens": 30,
        "total_tokens": 150,
        "cached_tokens": 100
      },
      "model_id": "gpt-x"
    },
    {
      "role": "tool",
      "items": [
        {
          "type": "function_result",
          "call_id": "call_1",
          "name": "get_weather",
          "result": {
            "temp": 21.5,
            "sky": "clear",
            "alerts": [],
            "ok": true,
            "station": null
          }
        }
      ]
    },
    {
      "role": "tool",
      "items": [
        {
          "type": "function_result",
          "call_id": "call_2",
          "is_error": true,
          "result_items": [
            {
              "type": "text",
              "text": "chart:"
            },
            {
              "type": "image",
              "uri": "https://example.com/chart.png"
            }
          ]
        }
      ]
    },
    {
      "role": "assistant",
      "items": [
        {
          "type": "refusal",
          "text": "I can't help with that."
        }
      ],
      "finish_reason": "stop",
      "metadata": {
        "provider": "openai",
        "logprobs": null,
        "scores": [
          0.5,
          1e-7
        ]
      }
    }
  ]
}"""


# --- whole documents -----------------------------------------------------------------------


@pytest.mark.parametrize("name", BACKENDS)
def test_sample_history_compact_json(name: str) -> None:
    with backend(name):
        assert to_json(sample_history()) == SAMPLE_COMPACT
        assert to_json(sample_history(), indent=None) == SAMPLE_COMPACT


@pytest.mark.parametrize("name", BACKENDS)
def test_sample_history_indented_json(name: str) -> None:
    with backend(name):
        assert to_json(sample_history(), indent=2) == SAMPLE_INDENTED


def test_indented_and_compact_describe_the_same_document() -> None:
    assert json.loads(SAMPLE_INDENTED) == json.loads(SAMPLE_COMPACT)
    stdlib = json.dumps(json.loads(SAMPLE_COMPACT), indent=2, ensure_ascii=False)
    assert stdlib.replace("1e-07", "1e-7") == SAMPLE_INDENTED


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("text", [SAMPLE_COMPACT, SAMPLE_INDENTED], ids=["compact", "indented"])
def test_sample_history_reads_back(name: str, text: str) -> None:
    with backend(name):
        history = from_json(text, ChatHistory)
        assert history == sample_history()
        assert to_json(history) == SAMPLE_COMPACT
        assert to_json(history, indent=2) == SAMPLE_INDENTED


def test_sample_history_read_back_field_by_field() -> None:
    history = from_json(SAMPLE_COMPACT, ChatHistory)
    assert [str(message.role) for message in history] == [
        "system", "user", "assistant", "tool", "tool", "assistant"
    ]
    user = history[1]
    assert user.name == "alice"
    text, image, by_uri, file = user.items
    assert text == TextContent("What is in these? é😀")
    assert type(image) is ImageContent
    assert image.mime_type == "image/png"
    assert image.data == PNG_HEAD
    assert by_uri == ImageContent(uri="https://example.com/cat.jpg", detail="low")
    assert file == FileContent(file_id="file-abc123", filename="report.pdf")
    assistant = history[2]
    reasoning, call = assistant.items
    assert reasoning == ReasoningContent("Check the weather.", signature="c2lnbmF0dXJl")
    assert call.arguments == '{"city": "Paris",  "unit":"C"}'
    assert call.inner_content is None
    assert assistant.inner_content is None
    assert assistant.usage == Usage(120, 30, 150, cached_tokens=100)
    assert assistant.usage.reasoning_tokens is None
    assert assistant.finish_reason == "tool_calls"
    assert assistant.model_id == "gpt-x"
    assert assistant.id == "resp_1"
    (result,) = history[3].items
    assert result.result == {"temp": 21.5, "sky": "clear", "alerts": [], "ok": True,
                             "station": None}
    (multimodal,) = history[4].items
    assert multimodal.is_error is True
    assert multimodal.result == [
        TextContent("chart:"), ImageContent(uri="https://example.com/chart.png")
    ]
    assert history[5].metadata == {"provider": "openai", "logprobs": None, "scores": [0.5, 1e-7]}


def test_empty_history() -> None:
    assert to_dict(ChatHistory()) == {"version": 1, "messages": []}
    assert to_json(ChatHistory()) == '{"version":1,"messages":[]}'
    assert to_json(ChatHistory(), indent=2) == '{\n  "version": 1,\n  "messages": []\n}'
    assert FORMAT_VERSION == 1


# --- single objects: exact dicts, defaults and None left out --------------------------------


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (TextContent("hi"), {"type": "text", "text": "hi"}),
        (TextContent(""), {"type": "text", "text": ""}),
        (TextContent("hi", metadata={"a": [1]}), {"type": "text", "text": "hi",
                                                  "metadata": {"a": [1]}}),
        (RefusalContent("no"), {"type": "refusal", "text": "no"}),
        (ReasoningContent(), {"type": "reasoning"}),
        (
            ReasoningContent("r", encrypted="enc", provider="openai"),
            {"type": "reasoning", "text": "r", "encrypted": "enc", "provider": "openai"},
        ),
        (FunctionCallContent(None, "f"), {"type": "function_call", "name": "f"}),
        (FunctionCallContent("c", "f", {}), {"type": "function_call", "id": "c", "name": "f",
                                             "arguments": {}}),
        (FunctionCallContent("c", "f", ""), {"type": "function_call", "id": "c", "name": "f",
                                             "arguments": ""}),
        (FunctionCallContent("c", "f", index=0), {"type": "function_call", "id": "c",
                                                  "name": "f", "index": 0}),
        (FunctionResultContent(None), {"type": "function_result"}),
        (FunctionResultContent("c", is_error=False), {"type": "function_result",
                                                      "call_id": "c"}),
        (FunctionResultContent("c", ""), {"type": "function_result", "call_id": "c",
                                          "result": ""}),
        (FunctionResultContent("c", 0), {"type": "function_result", "call_id": "c",
                                         "result": 0}),
        (FunctionResultContent("c", False), {"type": "function_result", "call_id": "c",
                                             "result": False}),
        (FunctionResultContent("c", []), {"type": "function_result", "call_id": "c",
                                          "result": []}),
        (FunctionResultContent("c", {}), {"type": "function_result", "call_id": "c",
                                          "result": {}}),
        (
            FunctionResultContent("c", [TextContent("a")], name="f"),
            {"type": "function_result", "call_id": "c", "name": "f",
             "result_items": [{"type": "text", "text": "a"}]},
        ),
        (ImageContent(uri="https://x/a.png"), {"type": "image", "uri": "https://x/a.png"}),
        (
            ImageContent(data=PNG_HEAD),
            {"type": "image", "data": PNG_HEAD_B64, "mime_type": "image/png"},
        ),
        (
            AudioContent(file_id="file-1", mime_type="audio/wav"),
            {"type": "audio", "mime_type": "audio/wav", "file_id": "file-1"},
        ),
        (FileContent(file_id="file-1"), {"type": "file", "file_id": "file-1"}),
        (
            BinaryContent(data=b"", mime_type="application/octet-stream"),
            {"type": "binary", "data": "", "mime_type": "application/octet-stream"},
        ),
        (UnknownContent("x_new", {"a": 1, "b": [None]}), {"type": "x_new", "a": 1,
                                                          "b": [None]}),
        (UnknownContent("x_empty"), {"type": "x_empty"}),
        (Usage(), {}),
        (Usage(cached_tokens=0, reasoning_tokens=0), {"cached_tokens": 0,
                                                      "reasoning_tokens": 0}),
        (Usage(1, 2, 3), {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}),
        (ChatMessageContent("user"), {"role": "user"}),
        (ChatMessageContent("User", "x", finish_reason="STOP"),
         {"role": "user", "items": [{"type": "text", "text": "x"}], "finish_reason": "stop"}),
        (ChatMessageContent("critic", name="n", id="i", model_id="m"),
         {"role": "critic", "name": "n", "id": "i", "model_id": "m"}),
    ],
    ids=lambda value: type(value).__name__ if not isinstance(value, dict) else "",
)
def test_exact_dicts(obj: Any, expected: dict[str, Any]) -> None:
    written = to_dict(obj)
    assert written == expected
    assert list(written) == list(expected)  # and in this key order
    assert to_json(obj) == json.dumps(expected, separators=(",", ":"), ensure_ascii=False)


def test_function_call_without_id_has_no_id_key() -> None:
    assert "id" not in to_dict(FunctionCallContent(None, "f"))
    assert "id" not in to_json(FunctionCallContent(None, "f", '{"id": 1}'))[:30]


def test_message_inner_content_is_never_written() -> None:
    message = ChatMessageContent("user", "a", inner_content=object())
    assert to_dict(message) == {"role": "user", "items": [{"type": "text", "text": "a"}]}
    assert "inner_content" not in to_json(ChatHistory([message]))
    message.inner_content = {"raw": 1}
    assert to_dict(message) == {"role": "user", "items": [{"type": "text", "text": "a"}]}


def test_message_inner_content_is_not_read() -> None:
    data = {"role": "user", "inner_content": {"raw": 1}}
    assert from_dict(data, ChatMessageContent).inner_content is None


_ITEM_INNER_CONTENT_BUG = (
    "items write inner_content: _field_overrides replaces the omit override of "
    "inner_content (annotated Any) with the JSON-value hook, so a JSON inner_content is "
    "written and read back, and a raw provider object makes to_json raise "
    "'inner_content: object is not a JSON value'"
)


@pytest.mark.parametrize(
    "inner", [{"raw": 1}, "raw text", 0], ids=["dict", "str", "int"]
)
def test_item_json_inner_content_is_never_written(inner: Any) -> None:
    item = TextContent("a", inner_content=inner)
    assert to_dict(item) == {"type": "text", "text": "a"}


def test_item_raw_inner_content_does_not_stop_writing() -> None:
    call = FunctionCallContent("c", "f", "{}", inner_content=object())
    history = ChatHistory([ChatMessageContent("assistant", items=[call])])
    assert to_json(history) == (
        '{"version":1,"messages":[{"role":"assistant","items":'
        '[{"type":"function_call","id":"c","name":"f","arguments":"{}"}]}]}'
    )


def test_item_inner_content_is_not_read() -> None:
    data = {"type": "text", "text": "a", "inner_content": {"raw": 1}}
    assert from_dict(data, KernelContent).inner_content is None


def test_labels_are_written_lower_case() -> None:
    message = ChatMessageContent("ASSISTANT", finish_reason="Tool_Calls")
    assert to_json(message) == '{"role":"assistant","finish_reason":"tool_calls"}'


# --- function calls and results ------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments",
    [
        '{"city": "Paris",  "unit":"C"}',
        '{\n  "a": 1\n}',
        '{"a":"\\u00e9", "b" : [1,2]}',
        "not json at all",
        "",
        " ",
        '{"x": 1e-07, "y": 5e-05}',
    ],
    ids=repr,
)
@pytest.mark.parametrize("name", BACKENDS)
def test_function_call_arguments_string_kept_byte_for_byte(name: str, arguments: str) -> None:
    with backend(name):
        text = to_json(FunctionCallContent("c", "f", arguments))
        assert text == (
            '{"type":"function_call","id":"c","name":"f","arguments":'
            + json.dumps(arguments, ensure_ascii=False)
            + "}"
        )
        read = from_json(text, KernelContent)
        assert read.arguments == arguments
        assert type(read.arguments) is str


def test_function_call_arguments_mapping_written_as_object() -> None:
    call = FunctionCallContent("c", "f", {"city": "Paris", "n": [1, 2.5, None]})
    text = to_json(call)
    assert text == (
        '{"type":"function_call","id":"c","name":"f",'
        '"arguments":{"city":"Paris","n":[1,2.5,null]}}'
    )
    assert from_json(text, FunctionCallContent) == call


@pytest.mark.parametrize(
    ("result", "written"),
    [
        ({"a": [1, 2.5], "b": {"c": None}}, '{"a":[1,2.5],"b":{"c":null}}'),
        ([1, "two", 3.0, None, True], '[1,"two",3.0,null,true]'),
        ([{"type": "text", "text": "looks like an item"}],
         '[{"type":"text","text":"looks like an item"}]'),
        (42, "42"),
        (-1.5, "-1.5"),
        (1e-7, "1e-7"),
        (True, "true"),
        (False, "false"),
        ("{'a': 1}", '"{\'a\': 1}"'),
        ("", '""'),
        ([], "[]"),
        ({}, "{}"),
    ],
    ids=repr,
)
def test_function_result_json_values_written_as_json(result: Any, written: str) -> None:
    item = FunctionResultContent("c", result)
    text = to_json(item)
    assert text == f'{{"type":"function_result","call_id":"c","result":{written}}}'
    read = from_json(text, KernelContent)
    assert read == item
    assert read.result == result
    assert type(read.result) is type(result)


def test_function_result_none_is_left_out() -> None:
    item = FunctionResultContent("c", None)
    assert to_json(item) == '{"type":"function_result","call_id":"c"}'
    assert from_json(to_json(item), KernelContent).result is None


def test_function_result_items_written_under_result_items() -> None:
    item = FunctionResultContent(
        "c",
        [TextContent("a"), ImageContent(data=PNG_HEAD, mime_type="image/png"),
         FunctionResultContent("inner", [TextContent("nested")])],
    )
    text = to_json(item)
    assert text == (
        '{"type":"function_result","call_id":"c","result_items":['
        '{"type":"text","text":"a"},'
        '{"type":"image","data":"iVBORw0KGgoAAAANSUhEUg==","mime_type":"image/png"},'
        '{"type":"function_result","call_id":"inner",'
        '"result_items":[{"type":"text","text":"nested"}]}]}'
    )
    read = from_json(text, FunctionResultContent)
    assert read == item
    assert [type(part) for part in read.result] == [
        TextContent, ImageContent, FunctionResultContent
    ]
    assert read.result[1].is_decoded is False


# --- lazy base64 -----------------------------------------------------------------------------


@pytest.fixture
def decode_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = binary_module.decode_base64

    def counting(text: str) -> bytes:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(binary_module, "decode_base64", counting)
    return calls


IMAGE_JSON = '{"type":"image","data":"iVBORw0KGgoAAAANSUhEUg==","mime_type":"image/png"}'


@pytest.mark.parametrize("name", BACKENDS)
def test_payload_read_from_json_stays_base64_until_data_is_read(
    name: str, decode_calls: list[str]
) -> None:
    with backend(name):
        item = from_json(IMAGE_JSON, KernelContent)
        assert type(item) is ImageContent
        assert item.is_decoded is False
        assert item.base64 == PNG_HEAD_B64
        assert item.is_decoded is False
        # writing an undecoded payload copies the text: no decoding happens
        assert to_json(item) == IMAGE_JSON
        assert to_dict(item)["data"] == PNG_HEAD_B64
        assert type(to_dict(item)["data"]) is str
        assert item.is_decoded is False
        assert decode_calls == []
        # first read decodes, once, and keeps the bytes
        data = item.data
        assert data == PNG_HEAD
        assert item.is_decoded is True
        assert item.data is data
        assert item.data is data
        assert decode_calls == [PNG_HEAD_B64]
        # writing a decoded payload encodes it again, to the same text
        assert to_json(item) == IMAGE_JSON
        assert item.base64 == PNG_HEAD_B64


def test_payload_read_with_from_dict_is_lazy_too() -> None:
    item = from_dict(json.loads(IMAGE_JSON), ImageContent)
    assert item.is_decoded is False
    assert item.data == PNG_HEAD
    assert item.is_decoded is True


def test_payloads_in_a_history_stay_undecoded(decode_calls: list[str]) -> None:
    payload = bytes(range(256)) * 64
    history = ChatHistory([
        ChatMessageContent("user", items=[
            AudioContent(data=payload, mime_type="audio/wav"),
            FileContent(data=payload, mime_type="application/pdf", filename="a.pdf"),
        ])
    ])
    text = to_json(history)
    read = from_json(text, ChatHistory)
    audio, file = read[0].items
    assert (audio.is_decoded, file.is_decoded) == (False, False)
    assert to_json(read) == text
    assert (audio.is_decoded, file.is_decoded) == (False, False)
    assert decode_calls == []
    assert file.data == payload
    assert (audio.is_decoded, file.is_decoded) == (False, True)


def test_bytes_are_base64_in_json_and_in_dicts() -> None:
    item = BinaryContent(data=b"\x00\xff\xfe", mime_type="application/octet-stream")
    assert to_dict(item) == {"type": "binary", "data": "AP/+",
                             "mime_type": "application/octet-stream"}
    assert to_json(item) == '{"type":"binary","data":"AP/+","mime_type":"application/octet-stream"}'
    assert item.is_decoded is True


def test_built_from_base64_is_written_without_decoding(decode_calls: list[str]) -> None:
    item = ImageContent.from_base64(PNG_HEAD_B64, "image/png")
    assert item.is_decoded is False
    assert to_json(item) == IMAGE_JSON
    assert item.is_decoded is False
    assert decode_calls == []


# --- the converter composes --------------------------------------------------------------


@attrs.define
class Session:
    id: str
    history: ChatHistory
    pinned: KernelContent | None = None
    attachments: list[KernelContent] = attrs.Factory(list)
    usage: Usage | None = None
    title: str = ""


def sample_session() -> Session:
    history = ChatHistory()
    history.add_user_message("hi")
    history.add_assistant_message("hello", usage=Usage(1, 2, 3))
    return Session(
        "s1", history, pinned=TextContent("p"),
        attachments=[ImageContent(uri="https://x/a.png"), UnknownContent("x_new", {"k": 1})],
    )


SESSION_JSON = (
    '{"id":"s1","history":{"version":1,"messages":['
    '{"role":"user","items":[{"type":"text","text":"hi"}]},'
    '{"role":"assistant","items":[{"type":"text","text":"hello"}],'
    '"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}]},'
    '"pinned":{"type":"text","text":"p"},'
    '"attachments":[{"type":"image","uri":"https://x/a.png"},{"type":"x_new","k":1}]}'
)


def test_user_class_holding_a_history_through_the_public_converter() -> None:
    written = serialization.converter.unstructure(sample_session())
    assert jsoncodec.dumps(written) == SESSION_JSON
    read = serialization.converter.structure(jsoncodec.loads(SESSION_JSON), Session)
    assert read == sample_session()
    assert type(read.attachments[1]) is UnknownContent


def test_user_class_errors_carry_the_library_error() -> None:
    data = {"id": "s", "history": {"version": 9, "messages": []}}
    with pytest.raises(cattrs.ClassValidationError) as info:
        serialization.converter.structure(data, Session)
    (inner,) = info.value.exceptions
    assert isinstance(inner, UnsupportedVersionError)
    assert str(inner) == (
        "version: found version 9, this library reads version 1 and older: upgrade semantic_chat"
    )


def test_user_class_structure_of_unstructure_without_json() -> None:
    written = serialization.converter.unstructure(sample_session())
    assert type(written["history"]["messages"][0]["role"]) is str
    assert serialization.converter.structure(written, Session) == sample_session()


def test_make_converter_and_configure_converter_write_the_same() -> None:
    fresh = make_converter()
    assert fresh is not serialization.converter
    assert jsoncodec.dumps(fresh.unstructure(sample_history())) == SAMPLE_COMPACT
    assert fresh.structure(json.loads(SAMPLE_COMPACT), ChatHistory) == sample_history()
    own = cattrs.Converter()
    configure_converter(own)
    assert jsoncodec.dumps(own.unstructure(sample_history())) == SAMPLE_COMPACT
    assert own.structure(json.loads(SAMPLE_COMPACT), ChatHistory) == sample_history()


def test_make_converter_strict_refuses_unknown_labels() -> None:
    strict = make_converter(strict=True)
    with pytest.raises(SerializationError) as info:
        strict.structure({"type": "x_nobody"}, KernelContent)
    assert str(info.value) == "unknown content type 'x_nobody': no class is registered under it"
    lenient = make_converter()
    assert lenient.structure({"type": "x_nobody"}, KernelContent) == UnknownContent("x_nobody")
