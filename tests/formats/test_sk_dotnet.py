""".NET Semantic Kernel's ``ChatHistory`` JSON (``sk-dotnet``).

Fixtures in ``sk_dotnet_fixtures/`` are written by hand from the .NET source
(``dotnet/src/SemanticKernel.Abstractions/Contents/*.cs``: ``[JsonDerivedType]``,
``[JsonIgnore]``, ``[JsonPropertyOrder]``) and the JSON its unit tests expect; each is cited
below. They read, and write back equal after canonical key ordering (and in .NET's own key
order, ``$type`` first); through this library's JSON too. Also: exact values read, exact JSON
written from a history built here, what .NET cannot hold (``on_unsupported``), bad input
refused at its location, plugin codecs, and hypothesis round trips both ways.
"""

from __future__ import annotations

import base64
import json
import warnings
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import identifiers, json_values, labels

from semantic_chat import (
    AudioContent,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    Citation,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    Usage,
    formats,
)
from semantic_chat.contents import KernelContent, UnknownContent
from semantic_chat.errors import FormatError, InvalidValueError, UnsupportedContentError
from semantic_chat.formats import sk_dotnet
from semantic_chat.formats.wire import ConversionWarning
from semantic_chat.labels import ContentType
from semantic_chat.serialization import from_json, to_json

FIXTURES = Path(__file__).parent / "sk_dotnet_fixtures"
SOURCES = {
    # UnitTests/Contents/ChatMessageContentTests.cs, ItCanBeSerializeAndDeserialized: every
    # item kind; the BinaryData(new[] {1, 2, 3}) bytes are the JSON text "[1,2,3]".
    "message_every_item.json": "ChatMessageContentTests.ItCanBeSerializeAndDeserialized",
    # UnitTests/AI/ChatCompletion/ChatHistoryTests.cs, ItCanBeSerializedAndDeserialized and
    # CtorWorksForSystemAndDeveloper.
    "history_roles.json": "ChatHistoryTests",
    # ChatMessageContentTests.cs, ItCanBeSerializeAndDeserializedWithFunctionResultOfChat-
    # MessageType: a result that is a ChatMessageContent (read back by .NET as a JsonElement).
    "result_of_chat_message.json": "ChatMessageContentTests (function result of message type)",
    # ChatMessageContentTests.cs, ItCanBePolymorphicallySerializedAndDeserializedAsKernel-
    # ContentType: a message written as a KernelContent carries "$type".
    "message_as_kernel_content.json": "ChatMessageContentTests (as KernelContent)",
    # UnitTests/Contents/BinaryContentTests.cs ItCanBeSerialized, ImageContentTests.cs and
    # AudioContentTests.cs (serializeAfter: Uri and Data both), BinaryContent.cs data-uri-
    # metadata.
    "binary_sources.json": "BinaryContentTests, ImageContentTests, AudioContentTests",
    # Abstractions/Contents/FunctionCallContent.cs, FunctionResultContent.cs,
    # ReasoningContent.cs (JsonIgnore WhenWritingNull on Id, PluginName, Arguments, Result).
    "tool_loop.json": "FunctionCallContent.cs, FunctionResultContent.cs",
    # What .NET reads though it never writes it: a Label in another case (AuthorRole equality
    # is OrdinalIgnoreCase), "Text": null, nulls of WhenWritingNull properties, undeclared
    # keys (Encoding, Source: [JsonIgnore]), an Exception (as InternalUtilities/src/Text/
    # ExceptionJsonConverter.cs writes it), a $type newer than this reader,
    # Metadata keys named like a format's hints, an empty Metadata.
    "quirks.json": "ChatMessageContent.cs, AuthorRole.cs, KernelContent.cs",
    # UnitTests/Contents/AnnotationContentTests.cs VerifyAnnotationContentUsage, and
    # Abstractions/Contents/AnnotationContent.cs, AnnotationKind.cs (Label and ReferenceId
    # must not be blank: .NET refuses to read such an annotation back).
    "annotations.json": "AnnotationContentTests.cs, AnnotationContent.cs",
}


def _load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _items(payload: Any) -> list[dict[str, Any]]:
    """Every item object in a payload, those inside a result's array too."""
    found = []
    for message in payload:
        for item in message.get("Items") or []:
            found.append(item)
            result = item.get("Result")
            if isinstance(result, list):
                found.extend(
                    element for element in result if isinstance(element, dict) and "$type" in element
                )
    return found


def _without_hints(history: ChatHistory) -> ChatHistory:
    copied = from_json(to_json(history), ChatHistory)
    for message in copied:
        message.metadata.pop("sk_dotnet", None)
        for item in message.items:
            item.metadata.pop("sk_dotnet", None)
    return copied


def test_every_fixture_is_cited():
    assert sorted(path.name for path in FIXTURES.glob("*.json")) == sorted(SOURCES)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_fixture_reads_and_writes_back_equal(name):
    payload = _load(name)
    history = sk_dotnet.from_payload(payload)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        written = sk_dotnet.to_payload(history)
    assert _canonical(written) == _canonical(payload)
    assert all(next(iter(item)) == "$type" for item in _items(written))
    assert formats.detect(payload) == "sk-dotnet"
    assert formats.convert(payload, target="sk-dotnet") == written


@pytest.mark.parametrize("name", sorted(set(SOURCES) - {"quirks.json"}))
def test_fixture_is_written_in_dotnet_key_order(name):
    payload = _load(name)
    written = sk_dotnet.to_payload(sk_dotnet.from_payload(payload))
    assert json.dumps(written) == json.dumps(payload)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_fixture_survives_this_librarys_json(name):
    payload = _load(name)
    history = sk_dotnet.from_payload(payload)
    again = from_json(to_json(history), ChatHistory)
    assert again == history
    assert _canonical(sk_dotnet.to_payload(again)) == _canonical(payload)


def test_every_item_kind_reads_as_its_own_class():
    [message] = sk_dotnet.from_payload(_load("message_every_item.json"))
    assert (str(message.role), message.name, message.model_id) == ("user", "Fred", "message-model")
    assert message.metadata == {"message-metadata-key-1": "message-metadata-value-1"}
    items = message.items
    assert items[0] == TextContent("content-1-override", metadata={
        "metadata-key-1": "metadata-value-1",
        "sk_dotnet": {"MimeType": "mime-type-1", "ModelId": "model-1"},
    })
    assert items[1] == ImageContent(uri="https://fake-random-test-host:123", metadata={
        "metadata-key-2": "metadata-value-2",
        "sk_dotnet": {"MimeType": "mime-type-2", "ModelId": "model-2"},
    })
    assert [(type(item), item.data) for item in items[2:5]] == [
        (BinaryContent, b"[1,2,3]"), (AudioContent, b"[3,2,1]"), (ImageContent, b"[2,1,3]")
    ]
    assert items[2].mime_type == "application/octet-stream"  # "mime-type-3" kept in the hints
    assert items[6] == FunctionCallContent(
        id="function-id", name="plugin-name-function-name", arguments={"parameter": "argument"},
        metadata={"sk_dotnet": {"PluginName": "plugin-name"}},
    )
    assert items[7] == FunctionResultContent(
        call_id="function-id", result="function-result", name="plugin-name-function-name",
        metadata={"sk_dotnet": {"PluginName": "plugin-name"}},
    )
    assert items[8] == FileContent(file_id="file-id-1", metadata={
        "metadata-key-7": "metadata-value-7", "sk_dotnet": {"ModelId": "model-7"},
    })
    assert items[9] == FileContent(file_id="file-id-2", metadata={
        "sk_dotnet": {"Tools": ["a", "b", "c"]},
    })
    assert items[10] == UnknownContent(type="AnnotationContent", fields={
        "Kind": {"Label": "textcitation"}, "Label": "quote-8", "ReferenceId": "file-id-3",
        "StartIndex": 2, "EndIndex": 24, "ModelId": "model-8",
        "Metadata": {"metadata-key-8": "metadata-value-8"},
    })
    assert items[11] == ReasoningContent("thinking")
    assert items[12] == UnknownContent(type="ActionContent", fields={"Text": "Yes"})


def test_tool_loop_reads_arguments_and_results_as_json():
    history = sk_dotnet.from_payload(_load("tool_loop.json"))
    calls, results = history[1].items, history[2].items
    assert [call.name for call in calls] == ["math-Add", "time-now", "noop"]
    assert calls[0].arguments == {"a": 2, "b": 3, "options": {"round": True, "tags": ["x", None]}}
    assert calls[1].metadata == {"sk_dotnet": {"PluginName": None}}  # never split on "-"
    assert calls[2].arguments == {}
    assert [result.result for result in results] == [
        5, {"zone": "Europe/Paris", "hour": 14}, None
    ]
    assert history[1].metadata == {
        "Usage": {"OutputTokenCount": 12}, "FinishReason": "ToolCalls"
    }
    assert history[3].items[0] == ReasoningContent("")


def test_quirks_are_kept_in_the_hints():
    history = sk_dotnet.from_payload(_load("quirks.json"))
    assert str(history[0].role) == "user"
    assert history[0].metadata == {
        "sk_dotnet": {"Role": {"Label": "User"}, "extra": {"AuthorName": None}}
    }
    assert history[0].items[0] == TextContent("", metadata={"sk_dotnet": {"Text": None}})
    assert history[0].items[1].metadata == {"sk_dotnet": {"extra": {"Encoding": "utf-8"}}}
    assert history[1].items[0].metadata == {"sk_dotnet": {"Exception": {
        "className": "System.InvalidOperationException", "message": "boom",
        "stackTraceString": None,
    }}}
    newer = history[1].items[2]
    assert newer == UnknownContent(
        type="StreamingTextContent", fields={"Text": "newer kind", "ChoiceIndex": 0},
        metadata={"sk_dotnet": {"read": True}},
    )
    assert history[1].items[3].metadata == {
        "kept": True, "sk_dotnet": {"Metadata": {"sk_dotnet": 1, "gemini": "x"}}
    }
    assert history[1].metadata == {"sk_dotnet": {"Metadata": {}}}
    assert history[2].metadata == {"sk_dotnet": {"extra": {"Source": "kept"}}}


def test_annotations_after_a_text_are_its_citations():
    [message] = sk_dotnet.from_payload(_load("annotations.json"))
    items = message.items
    assert items[0].citations == (
        Citation(cited_text="test label", file_id="#id", text_start=33, text_end=49,
                 metadata={"sk_dotnet": {"Kind": {"Label": "textcitation"}}}),
        Citation(cited_text="the atlas", file_id="file-atlas", text_start=35, text_end=44),
        Citation(cited_text="the web page", title="Paris", url="https://example.com/paris",
                 metadata={"source": "web", "sk_dotnet": {"ModelId": "gpt-4o"}}),
    )
    # One after an image, and one .NET cannot read back (a blank Label), are kept whole.
    assert items[2] == UnknownContent(type="AnnotationContent", fields={
        "Kind": {"Label": "filecitation"}, "Label": "a map", "ReferenceId": "file-map",
    })
    assert items[3] == TextContent("No source.")
    assert items[4].type == "AnnotationContent"
    assert len(items) == 5


def test_binary_items_without_a_source_are_kept_whole():
    [message] = sk_dotnet.from_payload(_load("binary_sources.json"))
    assert message.items[0] == UnknownContent(type="BinaryContent")
    assert message.items[4] == UnknownContent(type="BinaryContent", fields={"MimeType": "text/plain"})
    assert (message.items[1].data, message.items[1].mime_type) == (b"", "text/plain")
    image = message.items[5]
    assert (image.data, image.uri) == (b"this is a test", None)
    assert image.metadata == {"sk_dotnet": {"Uri": "file:///foo.txt"}}
    assert message.items[7].metadata == {"data-uri-parameter1": "value1"}


# --- writing a history built here ---------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n"


def test_a_history_built_here_is_written_as_dotnet_writes_it():
    history = ChatHistory([
        ChatMessageContent("system", "Be brief."),
        ChatMessageContent("user", items=[
            TextContent("Look", metadata={"seen": True}),
            ImageContent(data=PNG, mime_type="image/png"),
            AudioContent(uri="https://example.com/a.wav", mime_type="audio/wav"),
            FileContent(file_id="file-1", mime_type="application/pdf"),
        ], name="ada"),
        ChatMessageContent("assistant", items=[
            ReasoningContent("think"),
            FunctionCallContent(id="c1", name="weather-get", arguments='{"city": "Paris"}'),
            FunctionCallContent(id="c2", name="lookup", arguments=None),
        ], model_id="gpt-4o"),
        ChatMessageContent("tool", items=[
            FunctionResultContent(call_id="c1", result={"temp": 21}, name="weather-get"),
            FunctionResultContent(call_id="c2", result=[TextContent("seen")]),
        ]),
    ])
    assert json.dumps(sk_dotnet.to_payload(history)) == json.dumps([
        {"Role": {"Label": "system"}, "Items": [{"$type": "TextContent", "Text": "Be brief."}]},
        {"AuthorName": "ada", "Role": {"Label": "user"}, "Items": [
            {"$type": "TextContent", "Text": "Look", "Metadata": {"seen": True}},
            {"$type": "ImageContent", "MimeType": "image/png", "Data": "iVBORw0KGgo="},
            {"$type": "AudioContent", "Uri": "https://example.com/a.wav",
             "MimeType": "audio/wav"},
            {"$type": "FileReferenceContent", "FileId": "file-1", "MimeType": "application/pdf"},
        ]},
        {"Role": {"Label": "assistant"}, "Items": [
            {"$type": "ReasoningContent", "Text": "think"},
            {"$type": "FunctionCallContent", "Id": "c1", "PluginName": "weather",
             "FunctionName": "get", "Arguments": {"city": "Paris"}},
            {"$type": "FunctionCallContent", "Id": "c2", "FunctionName": "lookup"},
        ], "ModelId": "gpt-4o"},
        {"Role": {"Label": "tool"}, "Items": [
            {"$type": "FunctionResultContent", "CallId": "c1", "PluginName": "weather",
             "FunctionName": "get", "Result": {"temp": 21}},
            {"$type": "FunctionResultContent", "CallId": "c2",
             "Result": [{"$type": "TextContent", "Text": "seen"}]},
        ]},
    ])


def test_a_changed_item_is_written_as_it_is_now():
    history = sk_dotnet.from_payload(_load("message_every_item.json"))
    image = history[0].items[1]
    image.mime_type = "image/png"  # no longer what the MimeType hint was read as
    call = history[0].items[6]
    call.name = "other"  # no longer starts with the plugin it was read with
    history[0].role = "assistant"  # the kept Role is for another label
    written = sk_dotnet.to_payload(history)[0]
    assert written["Role"] == {"Label": "assistant"}
    assert written["Items"][1]["MimeType"] == "image/png"
    assert written["Items"][6] == {"$type": "FunctionCallContent", "Id": "function-id",
                                   "FunctionName": "other", "Arguments": {"parameter": "argument"}}


def test_another_formats_hints_are_not_written_as_metadata():
    message = ChatMessageContent("user", items=[TextContent("hi", metadata={
        "gemini": {"thought_signature": "c2ln"}, "sk_python": {"x": 1}, "mine": 1,
    })], metadata={"openai_chat": {"fields": {}}})
    with pytest.warns(ConversionWarning) as caught:
        written = sk_dotnet.to_payload([message])
    assert written == [{"Role": {"Label": "user"}, "Items": [
        {"$type": "TextContent", "Text": "hi", "Metadata": {"mine": 1}}
    ]}]
    assert [str(warning.message) for warning in caught] == [  # only Gemini may send it
        'messages[0].items[0].metadata["gemini"].thought_signature: dropped: .NET Semantic '
        "Kernel cannot carry a Gemini thought signature (it is only valid with Gemini)"
    ]


# --- what .NET cannot hold ----------------------------------------------------------------

LOSSY = ChatMessageContent(
    "assistant",
    items=[
        TextContent("a", citations=[
            Citation(url="https://example.com", cited_text="q", file_id="f-1", filename="f.pdf"),
            Citation(title="no source"),
        ]),
        ImageContent(uri="https://example.com/i.png", detail="high"),
        FileContent(data=b"%PDF-", mime_type="application/pdf", filename="a.pdf"),
        ReasoningContent("r", signature="sig", encrypted="enc"),
        FunctionCallContent(id="c", name="f", arguments="{}", index=0),
        FunctionResultContent(call_id="c", result="no", is_error=True),
    ],
    id="m1",
    finish_reason="stop",
    usage=Usage(prompt_tokens=1, completion_tokens=2, total_tokens=3),
)
LOSSES = [
    "messages[0].items[0].citations[0].filename: dropped: .NET Semantic Kernel cannot carry a "
    "citation's filename",
    "messages[0].items[0].citations[0].file_id: dropped: .NET Semantic Kernel cannot carry a "
    "citation's file_id",
    "messages[0].items[0].citations[1]: dropped: .NET Semantic Kernel cannot carry a citation "
    "without both cited text and a url or file id",
    "messages[0].items[1].detail: dropped: .NET Semantic Kernel cannot carry an image's detail",
    "messages[0].items[2].filename: dropped: .NET Semantic Kernel cannot carry a file's name",
    "messages[0].items[3].signature: dropped: .NET Semantic Kernel cannot carry a reasoning "
    "signature",
    "messages[0].items[3].encrypted: dropped: .NET Semantic Kernel cannot carry a reasoning "
    "item's encrypted content",
    "messages[0].items[5].is_error: dropped: .NET Semantic Kernel cannot carry a result's "
    "error flag",
]
"""What .NET cannot hold; the message's id, finish reason and usage and the call's index
are response data, left out without a word as by every format."""


def test_fields_dotnet_cannot_hold_are_left_out_with_located_warnings():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = sk_dotnet.to_payload([LOSSY])
    assert [str(warning.message) for warning in caught] == LOSSES
    assert all(warning.category is ConversionWarning for warning in caught)
    assert [item["$type"] for item in written[0]["Items"]] == [
        "TextContent", "AnnotationContent", "ImageContent", "BinaryContent", "ReasoningContent",
        "FunctionCallContent", "FunctionResultContent",
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sk_dotnet.to_payload([LOSSY], on_unsupported="drop") == written


def test_fields_are_refused_when_asked():
    with pytest.raises(UnsupportedContentError) as raised:
        sk_dotnet.to_payload([LOSSY], on_unsupported="error")
    assert str(raised.value) == (
        "messages[0].items[0].citations[0].filename: .NET Semantic Kernel cannot carry a "
        "citation's filename (pass on_unsupported='warn' to leave it out)"
    )


@pytest.mark.parametrize("item", [
    RefusalContent("no"),
    UnknownContent(type="executable_code", fields={"code": "1"}),
], ids=["refusal", "unknown-of-another-format"])
def test_items_without_a_dotnet_kind_are_refused_unless_asked(item):
    message = ChatMessageContent("assistant", items=[TextContent("a"), item])
    with pytest.raises(UnsupportedContentError) as raised:
        sk_dotnet.to_payload([message])
    kind = str(item.content_type)
    assert str(raised.value) == (
        f"messages[0].items[1]: .NET Semantic Kernel cannot carry {kind} content (.NET has no "
        "content type that holds it) (pass on_unsupported='warn' to leave it out)"
    )
    with pytest.warns(ConversionWarning) as caught:
        written = sk_dotnet.to_payload([message], on_unsupported="warn")
    assert [str(warning.message) for warning in caught] == [
        f"messages[0].items[1]: dropped: .NET Semantic Kernel cannot carry {kind} content "
        "(.NET has no content type that holds it)"
    ]
    assert written == [{"Role": {"Label": "assistant"},
                        "Items": [{"$type": "TextContent", "Text": "a"}]}]


# --- bad input ----------------------------------------------------------------------------

U = {"Role": {"Label": "user"}}
BAD = [
    ({"messages": []}, "expected a JSON array of ChatMessageContent objects, got dict"),
    ([1], "[0]: expected a ChatMessageContent object, got int"),
    ([{"Items": []}], "[0]: missing 'Role'"),
    ([{"Role": "user", "Items": []}], '[0].Role: expected an object {"Label": ...}, got str'),
    ([{"Role": {"Label": 3}, "Items": []}], "[0].Role.Label: expected a str, got int"),
    ([{"Role": {"Label": " "}, "Items": []}], "[0].Role.Label: a role label must not be blank"),
    ([{**U, "Items": {}}], "[0].Items: expected an array, got dict"),
    ([{**U, "Items": [3]}], "[0].Items[0]: expected a KernelContent object, got int"),
    ([{**U, "Items": [{"Text": "x"}]}],
     "[0].Items[0].$type: missing '$type' (the item's content type)"),
    ([{**U, "Items": [{"$type": 5}]}], "[0].Items[0].$type: expected a str, got int"),
    ([{**U, "Items": [{"$type": "TextContent", "Text": 5}]}],
     "[0].Items[0].Text: expected a str, got int"),
    ([{**U, "Items": [{"$type": "ImageContent", "Data": "abc"}]}],
     "[0].Items[0].Data: invalid base64 at character 3: 3 base64 characters is not a multiple "
     "of 4 (missing '=' padding?)"),
    ([{**U, "Items": [{"$type": "ImageContent", "Uri": "data:image/png;base64,AAAA"}]}],
     "[0].Items[0].Uri: a data URI cannot be a Uri (.NET keeps bytes in Data)"),
    ([{**U, "Items": [{"$type": "ImageContent", "Uri": "x", "MimeType": 4}]}],
     "[0].Items[0].MimeType: expected a str, got int"),
    ([{**U, "Items": [{"$type": "FunctionCallContent", "Id": "x"}]}],
     "[0].Items[0]: missing 'FunctionName'"),
    ([{**U, "Items": [{"$type": "FunctionCallContent", "FunctionName": "f", "Arguments": [1]}]}],
     "[0].Items[0].Arguments: expected an object, got list"),
    ([{**U, "Items": [{"$type": "FileReferenceContent", "FileId": "f", "Tools": ["a", 2]}]}],
     "[0].Items[0].Tools[1]: expected a str, got int"),
    ([{**U, "Items": [{"$type": "FileReferenceContent"}]}], "[0].Items[0]: missing 'FileId'"),
    ([{**U, "Items": [{"$type": "TextContent", "Text": "x", "Metadata": []}]}],
     "[0].Items[0].Metadata: expected an object, got list"),
    ([{**U, "Items": [], "Metadata": 1}], "[0].Metadata: expected an object, got int"),
    ([{**U, "Items": [], "AuthorName": 4}], "[0].AuthorName: expected a str, got int"),
    ([{"$type": "TextContent", **U, "Items": []}],
     "[0].$type: expected 'ChatMessageContent', got 'TextContent'"),
    ([U, {**U, "Items": [{"$type": "FunctionResultContent", "CallId": 7}]}],
     "[1].Items[0].CallId: expected a str, got int"),
]


@pytest.mark.parametrize(("payload", "message"), BAD, ids=[message for _, message in BAD])
def test_bad_input_is_refused_at_its_location(payload, message):
    with pytest.raises(FormatError) as raised:
        sk_dotnet.from_payload(payload)
    assert str(raised.value) == message


def test_bad_arguments_text_is_refused_at_the_call():
    call = FunctionCallContent(id="c", name="f", arguments="[1]")
    with pytest.raises(FormatError) as raised:
        sk_dotnet.to_payload([ChatMessageContent("assistant", items=[call])])
    assert str(raised.value) == (
        "messages[0].items[0].arguments: expected arguments that are a JSON object, got an array"
    )


def test_not_a_message_is_refused_when_writing():
    with pytest.raises(FormatError) as raised:
        sk_dotnet.to_payload([ChatMessageContent("user", "a"), "b"])  # type: ignore[list-item]
    assert str(raised.value) == "messages[1]: expected a ChatMessageContent, got str"


def test_on_unsupported_is_checked():
    with pytest.raises(InvalidValueError) as raised:
        sk_dotnet.to_payload([], on_unsupported="loud")  # type: ignore[arg-type]
    assert str(raised.value) == (
        "on_unsupported: expected 'error', 'warn', 'drop' or None, got 'loud'"
    )


def test_detection_wants_role_labels_and_items():
    assert formats.detect([{"Role": {"Label": "user"}, "Items": []}]) == "sk-dotnet"
    assert formats.get("sk-dotnet").score([{"Role": "user", "Items": []}]) == 0
    assert formats.get("sk-dotnet").score([{"role": "user", "content": "hi"}]) == 0
    assert formats.get("sk-dotnet").score([]) == 0


# --- plugin codecs ------------------------------------------------------------------------


@attrs.define
class _Plugin(KernelContent):
    content_type: ClassVar[ContentType] = ContentType("test_sk_dotnet_action")
    text: str = ""


def test_plugin_codecs_read_and_write_a_kind_of_their_own():
    payload = [{"Role": {"Label": "assistant"},
                "Items": [{"$type": "ActionContent", "Text": "Yes"}]}]
    decoded: list[dict[str, Any]] = []

    def decode(item: dict[str, Any]) -> KernelContent:
        decoded.append(item)
        return UnknownContent(type="ActionContent", fields={"Text": item["Text"].upper()})

    sk_dotnet.register_decoder("ActionContent", decode)
    formats.register_encoder(
        "sk-dotnet", _Plugin, lambda item: {"Text": item.text, "$type": "ActionContent"}
    )
    try:
        history = sk_dotnet.from_payload(payload)
        assert decoded == payload[0]["Items"]
        assert history[0].items[0].fields == {"Text": "YES"}
        written = sk_dotnet.to_payload([ChatMessageContent("assistant", items=[_Plugin("go")])])
        assert json.dumps(written[0]["Items"]) == json.dumps(
            [{"$type": "ActionContent", "Text": "go"}]
        )
    finally:
        formats.unregister_decoder("sk-dotnet", "ActionContent")
        formats.unregister_encoder("sk-dotnet", _Plugin)
    with pytest.raises(InvalidValueError) as raised:
        sk_dotnet.register_decoder("TextContent", decode)
    assert str(raised.value) == (
        "part_type: 'TextContent' is built in: .NET Semantic Kernel reads it itself "
        "(register a decoder for a part type of your own)"
    )


# --- hypothesis ---------------------------------------------------------------------------

_TEXT = st.text(max_size=12)
_KEYS = st.text(max_size=8).filter(lambda key: key not in sk_dotnet.shared.NOT_METADATA)
_METADATA = st.dictionaries(_KEYS, json_values(max_leaves=3), max_size=2)
_BASE64 = st.binary(max_size=12).map(lambda data: base64.b64encode(data).decode())
_MEDIA_TYPES = st.sampled_from(["image/png", "audio/wav", "application/pdf"])
_MIME = _MEDIA_TYPES | st.just("mime-type-1")  # .NET takes any text; ours keeps it in hints


def _optional(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with any subset of ``fields`` (in .NET's order), each with a drawn value."""
    return st.fixed_dictionaries({}, optional=fields)


def _item(kind: str, required: dict[str, st.SearchStrategy[Any]],
          **optional: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    base = {"MimeType": _MIME, "ModelId": _TEXT, "Metadata": _METADATA}
    return st.tuples(st.fixed_dictionaries(required), _optional(**optional, **base)).map(
        lambda parts: {"$type": kind, **parts[0], **parts[1]}
    )


_DOTNET_ITEMS = st.one_of(
    _item("TextContent", {"Text": st.none() | _TEXT}),
    _item("ReasoningContent", {"Text": _TEXT}),
    *(
        _item(kind, {"Uri": st.just("https://example.com/x")}, Data=_BASE64)
        for kind in ("ImageContent", "AudioContent", "BinaryContent")
    ),
    *(_item(kind, {"Data": _BASE64}) for kind in ("ImageContent", "AudioContent")),
    _item("FileReferenceContent", {"FileId": identifiers()}, Tools=st.lists(_TEXT, max_size=2)),
    _item("FunctionCallContent", {"FunctionName": identifiers()}, Id=identifiers(),
          PluginName=st.text(max_size=6), Arguments=st.dictionaries(_TEXT, json_values(4))),
    _item("FunctionResultContent", {}, CallId=identifiers(), PluginName=identifiers(),
          FunctionName=identifiers(), Result=json_values(4).filter(lambda v: v is not None)),
    _item("ActionContent", {"Text": _TEXT}),
)
_ANNOTATIONS = _item(
    "AnnotationContent",
    {"Kind": st.sampled_from(["filecitation", "urlcitation", "textcitation", "UrlCitation"]).map(
        lambda label: {"Label": label}), "Label": _TEXT, "ReferenceId": _TEXT},
    Title=_TEXT, StartIndex=st.integers(0, 99), EndIndex=st.integers(0, 99),
)
_DOTNET_ITEMS = _DOTNET_ITEMS | st.tuples(
    _item("TextContent", {"Text": _TEXT}), st.lists(_ANNOTATIONS, max_size=3)
).map(lambda parts: [parts[0], *parts[1]])
def _flat(items: list[Any]) -> list[dict[str, Any]]:
    """Items, a text drawn with its annotations spread out after it."""
    return [one for item in items for one in (item if isinstance(item, list) else [item])]


_DOTNET_MESSAGES = st.tuples(
    st.builds(lambda label: {"Role": {"Label": label}}, labels()),
    st.fixed_dictionaries({"Items": st.lists(_DOTNET_ITEMS, max_size=4).map(_flat)}),
    _optional(AuthorName=_TEXT, ModelId=_TEXT, Metadata=_METADATA),
).map(lambda parts: {**parts[0], **parts[1], **parts[2]})


@given(st.lists(_DOTNET_MESSAGES, max_size=4))
def test_any_dotnet_history_reads_and_writes_back_equal(payload):
    history = sk_dotnet.from_payload(payload)
    assert _canonical(sk_dotnet.to_payload(history)) == _canonical(payload)
    again = from_json(to_json(history), ChatHistory)
    assert _canonical(sk_dotnet.to_payload(again)) == _canonical(payload)


_CITATIONS = st.builds(
    Citation,
    cited_text=_TEXT.filter(str.strip),
    title=st.none() | _TEXT,
    url=st.none() | st.just("https://example.com/a"),
    file_id=st.just("file-a"),
    text_start=st.none() | st.integers(0, 9),
    text_end=st.none() | st.integers(0, 9),
    metadata=_METADATA,
).map(lambda citation: attrs.evolve(citation, file_id=None) if citation.url else citation)
_OUR_ITEMS = st.one_of(
    st.builds(TextContent, text=_TEXT, metadata=_METADATA,
              citations=st.lists(_CITATIONS, max_size=2)),
    st.builds(ReasoningContent, text=_TEXT),
    *(
        st.builds(cls, data=st.binary(min_size=1, max_size=12), mime_type=_MEDIA_TYPES,
                  metadata=_METADATA)
        for cls in (ImageContent, AudioContent, BinaryContent)
    ),
    st.builds(ImageContent, uri=st.just("https://example.com/i.png"),
              mime_type=st.none() | _MEDIA_TYPES),
    st.builds(FileContent, file_id=identifiers(), mime_type=st.none() | _MEDIA_TYPES),
    st.builds(FunctionCallContent, id=st.none() | identifiers(), name=identifiers(),
              arguments=st.none() | st.dictionaries(_TEXT, json_values(4), max_size=3)),
    st.builds(FunctionResultContent, call_id=st.none() | identifiers(),
              name=st.none() | identifiers(),
              result=st.none() | _TEXT | json_values(4) | st.just([TextContent("t")])),
    st.builds(UnknownContent, type=st.just("ActionContent"), fields=st.fixed_dictionaries(
        {"Text": _TEXT})),
)


@given(st.lists(st.builds(
    ChatMessageContent,
    role=labels(),
    items=st.lists(_OUR_ITEMS, max_size=4),
    name=st.none() | _TEXT,
    model_id=st.none() | _TEXT,
    metadata=_METADATA,
), max_size=4))
def test_what_dotnet_carries_comes_back_from_it_equal(messages):
    history = ChatHistory(messages)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        payload = sk_dotnet.to_payload(history)
    assert all(next(iter(item)) == "$type" for item in _items(payload))
    assert _without_hints(sk_dotnet.from_payload(payload)) == history
