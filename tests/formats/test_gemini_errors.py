"""Google Gemini: malformed payloads and broken histories, each refused at its location.

Reading: every malformed shape of ``contents``, ``system_instruction`` and a response raises a
`FormatError` whose message starts with the exact location (keys named in snake_case, the
spelling the hints keep, whichever spelling the payload used). Writing: what no Gemini
payload can hold is a located `FormatError`; what the format cannot carry follows
``on_unsupported`` (``"error"`` refuses it, ``"warn"`` leaves it out with the exact warning,
``"drop"`` says nothing; by default items are refused and fields warned about).
"""

from __future__ import annotations

import datetime
import warnings
from typing import Any

import pytest
from format_helpers import PNG, validate_gemini_payload

from semantic_chat import (
    AudioContent,
    ChatMessageContent,
    Citation,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
)
from semantic_chat.contents import UnknownContent
from semantic_chat.errors import (
    FormatError,
    InvalidValueError,
    UnsupportedContentError,
)
from semantic_chat.formats.gemini import reading, writing
from semantic_chat.formats.wire import ConversionWarning

M = ChatMessageContent
SIG = "c2lnbmF0dXJl"
_IMAGE = {"mime_type": "image/png", "data": PNG}


def _user(*parts: object) -> list[object]:
    return [{"role": "user", "parts": list(parts)}]


def _model(*parts: object) -> list[object]:
    return [{"role": "model", "parts": list(parts)}]


# --- reading contents --------------------------------------------------------------------

P = "contents[0].parts[0]"

BAD_CONTENTS = [
    pytest.param({"role": "user", "parts": []}, "contents",
                 "contents: expected a list of contents, got dict", id="contents-object"),
    pytest.param("hi", "contents", "contents: expected a list of contents, got str",
                 id="contents-string"),
    pytest.param([{"role": "user", "parts": [{"text": "a"}]}, None], "contents[1]",
                 "contents[1]: expected a Content object, got NoneType", id="content-null"),
    pytest.param([["a"]], "contents[0]", "contents[0]: expected a Content object, got list",
                 id="content-list"),
    pytest.param([{"role": 5, "parts": []}], "contents[0].role",
                 "contents[0].role: expected str, got int", id="role-int"),
    pytest.param([{"role": "system", "parts": []}], "contents[0].role",
                 "contents[0].role: Gemini has no role 'system'", id="role-system"),
    pytest.param([{"role": "assistant", "parts": []}], "contents[0].role",
                 "contents[0].role: Gemini has no role 'assistant'", id="role-assistant"),
    pytest.param([{"role": "user", "parts": {"text": "a"}}], "contents[0].parts",
                 "contents[0].parts: expected a list of parts, got dict", id="parts-object"),
    pytest.param([{"role": "user", "parts": "a"}], "contents[0].parts",
                 "contents[0].parts: expected a list of parts, got str", id="parts-string"),
    pytest.param(_user("hi"), P, f"{P}: expected a Part object, got str", id="part-string"),
    pytest.param(_user({"text": "a", "inline_data": _IMAGE}), P,
                 f"{P}: a part holds one kind of data, got 'text' and 'inline_data'",
                 id="two-data-keys"),
    pytest.param(_model({"function_call": {"name": "f"}, "executable_code": {"code": "1"}}), P,
                 f"{P}: a part holds one kind of data, got 'function_call' and "
                 "'executable_code'", id="call-and-code"),
    pytest.param(_model({"function_call": {"name": "f"}, "functionCall": {"name": "f"}}), P,
                 f"{P}: 'function_call' and 'functionCall' are the same key",
                 id="key-in-both-spellings"),
    pytest.param(_user({"text": 5}), f"{P}.text", f"{P}.text: expected str, got int",
                 id="text-int"),
    pytest.param(_user({"text": "a", "thought": "yes"}), f"{P}.thought",
                 f"{P}.thought: expected bool, got str", id="thought-str"),
    pytest.param(_model({"text": "a", "thought_signature": 5}), f"{P}.thought_signature",
                 f"{P}.thought_signature: expected base64 text, got int", id="signature-int"),
    pytest.param(_model({"thoughtSignature": ["a"]}), f"{P}.thought_signature",
                 f"{P}.thought_signature: expected base64 text, got list",
                 id="signature-list-camel"),
    pytest.param(_model({"text": "a", "thought_signature": "not base64!"}),
                 f"{P}.thought_signature",
                 f"{P}.thought_signature: invalid base64 at character 3: ' ' is not a base64 "
                 "character", id="signature-not-base64"),
    pytest.param(_user({"inline_data": "x"}), f"{P}.inline_data",
                 f"{P}.inline_data: expected an object, got str", id="inline-string"),
    pytest.param(_user({"inline_data": {"data": PNG}}), f"{P}.inline_data",
                 f"{P}.inline_data: missing 'mime_type'", id="inline-no-mime"),
    pytest.param(_user({"inline_data": {"mime_type": "image/png"}}), f"{P}.inline_data",
                 f"{P}.inline_data: missing 'data'", id="inline-no-data"),
    pytest.param(_user({"inline_data": {"mime_type": "image/png", "data": 5}}),
                 f"{P}.inline_data.data", f"{P}.inline_data.data: expected base64 text, got int",
                 id="inline-data-int"),
    pytest.param(_user({"inline_data": {"mime_type": "image/png", "data": "not base64!"}}),
                 f"{P}.inline_data.data",
                 f"{P}.inline_data.data: invalid base64 at character 3: ' ' is not a base64 "
                 "character", id="inline-bad-base64"),
    pytest.param(_user({"inline_data": {"mime_type": "png", "data": PNG}}),
                 f"{P}.inline_data.mime_type",
                 f"{P}.inline_data.mime_type: malformed media type 'png': expected type/subtype",
                 id="inline-bad-mime"),
    pytest.param(_user({"inlineData": {"mimeType": 5, "data": PNG}}),
                 f"{P}.inline_data.mime_type", f"{P}.inline_data.mime_type: expected str, got int",
                 id="inline-mime-int-camel"),
    pytest.param(_user({"inline_data": {**_IMAGE, "display_name": 5}}),
                 f"{P}.inline_data.display_name",
                 f"{P}.inline_data.display_name: expected str, got int", id="inline-name-int"),
    pytest.param(_user({"file_data": {"mime_type": "image/png"}}), f"{P}.file_data",
                 f"{P}.file_data: missing 'file_uri'", id="file-no-uri"),
    pytest.param(_user({"file_data": {"file_uri": 5}}), f"{P}.file_data.file_uri",
                 f"{P}.file_data.file_uri: expected str, got int", id="file-uri-int"),
    pytest.param(_user({"fileData": {"fileUri": "gs://a/b", "displayName": 5}}),
                 f"{P}.file_data.display_name",
                 f"{P}.file_data.display_name: expected str, got int", id="file-name-int-camel"),
    pytest.param(_user({"file_data": []}), f"{P}.file_data",
                 f"{P}.file_data: expected an object, got list", id="file-list"),
    pytest.param(_model({"function_call": "f"}), f"{P}.function_call",
                 f"{P}.function_call: expected a FunctionCall object, got str", id="call-string"),
    pytest.param(_model({"function_call": {"args": {}}}), f"{P}.function_call",
                 f"{P}.function_call: missing 'name'", id="call-no-name"),
    pytest.param(_model({"functionCall": {"args": {}}}), f"{P}.function_call",
                 f"{P}.function_call: missing 'name'", id="call-no-name-camel"),
    pytest.param(_model({"function_call": {"name": 5}}), f"{P}.function_call.name",
                 f"{P}.function_call.name: expected str, got int", id="call-name-int"),
    pytest.param(_model({"function_call": {"name": "f", "id": 5}}), f"{P}.function_call.id",
                 f"{P}.function_call.id: expected str, got int", id="call-id-int"),
    pytest.param(_model({"function_call": {"name": "f", "args": "{}"}}),
                 f"{P}.function_call.args", f"{P}.function_call.args: expected an object, got str",
                 id="call-args-text"),
    pytest.param(_model({"function_call": {"name": "f", "args": [1]}}),
                 f"{P}.function_call.args",
                 f"{P}.function_call.args: expected an object, got list", id="call-args-list"),
    pytest.param(_model({"function_call": {"name": "f", "args": {"x": float("nan")}}}),
                 f'{P}.function_call.args["x"]',
                 f'{P}.function_call.args["x"]: nan is not a JSON value', id="call-args-nan"),
    pytest.param(_user({"function_response": "x"}), f"{P}.function_response",
                 f"{P}.function_response: expected a FunctionResponse object, got str",
                 id="response-string"),
    pytest.param(_user({"function_response": {"response": {}}}), f"{P}.function_response",
                 f"{P}.function_response: missing 'name'", id="response-no-name"),
    pytest.param(_user({"functionResponse": {"name": ["f"], "response": {}}}),
                 f"{P}.function_response.name",
                 f"{P}.function_response.name: expected str, got list", id="response-name-list"),
    pytest.param(_user({"function_response": {"name": "f", "id": 5, "response": {}}}),
                 f"{P}.function_response.id", f"{P}.function_response.id: expected str, got int",
                 id="response-id-int"),
    pytest.param(_user({"function_response": {"name": "f", "response": "ok"}}),
                 f"{P}.function_response.response",
                 f"{P}.function_response.response: expected an object, got str",
                 id="response-string-value"),
    pytest.param(_user({"function_response": {"name": "f", "response": {"result": float("inf")}}}),
                 f"{P}.function_response.response",
                 f"{P}.function_response.response: inf is not a JSON value",
                 id="response-infinity"),
    pytest.param(_user({"function_response": {"name": "f", "response": {}, "parts": {}}}),
                 f"{P}.function_response.parts",
                 f"{P}.function_response.parts: expected a list of parts, got dict",
                 id="response-parts-object"),
    pytest.param(_user({"function_response": {"name": "f", "response": {}, "parts": ["a"]}}),
                 f"{P}.function_response.parts[0]",
                 f"{P}.function_response.parts[0]: expected a FunctionResponsePart object, got "
                 "str", id="response-part-string"),
    pytest.param(_user({"function_response": {"name": "f", "response": {},
                                              "parts": [{"text": "a"}]}}),
                 f"{P}.function_response.parts[0]",
                 f"{P}.function_response.parts[0]: expected 'inline_data' or 'file_data'",
                 id="response-part-text"),
    pytest.param(_user({"function_response": {"name": "f", "response": {}, "parts": [
        {"inline_data": {"mime_type": "image/png", "data": "@@"}}]}}),
                 f"{P}.function_response.parts[0].inline_data.data",
                 f"{P}.function_response.parts[0].inline_data.data: invalid base64 at character "
                 "0: '@' is not a base64 character", id="response-part-bad-base64"),
    pytest.param(_model({"image": {"x": 1}}), f"{P}.image",
                 f"{P}.image: 'image' is the label of ImageContent: build a ImageContent instead",
                 id="unknown-data-key-named-like-an-item"),
    pytest.param(_model({"executable_code": {"code": float("nan")}}),
                 f'{P}.executable_code["code"]',
                 f'{P}.executable_code["code"]: nan is not a JSON value', id="code-nan"),
    pytest.param([{"role": "user", "parts": [{"text": "a"}]},
                  {"role": "model", "parts": [{"text": "b"}, {"function_call": {}}]}],
                 "contents[1].parts[1].function_call",
                 "contents[1].parts[1].function_call: missing 'name'", id="located-deeper"),
]


@pytest.mark.parametrize(("contents", "path", "message"), BAD_CONTENTS)
def test_malformed_contents_are_refused_at_their_location(contents, path, message):
    with pytest.raises(FormatError) as raised:
        reading.from_payload(contents)
    assert type(raised.value) is FormatError
    assert (raised.value.path, str(raised.value)) == (path, message)


NEW_SYSTEM = "expected a string, a Content object, a part or a list of parts"


@pytest.mark.parametrize(("system", "path", "message"), [
    (5, "system_instruction",
     f"system_instruction: {NEW_SYSTEM}, got int"),
    ([5], "system_instruction",
     f"system_instruction: {NEW_SYSTEM}, got list"),
    ({"parts": "Be brief."}, "system_instruction.parts",
     "system_instruction.parts: expected a list of parts, got str"),
    ({"parts": [{"text": 5}]}, "system_instruction.parts[0].text",
     "system_instruction.parts[0].text: expected str, got int"),
    ({"parts": [{"text": "a"}, "b"]}, "system_instruction.parts[1]",
     "system_instruction.parts[1]: expected a Part object, got str"),
    ({"role": 5, "parts": []}, "system_instruction.role",
     "system_instruction.role: expected str, got int"),
])
def test_a_malformed_system_instruction_is_refused_at_its_location(system, path, message):
    with pytest.raises(FormatError) as raised:
        reading.from_payload([], system)
    assert type(raised.value) is FormatError
    assert (raised.value.path, str(raised.value)) == (path, message)


def test_what_the_sdk_allows_to_be_missing_is_read():
    # A response without ``response`` and a call without ``args`` are valid Content; they
    # read, and are written back as they came.
    contents = [
        {"role": "model", "parts": [{"function_call": {"name": "f"}}]},
        {"role": "user", "parts": [{"function_response": {"name": "f"}}]},
    ]
    history = reading.from_payload(contents)
    assert history.messages[0].items == [FunctionCallContent(
        "gemini-call-0-0", "f", {}, metadata={"gemini": {"no_args": True}})]
    assert history.messages[1].items == [FunctionResultContent(
        "gemini-call-0-0", None, name="f", metadata={"gemini": {"no_response": True}})]
    assert writing.to_payload(history) == {"contents": contents}


# --- reading responses -------------------------------------------------------------------


@pytest.mark.parametrize(("response", "candidate", "path", "message"), [
    ([], 0, "response", "response: expected a GenerateContentResponse object, got list"),
    ({"candidates": {"content": {}}}, 0, "response.candidates",
     "response.candidates: expected a list, got dict"),
    ({"candidates": [{}]}, 1, "response.candidates",
     "response.candidates: no candidate 1 among 1"),
    ({"candidates": [{}, {}]}, -1, "response.candidates",
     "response.candidates: no candidate -1 among 2"),
    ({"candidates": [{}]}, "0", "response.candidates",
     "response.candidates: no candidate '0' among 1"),
    ({"candidates": []}, 1, "response.candidates",
     "response.candidates: no candidate 1 among 0"),
    ({"candidates": ["x"]}, 0, "response.candidates[0]",
     "response.candidates[0]: expected a Candidate object, got str"),
    ({"candidates": [{"content": "x"}]}, 0, "response.candidates[0].content",
     "response.candidates[0].content: expected a Content object, got str"),
    ({"candidates": [{"content": {"role": "user", "parts": []}}]}, 0,
     "response.candidates[0].content.role",
     "response.candidates[0].content.role: an answer is the model's, got role 'user'"),
    ({"candidates": [{"content": {"parts": {}}}]}, 0, "response.candidates[0].content.parts",
     "response.candidates[0].content.parts: expected a list of parts, got dict"),
    ({"candidates": [{}, {"content": {"parts": [{"functionCall": {}}]}}]}, 1,
     "response.candidates[1].content.parts[0].function_call",
     "response.candidates[1].content.parts[0].function_call: missing 'name'"),
    ({"candidates": [{"finishReason": 5}]}, 0, "response.candidates[0].finish_reason",
     "response.candidates[0].finish_reason: expected str, got int"),
    ({"candidates": [], "usage_metadata": 5}, 0, "response.usage_metadata",
     "response.usage_metadata: expected a usage metadata object, got int"),
    ({"candidates": [], "responseId": 5}, 0, "response.response_id",
     "response.response_id: expected str, got int"),
    ({"candidates": [], "model_version": ["m"]}, 0, "response.model_version",
     "response.model_version: expected str, got list"),
])
def test_a_malformed_response_is_refused_at_its_location(response, candidate, path, message):
    with pytest.raises(FormatError) as raised:
        reading.from_response(response, candidate=candidate)
    assert type(raised.value) is FormatError
    assert (raised.value.path, str(raised.value)) == (path, message)


@pytest.mark.parametrize(("usage", "path", "message"), [
    pytest.param({"prompt_token_count": "5"}, "response.usage_metadata.prompt_token_count",
                 "response.usage_metadata.prompt_token_count: expected int, got str",
                 id="text"),
    pytest.param({"candidatesTokenCount": 1.5},
                 "response.usage_metadata.candidates_token_count",
                 "response.usage_metadata.candidates_token_count: expected int, got float",
                 id="float-camel"),
    pytest.param({"total_token_count": True}, "response.usage_metadata.total_token_count",
                 "response.usage_metadata.total_token_count: expected int, got bool",
                 id="bool"),
])
def test_a_usage_count_of_the_wrong_type_is_refused_at_its_location(usage, path, message):
    # Not read as zero: a count that is no int is a malformed response.
    with pytest.raises(FormatError) as raised:
        reading.from_response({"candidates": [], "usage_metadata": usage})
    assert (raised.value.path, str(raised.value)) == (path, message)


# --- writing: what no payload can hold ---------------------------------------------------

_CALL = M("assistant", items=[FunctionCallContent("c1", "f", {})])


def _broken_text() -> TextContent:
    text = TextContent("hi")
    object.__setattr__(text, "_text", 5)
    return text


def _late_date_call() -> FunctionCallContent:
    call = FunctionCallContent("c1", "f", {"when": "today"})
    call.arguments["when"] = datetime.date(2025, 1, 1)  # type: ignore[index]
    return call


@pytest.mark.parametrize(("history", "path", "message"), [
    pytest.param([M("critic", items=[TextContent("a")])], "messages[0].role",
                 "messages[0].role: Gemini has no role 'critic'", id="custom-role"),
    pytest.param([_CALL, M("tool", items=[FunctionResultContent("c9", "x")])],
                 "messages[1].items[0].name",
                 "messages[1].items[0].name: Gemini needs the name of the function a result "
                 "answers: none is given, and no call before it has the id 'c9'",
                 id="result-of-an-unknown-call"),
    pytest.param([M("tool", items=[FunctionResultContent(None, "x")])],
                 "messages[0].items[0].name",
                 "messages[0].items[0].name: Gemini needs the name of the function a result "
                 "answers: none is given, and it has no call id", id="result-without-id-or-name"),
    pytest.param([M("assistant", items=[FunctionCallContent("c1", "f", "[1]")])],
                 "messages[0].items[0].arguments",
                 "messages[0].items[0].arguments: expected arguments that are a JSON object, "
                 "got an array", id="arguments-array"),
    pytest.param([M("assistant", items=[FunctionCallContent("c1", "f", '{"a": ')])],
                 "messages[0].items[0].arguments",
                 "messages[0].items[0].arguments: arguments are not valid JSON: unexpected end "
                 "of data: line 1 column 7 (char 6)", id="arguments-truncated"),
    pytest.param([M("user", items=[TextContent("a")]),
                  M("assistant", items=[FunctionCallContent("c1", "f", '"text"')])],
                 "messages[1].items[0].arguments",
                 "messages[1].items[0].arguments: expected arguments that are a JSON object, "
                 "got a JSON str", id="arguments-string"),
    pytest.param([M("assistant", items=[_late_date_call()])],
                 'messages[0].items[0].arguments["when"]',
                 'messages[0].items[0].arguments["when"]: date is not a JSON value',
                 id="arguments-value-put-later"),
    pytest.param([M("user", items=[TextContent("a"), _broken_text()])],
                 "messages[0].items[1].text",
                 "messages[0].items[1].text: expected a str, got int", id="item-broken-by-hand"),
])
@pytest.mark.parametrize("on_unsupported", [None, "drop"])
def test_what_cannot_be_written_is_a_located_format_error(history, path, message,
                                                          on_unsupported):
    with pytest.raises(FormatError) as raised:
        writing.to_payload(history, on_unsupported=on_unsupported)
    assert type(raised.value) is FormatError
    assert (raised.value.path, str(raised.value)) == (path, message)


def test_a_value_put_into_an_unknown_part_later_is_located():
    part = UnknownContent("executable_code", {"code": "1", "language": "PYTHON"})
    part.fields["code"] = datetime.date(2025, 1, 1)
    with pytest.raises(FormatError) as raised:
        writing.to_payload([M("assistant", items=[part])])
    assert raised.value.path.startswith("messages[0].items[0].fields")


@pytest.mark.parametrize(("argument", "value", "message"), [
    ("on_unsupported", "ignore",
     "on_unsupported: expected 'error', 'warn', 'drop' or None, got 'ignore'"),
    ("spelling", "kebab", "spelling: expected 'snake' or 'camel', got 'kebab'"),
    ("spelling", None, "spelling: expected 'snake' or 'camel', got None"),
])
def test_a_bad_option_is_refused(argument, value, message):
    with pytest.raises(InvalidValueError) as raised:
        writing.to_payload([], **{argument: value})
    assert str(raised.value) == message


# --- writing: on_unsupported -------------------------------------------------------------

_CITED = TextContent("a", citations=[Citation(url="https://x.test", title="X", text_start=0,
                                              text_end=1)])


def _with_metadata(target: Any, key: str) -> Any:
    target.metadata[key] = {"k": 1}
    return target


# Each case: the history, the location and detail of its one loss, whether it is an item
# (refused by default) or a field (warned about), and the payload written without it.
LOSSES = [
    pytest.param(
        [M("assistant", items=[TextContent("a"), RefusalContent("no")])],
        "messages[0].items[1]", "Gemini cannot carry refusal content in an assistant message",
        "error", {"contents": [{"role": "model", "parts": [{"text": "a"}]}]}, id="refusal"),
    pytest.param(
        [M("user", items=[TextContent("a"), ImageContent(file_id="file-1")])],
        "messages[0].items[1]",
        "Gemini cannot carry image content by a file id (Gemini names files by URI)",
        "error", {"contents": [{"role": "user", "parts": [{"text": "a"}]}]}, id="image-file-id"),
    pytest.param(
        [M("user", items=[AudioContent(file_id="f1"), TextContent("a")])],
        "messages[0].items[0]",
        "Gemini cannot carry audio content by a file id (Gemini names files by URI)",
        "error", {"contents": [{"role": "user", "parts": [{"text": "a"}]}]}, id="audio-file-id"),
    pytest.param(
        [M("user", items=[TextContent("a"), FunctionCallContent("c1", "f", {})])],
        "messages[0].items[1]", "Gemini cannot carry function_call content in a user message",
        "error", {"contents": [{"role": "user", "parts": [{"text": "a"}]}]},
        id="call-in-a-user-message"),
    pytest.param(
        [M("assistant", items=[TextContent("a"), UnknownContent("web_search_call",
                                                                {"id": "ws"})])],
        "messages[0].items[1]",
        "Gemini cannot carry unknown content of type 'web_search_call' (no Gemini part)",
        "error", {"contents": [{"role": "model", "parts": [{"text": "a"}]}]},
        id="unknown-item"),
    pytest.param(
        [_CALL, M("tool", items=[FunctionResultContent(
            "c1", [TextContent("a"), RefusalContent("no")])])],
        "messages[1].items[0].result[1]",
        "Gemini cannot carry refusal content in a function result", "error",
        {"contents": [
            {"role": "model", "parts": [{"function_call": {"id": "c1", "name": "f",
                                                           "args": {}}}]},
            {"role": "user", "parts": [{"function_response": {
                "id": "c1", "name": "f", "response": {"result": "a"}}}]}]},
        id="refusal-in-a-result"),
    pytest.param(
        [M("user", items=[ImageContent.from_base64(PNG, "image/png", detail="low")])],
        "messages[0].items[0].detail", "Gemini cannot carry an image's detail", "warn",
        {"contents": [{"role": "user", "parts": [{"inline_data": _IMAGE}]}]}, id="detail"),
    pytest.param(
        [M("user", items=[FileContent(uri="gs://a/b.pdf", mime_type="application/pdf",
                                      filename="b.pdf")])],
        "messages[0].items[0].filename",
        "Gemini cannot carry a file's name (the Gemini Developer API refuses display_name)",
        "warn", {"contents": [{"role": "user", "parts": [{"file_data": {
            "file_uri": "gs://a/b.pdf", "mime_type": "application/pdf"}}]}]}, id="filename"),
    pytest.param(
        [M("user", items=[TextContent("a")], name="ann")],
        "messages[0].name", "Gemini cannot carry the name of a user message", "warn",
        {"contents": [{"role": "user", "parts": [{"text": "a"}]}]}, id="name"),
    pytest.param(
        [_with_metadata(M("user", items=[TextContent("a")]), "app")],
        'messages[0].metadata["app"]', "Gemini cannot carry metadata", "warn",
        {"contents": [{"role": "user", "parts": [{"text": "a"}]}]}, id="message-metadata"),
    pytest.param(
        [M("user", items=[_with_metadata(TextContent("a"), "note")])],
        'messages[0].items[0].metadata["note"]', "Gemini cannot carry metadata", "warn",
        {"contents": [{"role": "user", "parts": [{"text": "a"}]}]}, id="item-metadata"),
    pytest.param(
        [M("assistant", items=[ReasoningContent("hm", signature="sig", provider="anthropic"),
                               TextContent("a")])],
        "messages[0].items[0]",
        "Gemini cannot carry reasoning from another provider ('anthropic'); it is never sent",
        "warn", {"contents": [{"role": "model", "parts": [{"text": "a"}]}]},
        id="another-providers-reasoning"),
    pytest.param(
        [M("assistant", items=[ReasoningContent("", encrypted="enc"), TextContent("a")])],
        "messages[0].items[0]",
        "Gemini cannot carry encrypted reasoning (another provider's); it is never sent",
        "warn", {"contents": [{"role": "model", "parts": [{"text": "a"}]}]},
        id="encrypted-reasoning"),
    pytest.param(
        [M("user", items=[TextContent("a")]), M("system", items=[TextContent("late")])],
        "messages[1]",
        "Gemini cannot carry the place of a system message after the first content (moved "
        "to the system)", "warn",
        {"contents": [{"role": "user", "parts": [{"text": "a"}]}],
         "system_instruction": {"parts": [{"text": "late"}]}}, id="late-system-message"),
    pytest.param(
        [M("assistant", items=[ReasoningContent("hm", signature="not base64!",
                                                provider="gemini")])],
        "messages[0].items[0].signature",
        "Gemini cannot carry a thought signature that is not base64 text (the API takes bytes "
        "there)", "warn",
        {"contents": [{"role": "model", "parts": [{"text": "hm", "thought": True}]}]},
        id="reasoning-signature-not-base64"),
    pytest.param(
        [M("assistant", items=[TextContent("a", metadata={"gemini": {"thought_signature": "0"}})])],
        'messages[0].items[0].metadata["gemini"].thought_signature',
        "Gemini cannot carry a thought signature that is not base64 text (the API takes bytes "
        "there)", "warn",
        {"contents": [{"role": "model", "parts": [{"text": "a"}]}]},
        id="hint-signature-not-base64"),
    pytest.param(
        [M("assistant", items=[_CITED])],
        "messages[0].items[0].citations",
        "Gemini cannot carry citations on text (its grounding is data of a response only)",
        "warn", {"contents": [{"role": "model", "parts": [{"text": "a"}]}]}, id="citations"),
]


def _written(history: Any, on_unsupported: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = writing.to_payload(history, on_unsupported=on_unsupported)
    assert all(note.category is ConversionWarning for note in caught)
    return payload, [str(note.message) for note in caught]


@pytest.mark.parametrize(("history", "path", "detail", "default", "expected"), LOSSES)
def test_error_refuses_the_loss_at_its_place(history, path, detail, default, expected):
    with pytest.raises(UnsupportedContentError) as raised:
        writing.to_payload(history, on_unsupported="error")
    assert raised.value.path == path
    assert str(raised.value) == f"{path}: {detail} (pass on_unsupported='warn' to leave it out)"


@pytest.mark.parametrize(("history", "path", "detail", "default", "expected"), LOSSES)
def test_warn_leaves_it_out_with_the_exact_warning(history, path, detail, default, expected):
    payload, notes = _written(history, "warn")
    assert notes == [f"{path}: dropped: {detail}"]
    assert payload == expected
    validate_gemini_payload(payload)


@pytest.mark.parametrize(("history", "path", "detail", "default", "expected"), LOSSES)
def test_drop_leaves_it_out_silently(history, path, detail, default, expected):
    assert _written(history, "drop") == (expected, [])


@pytest.mark.parametrize(("history", "path", "detail", "default", "expected"), LOSSES)
def test_by_default_items_are_refused_and_fields_warned_about(history, path, detail, default,
                                                              expected):
    if default == "error":
        with pytest.raises(UnsupportedContentError) as raised:
            writing.to_payload(history)
        assert raised.value.path == path
    else:
        assert _written(history, None) == (expected, [f"{path}: dropped: {detail}"])


def test_a_message_whose_items_were_all_left_out_is_left_out():
    history = [M("user", items=[TextContent("a")]),
               M("assistant", items=[RefusalContent("no")]),
               M("user", items=[TextContent("b")])]
    payload, notes = _written(history, "warn")
    assert payload == {"contents": [{"role": "user", "parts": [{"text": "a"}]},
                                    {"role": "user", "parts": [{"text": "b"}]}]}
    assert notes == ["messages[1].items[0]: dropped: Gemini cannot carry refusal content in "
                     "an assistant message"]


def test_citations_read_from_gemini_are_left_out_without_a_word():
    response = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Sky is blue"}]},
                                "citation_metadata": {"citations": [
                                    {"start_index": 0, "end_index": 3,
                                     "uri": "https://x.test/sky"}]}}]}
    message = reading.from_response(response)
    assert message.items[0].citations  # read as citations
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        payload = writing.to_payload([message])
    assert payload == {"contents": [{"role": "model", "parts": [{"text": "Sky is blue"}]}]}
