"""Semantic Kernel's Python JSON (``sk-python``): SK's own histories and ours, both ways.

Histories are built with Semantic Kernel itself and serialized by it
(``ChatHistory.serialize()``); we read them, write them back, and Semantic Kernel restores
what we wrote (``ChatHistory.restore_chat_history``) equal to what it restores from its own.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import identifiers, json_values

from semantic_chat import (
    CONTENT_TYPES,
    AudioContent,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    Citation,
    ContentType,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    UnknownContent,
    Usage,
    formats,
)
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import sk_python
from semantic_chat.formats.wire import HINT_KEYS, ConversionWarning
from semantic_chat.serialization import from_json, to_dict, to_json

sk = pytest.importorskip("semantic_kernel.contents")
from semantic_kernel.contents.annotation_content import AnnotationContent  # noqa: E402
from semantic_kernel.contents.binary_content import BinaryContent as SKBinary  # noqa: E402
from semantic_kernel.contents.streaming_annotation_content import (  # noqa: E402
    StreamingAnnotationContent,
)
from semantic_kernel.contents.streaming_file_reference_content import (  # noqa: E402
    StreamingFileReferenceContent,
)

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

PNG = ImageContent.from_array(np.zeros((2, 2, 3), np.uint8)).data
WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "


def sk_every_kind() -> Any:
    """A Semantic Kernel history with every content kind its messages hold, built by SK."""
    return sk.ChatHistory(
        system_message="Be brief.",
        messages=[
            sk.ChatMessageContent(role=sk.AuthorRole.USER, name="ada", items=[
                sk.TextContent(text="Look at these.", encoding="utf-8"),
                sk.ImageContent(uri="https://example.com/cat.png"),
                sk.ImageContent(data=PNG, data_format="base64", mime_type="image/png",
                                metadata={"source": "camera"}),
                sk.ImageContent(data_uri="data:image/png;base64,iVBORw0KGgo="),
                sk.AudioContent(data=WAV, data_format="base64", mime_type="audio/wav"),
                SKBinary(data=b"%PDF-1.7", mime_type="application/pdf"),
                sk.FileReferenceContent(file_id="file-1"),
                StreamingFileReferenceContent(file_id="file-2"),
            ]),
            sk.ChatMessageContent(
                role=sk.AuthorRole.ASSISTANT, ai_model_id="gpt-4o", metadata={"id": "resp_1"},
                finish_reason=sk.FinishReason.TOOL_CALLS, status="completed", items=[
                    sk.ReasoningContent(text="The weather tool knows."),
                    sk.FunctionCallContent(id="call_1", function_name="get", plugin_name="weather",
                                           arguments='{"city": "Paris"}'),
                    sk.FunctionCallContent(id="call_2", name="now", arguments={"tz": "CET"}),
                ],
            ),
            sk.ChatMessageContent(role=sk.AuthorRole.TOOL, items=[
                sk.FunctionResultContent(id="call_1", function_name="get", plugin_name="weather",
                                         result={"temp": 18.5, "sky": "clear", "rain": None}),
            ]),
            sk.ChatMessageContent(role=sk.AuthorRole.TOOL, items=[
                sk.FunctionResultContent(id="call_2", function_name="now", result="12:00"),
            ]),
            sk.ChatMessageContent(
                role=sk.AuthorRole.ASSISTANT, finish_reason=sk.FinishReason.STOP, items=[
                    sk.TextContent(text="18.5 °C and clear, says Météo."),
                    AnnotationContent(url="https://meteo.fr", title="Météo", quote="clear",
                                      start_index=13, end_index=18, citation_type="url_citation"),
                    StreamingAnnotationContent(file_id="file-9", quote="18.5"),
                ],
            ),
            sk.ChatMessageContent(role=sk.AuthorRole.DEVELOPER, content="Answer in French."),
        ],
    )


def serialized(history: Any) -> dict[str, Any]:
    return json.loads(history.serialize())  # type: ignore[no-any-return]


def restored(payload: dict[str, Any]) -> Any:
    return sk.ChatHistory.restore_chat_history(json.dumps(payload))


def without_hints(history: ChatHistory) -> dict[str, Any]:
    """Our JSON of a history without the sk_python hints (and metadata left empty by them)."""
    def strip(value: Any) -> Any:
        if isinstance(value, list):
            return [strip(element) for element in value]
        if not isinstance(value, dict):
            return value
        stripped = {key: strip(element) for key, element in value.items()}
        metadata = stripped.get("metadata")
        if isinstance(metadata, dict):
            metadata.pop("sk_python", None)
            if not metadata:
                del stripped["metadata"]
        return stripped
    return strip(to_dict(history))  # type: ignore[no-any-return]


# Semantic Kernel's own histories, read and written back.


def test_every_kind_reads_and_writes_back_as_semantic_kernel_wrote_it():
    original = serialized(sk_every_kind())
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        written = sk_python.to_payload(sk_python.from_payload(original))
    assert written == original


def test_what_we_write_back_restores_equal_to_what_semantic_kernel_restores():
    history = sk_every_kind()
    ours = restored(sk_python.to_payload(sk_python.from_payload(serialized(history))))
    assert ours == sk.ChatHistory.restore_chat_history(history.serialize())
    # Without a dict result (which Semantic Kernel itself restores as its repr), equal to
    # the history as it was built.
    del history.messages[3]
    ours = restored(sk_python.to_payload(sk_python.from_payload(serialized(history))))
    assert ours == history


def test_a_semantic_kernel_history_object_is_read_by_its_serialize():
    history = sk_every_kind()
    assert sk_python.from_payload(history) == sk_python.from_payload(serialized(history))


def test_our_json_keeps_what_semantic_kernel_needs_back():
    original = serialized(sk_every_kind())
    ours = from_json(to_json(sk_python.from_payload(original)), ChatHistory)
    assert sk_python.to_payload(ours) == original


def test_every_kind_reads_as_our_items():
    history = sk_python.from_payload(serialized(sk_every_kind()))
    system, user, assistant, result, other_result, answer, developer = history
    assert (system.role, system.text) == ("system", "Be brief.")
    assert user.name == "ada"
    text, by_uri, image, small, audio, binary, file, streaming_file = user.items
    assert text == TextContent("Look at these.", metadata={"sk_python": {"encoding": "utf-8"}})
    assert by_uri == ImageContent(uri="https://example.com/cat.png")
    assert image == ImageContent(data=PNG, mime_type="image/png", metadata={"source": "camera"})
    assert small.data == b"\x89PNG\r\n\x1a\n"
    assert audio == AudioContent(data=WAV, mime_type="audio/wav")
    assert binary == BinaryContent(
        data=b"%PDF-1.7", mime_type="application/pdf",
        metadata={"sk_python": {"data_format": ""}},
    )
    assert file == FileContent(file_id="file-1")
    assert streaming_file == FileContent(
        file_id="file-2", metadata={"sk_python": {"streaming": True}}
    )
    assert assistant.model_id == "gpt-4o"
    assert assistant.finish_reason == "tool_calls"
    assert assistant.metadata == {"id": "resp_1", "sk_python": {"status": "completed"}}
    assert assistant.items == [
        ReasoningContent("The weather tool knows."),
        FunctionCallContent("call_1", "weather-get", '{"city": "Paris"}'),
        FunctionCallContent("call_2", "now", {"tz": "CET"}),
    ]
    assert result.items == [FunctionResultContent(
        "call_1", {"temp": 18.5, "sky": "clear", "rain": None}, name="weather-get",
        metadata={"sk_python": {"result": "repr"}},
    )]
    assert other_result.items == [FunctionResultContent("call_2", "12:00", name="now")]
    assert answer.items == [TextContent("18.5 °C and clear, says Météo.", citations=[
        Citation(url="https://meteo.fr", title="Météo", cited_text="clear", text_start=13,
                 text_end=18, metadata={"sk_python": {"citation_type": "url_citation"}}),
        Citation(file_id="file-9", cited_text="18.5", metadata={"sk_python": {"streaming": True}}),
    ])]
    assert (developer.role, developer.text) == ("developer", "Answer in French.")


def test_usage_kept_as_semantic_kernel_connectors_keep_it_is_our_usage():
    from semantic_kernel.connectors.ai.completion_usage import CompletionUsage

    history = sk.ChatHistory(messages=[sk.ChatMessageContent(
        role="assistant", content="Hi", metadata={"id": "chatcmpl-1", "usage": CompletionUsage(
            prompt_tokens=10, completion_tokens=5,
        )},
    )])
    original = serialized(history)
    read = sk_python.from_payload(original)
    assert read[0].usage == Usage(prompt_tokens=10, completion_tokens=5, total_tokens=15)
    assert read[0].metadata == {"id": "chatcmpl-1"}
    assert sk_python.to_payload(read) == original
    # usage with details OpenAI gives and we do not model stays metadata
    original["messages"][0]["metadata"]["usage"]["prompt_tokens_details"] = {
        "audio_tokens": 0, "cached_tokens": 2,
    }
    read = sk_python.from_payload(original)
    assert read[0].usage is None
    assert sk_python.to_payload(read) == original


def test_usage_semantic_kernel_cannot_hold_is_reported():
    history = ChatHistory([ChatMessageContent("assistant", "Hi", metadata={"usage": 1}, usage=Usage(
        prompt_tokens=10, completion_tokens=5, total_tokens=15,
    ))])
    with pytest.warns(ConversionWarning) as caught:
        written = sk_python.to_payload(history)
    assert [str(warning.message) for warning in caught] == [
        "messages[0].usage: dropped: Semantic Kernel (Python) cannot carry token usage beside "
        "a metadata key 'usage'",
    ]
    assert written["messages"][0]["metadata"] == {"usage": 1}
    history[0].metadata.clear()
    history[0].usage = Usage(prompt_tokens=10, completion_tokens=5, total_tokens=20,
                             cache_creation_tokens=3)
    with pytest.warns(ConversionWarning) as caught:
        written = sk_python.to_payload(history)
    assert [str(warning.message) for warning in caught] == [
        "messages[0].usage.total_tokens: dropped: Semantic Kernel (Python) cannot carry a total "
        "other than prompt and completion tokens together",
        "messages[0].usage.cache_creation_tokens: dropped: Semantic Kernel (Python) cannot "
        "carry cache creation tokens",
    ]
    assert written["messages"][0]["metadata"] == {
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}
    }


def test_detected_and_converted_to_other_formats():
    original = serialized(sk_every_kind())
    assert formats.detect(original) == "sk-python"
    assert formats.convert({"messages": []}, "sk-python", target="sk-python") == {"messages": []}
    assert formats.detect({"messages": [{"role": "user", "content": "Hi"}]}) == "openai-chat"
    with pytest.warns(ConversionWarning):
        messages = formats.convert(original, target="openai-chat", on_unsupported="warn")
    assert messages[-1] == {"role": "developer", "content": "Answer in French."}
    assert messages[3] == {
        "role": "tool", "tool_call_id": "call_1",
        "content": '{"temp":18.5,"sky":"clear","rain":null}',
    }


# Where Semantic Kernel loses data, and what we do about it.


@pytest.mark.parametrize(("text", "expected"), [
    ("{'a': 1, 'b': [True, None, 2.5]}", {"a": 1, "b": [True, None, 2.5]}),
    ("[{'x': 'y'}]", [{"x": "y"}]),
    ("{}", {}),
])
def test_a_result_written_as_a_python_repr_is_read_back_as_the_value(text, expected):
    read = sk_python.from_payload({"messages": [_tool_message(text)]})
    result = read[0].items[0]
    assert result.result == expected
    assert result.metadata == {"sk_python": {"result": "repr"}}
    assert sk_python.to_payload(read)["messages"][0]["items"][0]["result"] == text


@pytest.mark.parametrize("text", [
    "{'a': (1, 2)}",          # a tuple: no JSON value
    "{1: 'a'}",               # a key that is not a string
    "{'a': 1,  'b': 2}",      # parses, but its repr is not this text: kept as written
    "__import__('os').getcwd()",  # never evaluated
    "{'a': float('nan')}",
    "[1, 2",
    '{"a": 1}',               # JSON text, not a repr: a string result
    "12",
])
def test_other_result_texts_stay_text(text):
    read = sk_python.from_payload({"messages": [_tool_message(text)]})
    assert read[0].items[0].result == text
    assert read[0].items[0].metadata == {}
    assert sk_python.to_payload(read)["messages"][0]["items"][0]["result"] == text


def _tool_message(result: str) -> dict[str, Any]:
    return {"metadata": {}, "content_type": "message", "role": "tool", "items": [
        {"metadata": {}, "content_type": "function_result", "id": "c", "result": result,
         "function_name": "f"},
    ]}


def test_metadata_written_into_a_data_uri_is_read_from_metadata_with_its_types():
    history = sk.ChatHistory(messages=[sk.ChatMessageContent(role="user", items=[
        sk.ImageContent(data=PNG, data_format="base64", mime_type="image/png",
                        metadata={"page": 2, "a b": "c,d"}),
    ])])
    original = serialized(history)
    # Semantic Kernel writes the metadata into the URI, and restores the page as "2".
    assert original["messages"][0]["items"][0]["data_uri"].startswith(
        "data:image/png;page=2;a b=c,d;base64,"
    )
    read = sk_python.from_payload(original)
    image = read[0].items[0]
    assert (image.data, image.mime_type) == (PNG, "image/png")
    assert image.metadata == {"page": 2, "a b": "c,d"}
    assert sk_python.to_payload(read) == original


def test_a_data_uri_beside_a_uri_and_in_text_form_is_kept():
    original = {"messages": [{"metadata": {}, "content_type": "message", "role": "user",
                              "items": [
        {"metadata": {}, "content_type": "image", "uri": "https://example.com/a.png",
         "data_uri": "data:image/png;base64,iVBORw0KGgo="},
        {"metadata": {}, "content_type": "binary", "data_uri": "data:text/plain;,hello"},
        {"metadata": {}, "content_type": "binary", "data_uri": "data:;base64,aGk="},
    ]}]}
    read = sk_python.from_payload(original)
    image, text, bare = read[0].items
    assert image.metadata == {"sk_python": {"uri": "https://example.com/a.png"}}
    assert (text.data, text.mime_type) == (b"hello", "text/plain")
    assert (bare.data, bare.mime_type) == (b"hi", "text/plain")
    assert bare.metadata == {"sk_python": {"header": "data:;base64"}}
    assert sk_python.to_payload(read) == original


def test_an_annotation_away_from_its_text_is_written_back_where_it_was():
    original = {"messages": [{"metadata": {}, "content_type": "message", "role": "assistant",
                              "items": [
        {"metadata": {}, "content_type": "annotation", "url": "https://a"},
        {"metadata": {}, "content_type": "text", "text": "One."},
        {"metadata": {}, "content_type": "reasoning"},
        {"metadata": {"k": 1}, "content_type": "annotation", "url": "https://b",
         "container_id": "cnt", "filename": "b.txt", "ai_model_id": "m", "extra": True},
    ]}]}
    read = sk_python.from_payload(original)
    first, text, reasoning = read[0].items
    assert first == UnknownContent(
        "annotation", {"url": "https://a"}, metadata={"sk_python": {"unknown": True}}
    )
    assert reasoning == ReasoningContent("", metadata={"sk_python": {"no_text": True}})
    assert text.citations == (Citation(url="https://b", filename="b.txt", metadata={
        "sk_python": {"position": 3, "container_id": "cnt", "ai_model_id": "m",
                      "metadata": {"k": 1}, "extra": {"extra": True}},
    }),)
    assert sk_python.to_payload(read) == original


def test_names_fields_and_metadata_sk_has_and_we_do_not_are_kept():
    original = {"system_message": None, "messages": [{
        "ai_model_id": "m", "metadata": {"sk_python": "theirs", "n": [1]},
        "content_type": "message", "role": "assistant", "encoding": "utf-8",
        "choice_index": 0, "items": [
            {"ai_model_id": "m", "metadata": {}, "content_type": "function_call", "id": "c",
             "call_id": "fc_1", "index": 2, "name": "x", "function_name": "y",
             "plugin_name": "z", "arguments": None},
        ]}]}
    read = sk_python.from_payload(original)
    message = read[0]
    assert message.metadata == {"n": [1], "sk_python": {
        "encoding": "utf-8", "metadata": {"sk_python": "theirs"}, "extra": {"choice_index": 0}
    }}
    assert message.items[0] == FunctionCallContent("c", "x", index=2, metadata={"sk_python": {
        "names": {"name": "x", "function_name": "y", "plugin_name": "z"},
        "call_id": "fc_1", "ai_model_id": "m",
    }})
    assert sk_python.to_payload(read) == {"messages": [
        {**original["messages"][0], "items": [{
            key: value for key, value in original["messages"][0]["items"][0].items()
            if key != "arguments"
        }]}
    ]}


def test_a_system_message_and_kinds_this_code_does_not_know_are_read():
    original = {"system_message": "Be brief.", "messages": [
        {"content_type": "message", "role": "user", "items": [
            {"content_type": "video", "uri": "https://v", "metadata": {"k": "v"},
             "ai_model_id": "m"},
            {"content_type": "text", "text": "Hi"},
        ]},
    ]}
    read = sk_python.from_payload(original)
    assert [message.role for message in read] == ["system", "user"]
    assert read[1].items[0] == UnknownContent("video", {"uri": "https://v"}, metadata={
        "k": "v", "sk_python": {"unknown": True, "ai_model_id": "m"},
    })
    assert read[1].metadata == {"sk_python": {"no_metadata": True}}
    assert sk_python.to_payload(read) == {"messages": [
        {"metadata": {}, "content_type": "message", "role": "system", "items": [
            {"metadata": {}, "content_type": "text", "text": "Be brief."}]},
        original["messages"][0],
    ]}


def test_an_object_with_only_model_dump_is_read_as_its_dump():
    history = sk_every_kind()

    class Dumped:
        def model_dump(self, **options: Any) -> Any:
            return history.model_dump(**options)

    assert sk_python.from_payload(Dumped()) == sk_python.from_payload(history)


def test_names_kept_in_hints_give_way_to_a_new_name():
    read = sk_python.from_payload({"messages": [{"content_type": "message", "role": "assistant",
                                                 "items": [
        {"content_type": "function_call", "id": "c", "name": "x", "function_name": "y"},
    ]}]})
    call = read[0].items[0]
    assert call.metadata == {"sk_python": {"no_metadata": True, "names": {
        "name": "x", "function_name": "y"
    }}}
    assert sk_python.to_payload(read)["messages"][0]["items"][0]["function_name"] == "y"
    call.name = "weather-get"
    written = sk_python.to_payload(read)["messages"][0]["items"][0]
    assert written == {"content_type": "function_call", "id": "c", "name": "weather-get",
                       "function_name": "get", "plugin_name": "weather"}


def test_what_semantic_kernel_cannot_hold_is_reported_where_it_is():
    history = ChatHistory([
        ChatMessageContent("user", items=[
            ImageContent(uri="https://example.com/a.png", detail="high"),
            FileContent(data=b"%PDF", mime_type="application/pdf", filename="a.pdf"),
        ]),
        ChatMessageContent("assistant", finish_reason="pause_turn", items=[
            RefusalContent("I cannot."),
            ReasoningContent("hm", signature="sig"),
            TextContent("See.", citations=[Citation(url="https://a", source_index=1)]),
        ]),
        ChatMessageContent("tool", items=[FunctionResultContent("c", "boom", is_error=True)]),
        ChatMessageContent("user", items=[
            FileContent(file_id="file-1", mime_type="application/pdf"),
        ]),
    ])
    with pytest.warns(ConversionWarning) as caught:
        written = sk_python.to_payload(history)
    assert [str(warning.message) for warning in caught] == [
        "messages[0].items[0].detail: dropped: Semantic Kernel (Python) cannot carry an "
        "image's detail",
        "messages[0].items[1].filename: dropped: Semantic Kernel (Python) cannot carry a "
        "file's name",
        "messages[1].items[0]: dropped: Semantic Kernel (Python) cannot carry a refusal as "
        "such (written as text)",
        "messages[1].items[1].signature: dropped: Semantic Kernel (Python) cannot carry a "
        "reasoning signature",
        "messages[1].items[2].citations[0].source_index: dropped: Semantic Kernel (Python) "
        "cannot carry source_index in a Semantic Kernel annotation",
        "messages[1].finish_reason: dropped: Semantic Kernel (Python) cannot carry the finish "
        "reason 'pause_turn'",
        "messages[2].items[0].is_error: dropped: Semantic Kernel (Python) cannot carry a "
        "result's error flag",
        "messages[3].items[0].mime_type: dropped: Semantic Kernel (Python) cannot carry the "
        "media type of a file by id",
    ]
    assert written["messages"][3]["items"] == [
        {"metadata": {}, "content_type": "file_reference", "file_id": "file-1", "tools": []}
    ]
    assert written["messages"][1]["items"][0] == {
        "metadata": {}, "content_type": "text", "text": "I cannot."
    }
    assert written["messages"][0]["items"][1] == {
        "metadata": {}, "content_type": "binary", "data_uri": "data:application/pdf;base64,JVBERg=="
    }
    restored(written)  # Semantic Kernel reads what is left


@pytest.mark.parametrize(("item", "why"), [
    (ImageContent(file_id="file-1"), "image content by file id"),
    (ImageContent(data=b"<svg/>", mime_type="image/svg+xml"),
     "image content of media type 'image/svg+xml' (it cannot read such a data URI back)"),
    (FunctionResultContent("c", [TextContent("a")]), "function_result content holding "
     "content items"),
    (UnknownContent("server_tool", {"a": 1}), "unknown content (it has no such content type)"),
])
def test_items_semantic_kernel_cannot_hold_are_refused_unless_asked(item, why):
    history = ChatHistory([ChatMessageContent("user", items=[TextContent("a"), item])])
    with pytest.raises(UnsupportedContentError) as raised:
        sk_python.to_payload(history)
    assert str(raised.value) == (
        f"messages[0].items[1]: Semantic Kernel (Python) cannot carry {why} "
        "(pass on_unsupported='warn' to leave it out)"
    )
    written = sk_python.to_payload(history, on_unsupported="drop")
    assert written["messages"][0]["items"] == [
        {"metadata": {}, "content_type": "text", "text": "a"}
    ]


def test_a_plugin_class_is_refused_even_as_a_subclass_of_a_kind_sk_has():
    @attrs.define
    class BoldText(TextContent):
        content_type = ContentType("sk_test_bold")

    try:
        history = ChatHistory([ChatMessageContent("user", items=[BoldText("Hi")])])
        with pytest.raises(UnsupportedContentError) as raised:
            sk_python.to_payload(history)
        assert str(raised.value) == (
            "messages[0].items[0]: Semantic Kernel (Python) cannot carry sk_test_bold content "
            "(it has no such content type) (pass on_unsupported='warn' to leave it out)"
        )
    finally:
        CONTENT_TYPES.unregister("sk_test_bold")


def test_a_role_semantic_kernel_has_not_is_refused():
    with pytest.raises(FormatError) as raised:
        sk_python.to_payload(ChatHistory([ChatMessageContent("critic", "No.")]))
    assert str(raised.value) == (
        "messages[0].role: Semantic Kernel (Python) has no role 'critic' (expected one of "
        "assistant, developer, system, tool, user)"
    )


def test_ours_written_as_sk_python_restore_in_semantic_kernel():
    history = ChatHistory([
        ChatMessageContent("system", "Be brief."),
        ChatMessageContent("user", name="ada", items=[
            TextContent("Hi", citations=[Citation(url="https://a", text_start=0, text_end=2)]),
            ImageContent(data=PNG, mime_type="image/png"),
            AudioContent(uri="https://example.com/a.wav"),
            FileContent(file_id="file-1"),
        ]),
        ChatMessageContent("assistant", model_id="m", finish_reason="tool_calls", items=[
            ReasoningContent("think"),
            FunctionCallContent("c1", "weather-get", {"city": "Paris"}, index=0),
        ], metadata={"trace": {"n": 1}}),
        ChatMessageContent("tool", items=[
            FunctionResultContent("c1", {"temp": 18.5}, name="weather-get"),
        ]),
    ])
    written = sk_python.to_payload(history)
    back = restored(written)
    user, assistant, tool = back.messages[1:]
    assert [type(item).__name__ for item in user.items] == [
        "TextContent", "AnnotationContent", "ImageContent", "AudioContent",
        "FileReferenceContent",
    ]
    assert user.items[1].url == "https://a"
    assert user.items[2].data == PNG
    assert str(user.items[3].uri) == "https://example.com/a.wav"
    call = assistant.items[1]
    assert (call.id, call.plugin_name, call.function_name, call.arguments, call.index) == (
        "c1", "weather", "get", {"city": "Paris"}, 0
    )
    assert assistant.metadata == {"trace": {"n": 1}}
    assert assistant.ai_model_id == "m"
    assert tool.items[0].result == "{'temp': 18.5}"
    # and back to us, equal but for the hints the reading adds
    again = sk_python.from_payload(back)
    assert without_hints(again) == without_hints(history)


# Bad input, located.


@pytest.mark.parametrize(("payload", "message"), [
    ([], "expected a Semantic Kernel history ({'messages': [...]}), got list"),
    ({"messages": {}}, "messages: expected a list, got dict"),
    ({"messages": [1]}, "messages[0]: expected a message object, got int"),
    ({"messages": [{"items": []}]}, "messages[0]: missing 'role'"),
    ({"messages": [{"role": "critic"}]},
     "messages[0].role: expected one of assistant, developer, system, tool, user, got 'critic'"),
    ({"messages": [{"role": "user", "content_type": "text"}]},
     "messages[0].content_type: expected 'message', got 'text'"),
    ({"messages": [{"role": "user", "items": "hi"}]}, "messages[0].items: expected a list, got str"),
    ({"messages": [{"role": "user", "items": [{"text": "a"}]}]},
     "messages[0].items[0].content_type: expected a str, got None"),
    ({"messages": [{"role": "user", "items": [{"content_type": "text", "text": 5}]}]},
     "messages[0].items[0].text: expected a str, got int"),
    ({"messages": [{"role": "user", "items": [{"content_type": "image",
                                               "data_uri": "image/png,AAAA"}]}]},
     "messages[0].items[0].data_uri: not a data URI: 'image/png,AAAA'"),
    ({"messages": [{"role": "user", "items": [{"content_type": "image",
                                               "data_uri": "data:image/png;base64,@@"}]}]},
     "messages[0].items[0].data_uri: invalid base64"),
    ({"messages": [{"role": "user", "items": [{"content_type": "image", "data_uri": ""}]}]},
     "messages[0].items[0]: neither a uri nor a data_uri"),
    ({"messages": [{"role": "assistant", "items": [
        {"content_type": "function_call", "id": "c", "name": "f", "arguments": 5}]}]},
     "messages[0].items[0].arguments: expected a str or an object, got int"),
    ({"messages": [{"role": "assistant", "items": [{"content_type": "function_call"}]}]},
     "messages[0].items[0]: missing 'name' and 'function_name'"),
    ({"messages": [{"role": "user", "metadata": [], "items": []}]},
     "messages[0].metadata: expected an object, got list"),
    ({"messages": [{"role": "user", "items": [
        {"content_type": "text", "text": "a"},
        {"content_type": "annotation", "start_index": "1"}]}]},
     "messages[0].items[1].start_index: expected an int, got str"),
])
def test_bad_input_is_refused_where_it_is(payload, message):
    with pytest.raises(FormatError) as raised:
        sk_python.from_payload(payload)
    assert str(raised.value).startswith(message)


# Properties: what Semantic Kernel carries, both ways.

_SETTINGS = settings(max_examples=60, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
_WORDS = st.from_regex(r"[A-Za-z0-9]{1,8}", fullmatch=True)
_URIS = _WORDS.map(lambda word: f"https://example.com/{word}")
_MEDIA = st.sampled_from([
    (sk.ImageContent, "image/png"), (sk.AudioContent, "audio/wav"),
    (SKBinary, "application/pdf"),
])
_RESULT_TEXTS = st.text(max_size=12).filter(lambda text: text[:1] not in ("{", "["))
_JSON_CONTAINERS = st.one_of(
    st.dictionaries(st.text(max_size=5), json_values(max_leaves=4), max_size=3),
    st.lists(json_values(max_leaves=4), max_size=3),
)
_SK_METADATA = st.dictionaries(  # not a format's hints key: the writers leave others' out
    st.text(max_size=6).filter(lambda key: key not in HINT_KEYS),
    json_values(max_leaves=3), max_size=2,
)


@st.composite
def _sk_items(draw: st.DrawFn) -> list[Any]:
    """Semantic Kernel items of every kind, as its connectors and users make them."""
    kind = draw(st.sampled_from([
        "text", "uri", "data", "file", "call", "result", "reasoning", "annotation",
    ]))
    if kind == "text":
        return [sk.TextContent(text=draw(st.text(max_size=20)),
                               encoding=draw(st.none() | st.just("utf-8")),
                               metadata=draw(_SK_METADATA))]
    if kind == "uri":
        cls, _ = draw(_MEDIA)
        return [cls(uri=draw(_URIS))]
    if kind == "data":
        cls, mime_type = draw(_MEDIA)
        metadata = draw(st.dictionaries(_WORDS, _WORDS, max_size=2))
        return [cls(data=draw(st.binary(max_size=12)), data_format="base64",
                    mime_type=mime_type, metadata=metadata)]
    if kind == "file":
        cls = draw(st.sampled_from([sk.FileReferenceContent, StreamingFileReferenceContent]))
        return [cls(file_id=draw(identifiers()))]
    if kind == "call":
        arguments = draw(st.none() | st.text(max_size=12)
                         | st.dictionaries(st.text(max_size=5), json_values(), max_size=2))
        return [sk.FunctionCallContent(
            id=draw(identifiers()), function_name=draw(_WORDS),
            plugin_name=draw(st.none() | _WORDS), arguments=arguments,
        )]
    if kind == "result":
        return [sk.FunctionResultContent(
            id=draw(identifiers()), function_name=draw(_WORDS),
            plugin_name=draw(st.none() | _WORDS),
            result=draw(_RESULT_TEXTS | _JSON_CONTAINERS | st.integers()),
        )]
    if kind == "reasoning":
        return [sk.ReasoningContent(text=draw(st.none() | st.text(max_size=12)))]
    cls = draw(st.sampled_from([AnnotationContent, StreamingAnnotationContent]))
    start = draw(st.none() | st.integers(0, 20))
    return [
        sk.TextContent(text=draw(st.text(max_size=20))),
        cls(url=draw(st.none() | _URIS), quote=draw(st.none() | st.text(max_size=8)),
            start_index=start, end_index=None if start is None else start + 3),
    ]


@st.composite
def sk_histories(draw: st.DrawFn) -> Any:
    messages = []
    for _ in range(draw(st.integers(0, 4))):
        items = [item for group in draw(st.lists(_sk_items(), max_size=3)) for item in group]
        messages.append(sk.ChatMessageContent(
            role=draw(st.sampled_from(list(sk.AuthorRole))), items=items,
            name=draw(st.none() | _WORDS), ai_model_id=draw(st.none() | _WORDS),
            metadata=draw(_SK_METADATA),
            finish_reason=draw(st.none() | st.sampled_from(list(sk.FinishReason))),
        ))
    return sk.ChatHistory(messages=messages)


@_SETTINGS
@given(sk_histories())
def test_property_semantic_kernel_histories_read_and_write_back_exactly(history):
    original = serialized(history)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        ours = sk_python.from_payload(original)
        written = sk_python.to_payload(ours)
        again = sk_python.to_payload(from_json(to_json(ours), ChatHistory))
    assert written == original
    assert again == original
    assert restored(written) == sk.ChatHistory.restore_chat_history(history.serialize())


@st.composite
def _our_items(draw: st.DrawFn) -> Any:
    """Our items of what Semantic Kernel carries."""
    kind = draw(st.sampled_from(["text", "uri", "data", "file", "call", "result", "reasoning"]))
    if kind == "text":
        citations = draw(st.lists(st.builds(
            Citation, url=st.none() | _URIS, title=st.none() | st.text(max_size=6),
            cited_text=st.none() | st.text(max_size=6), file_id=st.none() | identifiers(),
            text_start=st.none() | st.integers(0, 50),
        ), max_size=2))
        return TextContent(draw(st.text(max_size=20)), citations=citations)
    if kind in ("uri", "data"):
        cls, mime_type = draw(st.sampled_from([
            (ImageContent, "image/png"), (AudioContent, "audio/wav"),
            (BinaryContent, "application/pdf"),
        ]))
        if kind == "uri":
            return cls(uri=draw(_URIS))
        return cls(data=draw(st.binary(min_size=1, max_size=12)), mime_type=mime_type,
                   metadata=draw(st.dictionaries(_WORDS, _WORDS, max_size=2)))
    if kind == "file":
        return FileContent(file_id=draw(identifiers()))
    if kind == "call":
        arguments = draw(st.none() | st.text(max_size=12)
                         | st.dictionaries(st.text(max_size=5), json_values(), max_size=2))
        name = draw(_WORDS | st.tuples(_WORDS, _WORDS).map("-".join))
        return FunctionCallContent(draw(st.none() | identifiers()), name, arguments,
                                   index=draw(st.none() | st.integers(0, 5)))
    if kind == "result":
        name = draw(st.none() | _WORDS | st.tuples(_WORDS, _WORDS).map("-".join))
        return FunctionResultContent(draw(st.none() | identifiers()),
                                     draw(_RESULT_TEXTS | _JSON_CONTAINERS), name=name)
    return ReasoningContent(draw(st.text(max_size=12)))


@st.composite
def our_histories(draw: st.DrawFn) -> ChatHistory:
    messages = []
    counts = st.integers(0, 10**6)
    usages = st.none() | st.builds(
        lambda prompt, completion, cached, reasoning: Usage(
            prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion,
            cached_tokens=cached, reasoning_tokens=reasoning,
        ),
        counts, counts, st.none() | st.integers(0, 10), st.none() | st.integers(0, 10),
    )
    for _ in range(draw(st.integers(0, 4))):
        messages.append(ChatMessageContent(
            draw(st.sampled_from(["system", "user", "assistant", "tool", "developer"])),
            usage=draw(usages),
            items=draw(st.lists(_our_items(), max_size=3)),
            name=draw(st.none() | _WORDS), model_id=draw(st.none() | _WORDS),
            finish_reason=draw(st.none() | st.sampled_from(["stop", "length", "tool_calls"])),
            metadata=draw(_SK_METADATA.filter(lambda metadata: "usage" not in metadata)),
        ))
    return ChatHistory(messages)


@_SETTINGS
@given(our_histories())
def test_property_ours_go_through_semantic_kernel_and_come_back(history):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        written = sk_python.to_payload(history)
    back = restored(written)
    assert serialized(back) == written
    assert without_hints(sk_python.from_payload(back)) == without_hints(history)
