"""The Anthropic SDK validators catch what plain TypedDict validation lets through.

Each trap is shown twice: the bad value passes the SDK's adapter alone, and the validator
refuses it, so the validators used on everything the Anthropic format writes cannot pass
vacuously.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Annotated, Any, Union, get_args, get_origin

import pytest
from anthropic.types import MessageParam
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
from format_helpers import (
    ANTHROPIC_BLOCK_ADAPTER,
    ANTHROPIC_MESSAGE_ADAPTER,
    ANTHROPIC_REQUEST_ADAPTER,
    PDF,
    PNG,
    force_lazy,
    key_problems,
    validate_anthropic_message,
    validate_anthropic_payload,
    validate_anthropic_request,
)
from pydantic import ValidationError
from typing_extensions import NotRequired, Required, is_typeddict


def _user(*blocks: dict) -> dict:
    return {"role": "user", "content": list(blocks)}


def test_a_wrong_type_in_a_nested_block_is_refused():
    # A media type the API does not take, inside an image inside a tool result.
    bad = _user({"type": "tool_result", "tool_use_id": "toolu_1", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": PNG}},
    ]})
    # validate_python gives a lazy iterator and checks nothing inside it ...
    ANTHROPIC_MESSAGE_ADAPTER.validate_python(bad)
    # ... the validator iterates it.
    with pytest.raises(AssertionError, match=r"message is not a MessageParam"):
        validate_anthropic_message(bad)


def test_a_block_that_passes_only_as_a_response_model_is_refused():
    # The third trap: MessageParam's content union also takes the SDK's response models
    # (TextBlock ...), which accept this bogus cache_control; ContentBlockParam does not.
    bad = _user({"type": "text", "text": "x", "cache_control": {"type": "bogus"}})
    validated = ANTHROPIC_MESSAGE_ADAPTER.validate_python(bad)
    assert [type(block).__name__ for block in validated["content"]] == ["TextBlock"]
    with pytest.raises(AssertionError, match=r"message\.content\[0\] is not a ContentBlockParam"):
        validate_anthropic_message(bad)


def test_a_wrong_type_in_a_thinking_block_is_refused():
    bad = {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "hmm", "signature": 5},
    ]}
    with pytest.raises(AssertionError, match=r"message is not a MessageParam"):
        validate_anthropic_message(bad)


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ({"role": "user", "content": "x", "name": "ann"},
         "m.name: key not declared by UserMessageParam"),
        (_user({"type": "text", "text": "x", "zzz": 1}),
         "m.content[0].zzz: key not declared by TextBlockParam"),
        (_user({"type": "image", "source": {"type": "url", "url": "https://x.test/a.png",
                                             "detail": "low"}}),
         "m.content[0].source.detail: key not declared by URLImageSourceParam"),
        (_user({"type": "tool_result", "tool_use_id": "t", "content": [
            {"type": "text", "text": "x", "q": 1}]}),
         "m.content[0].content[0].q: key not declared by TextBlockParam"),
        (_user({"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                                "data": PDF}, "filename": "a.pdf"}),
         "m.content[0].filename: key not declared by DocumentBlockParam"),
        ({"role": "assistant", "content": [{"type": "text", "text": "t", "citations": [
            {"type": "char_location", "cited_text": "c", "document_index": 0,
             "document_title": None, "start_char_index": 0, "end_char_index": 1,
             "file_id": None}]}]},
         "m.content[0].citations[0].file_id: key not declared by CitationCharLocationParam"),
        ({"role": "assistant", "content": [
            {"type": "tool_use", "id": "t", "name": "f", "input": {}, "index": 0}]},
         "m.content[0].index: key not declared by ToolUseBlockParam"),
    ],
)
def test_unknown_keys_are_reported(message, problem):
    # validate_python ignores unknown keys ...
    ANTHROPIC_MESSAGE_ADAPTER.validate_python(message)
    # ... key_problems does not, and so neither does the validator.
    assert problem in key_problems(message, MessageParam, "m")
    with pytest.raises(AssertionError, match="key not declared"):
        validate_anthropic_message(message, "m")


def test_missing_required_keys_are_reported():
    message = {"role": "assistant", "content": [{"type": "thinking", "thinking": "hmm"}]}
    assert "m.content[0]: missing key 'signature' required by ThinkingBlockParam" in (
        key_problems(message, MessageParam, "m")
    )
    with pytest.raises(AssertionError):
        validate_anthropic_message(message, "m")


def test_an_unknown_request_field_is_refused():
    body = {"model": "claude-sonnet-4-5", "max_tokens": 16, "frobnicate": True,
            "messages": [{"role": "user", "content": "x"}]}
    ANTHROPIC_REQUEST_ADAPTER.validate_python(body)
    assert key_problems(body, MessageCreateParamsNonStreaming, "body") == [
        "body.frobnicate: key not declared by MessageCreateParamsNonStreaming"
    ]
    with pytest.raises(AssertionError, match=r"body\.frobnicate: key not declared"):
        validate_anthropic_request(body)


def test_sampling_fields_pass_only_when_named_as_extra_body():
    # The installed SDK declares no temperature / top_p / top_k: they go with extra_body.
    body = {"model": "claude-sonnet-4-5", "max_tokens": 16, "temperature": 0.5, "top_k": 5,
            "messages": [{"role": "user", "content": "x"}]}
    with pytest.raises(AssertionError, match=r"body\.temperature: key not declared"):
        validate_anthropic_request(body)
    validate_anthropic_request(body, extra_body=["temperature", "top_k"])
    with pytest.raises(AssertionError, match="is not MessageCreateParamsNonStreaming"):
        validate_anthropic_request({**body, "max_tokens": "16"}, extra_body=["temperature",
                                                                              "top_k"])


def test_a_request_checks_its_messages_blocks_too():
    body = {"model": "claude-sonnet-4-5", "max_tokens": 16, "messages": [
        _user({"type": "text", "text": "x", "cache_control": {"type": "bogus"}})]}
    ANTHROPIC_REQUEST_ADAPTER.validate_python(body)
    with pytest.raises(AssertionError, match=r"body\.messages\[0\]\.content\[0\] is not a ContentBlockParam"):
        validate_anthropic_request(body)


@pytest.mark.parametrize(
    ("payload", "match"),
    [
        ({"messages": [], "model": "m"}, "unexpected keys"),
        ({"system": [{"type": "text", "text": "s", "x": 1}], "messages": []},
         r"system\[0\]\.x: key not declared by TextBlockParam"),
        ({"system": [{"type": "image", "source": {"type": "url", "url": "u"}}], "messages": []},
         "system is not a system prompt"),
        ({"messages": [{"role": "user", "content": b"bytes"}]}, "payload is not JSON"),
    ],
)
def test_a_bad_payload_is_refused(payload, match):
    with pytest.raises(AssertionError, match=match):
        validate_anthropic_payload(payload)


def test_a_stream_request_is_checked_as_one():
    validate_anthropic_request({"model": "m", "max_tokens": 1, "stream": True,
                                "messages": [{"role": "user", "content": "x"}]})


@pytest.mark.parametrize(
    "message",
    [
        {"role": "user", "content": "x"},
        _user(
            {"type": "text", "text": "t", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                          "data": PNG}},
            {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}},
            {"type": "image", "source": {"type": "file", "file_id": "file_1"}},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                             "data": PDF},
             "title": "a.pdf", "context": "c", "citations": {"enabled": True}},
            {"type": "document", "source": {"type": "text", "media_type": "text/plain",
                                             "data": "The grass is green."}},
            {"type": "document", "source": {"type": "content", "content": [
                {"type": "text", "text": "a"}]}},
            {"type": "tool_result", "tool_use_id": "t", "is_error": True, "content": [
                {"type": "text", "text": "x"},
                {"type": "image", "source": {"type": "url", "url": "https://x.test/b.png"}}]},
        ),
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "hmm", "signature": "sig"},
            {"type": "redacted_thinking", "data": "opaque"},
            {"type": "text", "text": "t", "citations": [
                {"type": "web_search_result_location", "cited_text": "c", "url": "https://x.test",
                 "title": None, "encrypted_index": "e"}]},
            {"type": "tool_use", "id": "t", "name": "f", "input": {"a": [1, {"b": None}]},
             "caller": {"type": "direct"}},
            {"type": "server_tool_use", "id": "s", "name": "web_search", "input": {"query": "q"}},
            {"type": "web_search_tool_result", "tool_use_id": "s", "content": [
                {"type": "web_search_result", "url": "https://x.test", "title": "T",
                 "encrypted_content": "e", "page_age": None}]},
        ]},
    ],
)
def test_valid_messages_pass(message):
    validate_anthropic_message(message)


def test_a_tool_input_schema_takes_any_json_schema_keyword():
    # InputSchemaTyped allows extra keys, and the union also has Dict[str, object].
    tool = {"name": "f", "input_schema": {"type": "object", "additionalProperties": False,
                                          "properties": {"a": {"type": "string", "x-y": 1}},
                                          "$defs": {}}}
    validate_anthropic_request({"model": "m", "max_tokens": 1, "tools": [tool],
                                "messages": [{"role": "user", "content": "x"}]})
    with pytest.raises(AssertionError, match=r"body\.tools\[0\]\.inputschema: key not declared"):
        validate_anthropic_request({"model": "m", "max_tokens": 1,
                                    "tools": [{**tool, "inputschema": {}}],
                                    "messages": [{"role": "user", "content": "x"}]})


def _web_search_error(code: str) -> dict:
    return {"role": "assistant", "content": [
        {"type": "server_tool_use", "id": "s", "name": "web_search", "input": {"query": "q"}},
        {"type": "web_search_tool_result", "tool_use_id": "s",
         "content": {"type": "web_search_tool_result_error", "error_code": code}},
    ]}


def test_a_web_search_error_object_is_checked_on_its_own():
    validate_anthropic_message(_web_search_error("max_uses_exceeded"))
    with pytest.raises(AssertionError, match="is not a"):
        validate_anthropic_message(_web_search_error("out_of_coffee"))
    # Validated as a block alone, the valid object would be refused (a dict as an Iterable).
    block = _web_search_error("max_uses_exceeded")["content"][1]
    with pytest.raises(ValidationError, match="Input should be a valid dictionary"):
        force_lazy(ANTHROPIC_BLOCK_ADAPTER.validate_python(block, strict=True))


def _iterable_or_object_unions() -> list[str]:
    """Every field of the request types typed ``Union[Iterable[X], <an object type>]``."""
    found: list[str] = []
    seen: set[Any] = set()

    def strip(annotation: Any) -> Any:
        while get_origin(annotation) in (Required, NotRequired, Annotated):
            annotation = get_args(annotation)[0]
        return annotation

    def walk(annotation: Any, path: str) -> None:
        annotation = strip(annotation)
        origin = get_origin(annotation)
        if origin in (Union, types.UnionType):
            members = [strip(member) for member in get_args(annotation)]
            if any(get_origin(m) is collections.abc.Iterable for m in members) and any(
                is_typeddict(m) or get_origin(m) is dict for m in members
            ):
                found.append(path)
        if origin is not None:
            for argument in get_args(annotation):
                walk(argument, path)
        elif is_typeddict(annotation) and annotation not in seen:
            seen.add(annotation)
            for key, hint in typing.get_type_hints(annotation, include_extras=True).items():
                walk(hint, f"{annotation.__name__}.{key}")

    walk(MessageCreateParamsNonStreaming, "")
    return sorted(set(found))


def test_the_web_search_result_is_the_only_iterable_or_object_union():
    # If the SDK adds another, _validate_anthropic_block must learn it too.
    assert _iterable_or_object_unions() == ["WebSearchToolResultBlockParam.content"]


def test_validation_is_strict():
    # Lax pydantic would take "16" for an int; the API's JSON would not.
    with pytest.raises(AssertionError, match="is not MessageCreateParamsNonStreaming"):
        validate_anthropic_request({"model": "m", "max_tokens": "16",
                                    "messages": [{"role": "user", "content": "x"}]})
    with pytest.raises(AssertionError, match="message is not a MessageParam"):
        validate_anthropic_message(_user({"type": "tool_result", "tool_use_id": "t",
                                          "is_error": "true"}))
