"""The libraries compared, each driven through its own public API.

Every contender has the same five methods:

- ``build(messages)``: make the library's object from a conversation of Chat Completions dicts;
- ``dump(obj)``: its JSON text (``str`` or ``bytes``);
- ``load(text)``: the object back from that text;
- ``to_dicts(obj)``: Chat Completions dicts again (``None`` in `HAS_TO_DICTS` = no such API);
- ``equal(original, output)``: whether ``output`` says what ``original`` says (see `canonical`).

How each is driven, and why:

- ``semantic_chat``: `openai_chat.from_payload`, `serialization.to_json` /
  `from_json(..., ChatHistory)`, `openai_chat.to_payload`.
- ``semantic-kernel``: a ``ChatHistory`` of ``ChatMessageContent`` with ``TextContent``,
  ``ImageContent(data_uri=...)``, ``AudioContent(data=..., data_format="base64")``,
  ``FunctionCallContent`` and ``FunctionResultContent``; ``model_dump_json`` /
  ``ChatHistory.model_validate_json``; to-dicts with ``ChatMessageContent.to_dict()`` per
  message. That is the public method its OpenAI connector itself uses: the connector's
  ``_prepare_chat_history_for_request`` (private) is ``[m.to_dict() for m in history.messages]``.
- ``langchain-core``: ``SystemMessage``, ``HumanMessage`` (standard content blocks: ``text``,
  ``image`` and ``audio`` with ``base64`` + ``mime_type``), ``AIMessage`` with ``tool_calls``
  (arguments parsed into dicts, as LangChain holds them), ``ToolMessage``; dump is
  ``messages_to_dict`` then ``orjson.dumps``, load ``orjson.loads`` then
  ``messages_from_dict`` (orjson rather than the stdlib, to give LangChain its best);
  to-dicts ``convert_to_openai_messages``.
- ``pydantic-ai``: one ``ModelRequest`` / ``ModelResponse`` per Chat Completions message, with
  ``SystemPromptPart``, ``UserPromptPart`` (images and audio as ``BinaryContent.from_data_uri``),
  ``TextPart``, ``ToolCallPart`` (arguments kept as text) and ``ToolReturnPart``; dump / load
  with ``ModelMessagesTypeAdapter.dump_json`` / ``validate_json``. It has no public conversion
  to Chat Completions dicts (its OpenAI model maps messages inside an async request method), so
  its to-dicts is ``None`` and shows as ``-``.
- ``msgspec``: a hand-written tagged union of ``msgspec.Struct`` classes (``tag=True``) holding
  the same data as semantic_chat in the same shape (a message per role, holding a list of
  tagged items: text, image and audio with media type and base64 text, function call, function
  result), ``msgspec.json`` encode / decode, and hand-written build and to-dicts: the "fast
  typed structs" reference.
- ``dicts``: the floor. Build is a shallow copy of the list (the dicts as given), dump
  ``orjson.dumps``, load ``orjson.loads``, to-dicts the identity.

Equality is semantic: ``canonical`` forgives what the Chat Completions API does not read as a
difference (the spelling of tool-call arguments JSON, ``content`` ``None`` / ``""`` / missing
on an assistant message, a lone text part instead of a string) and nothing else. The runner
also reports byte-exact equality (``==`` on the dicts).
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import langchain_core.messages as lc
import msgspec
import orjson
import pydantic_ai.messages as pai
import semantic_kernel.contents as sk

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import make_corpus

from semantic_chat import ChatHistory as SCHistory
from semantic_chat.formats import openai_chat
from semantic_chat.serialization import from_json, to_json

__all__ = [
    "CONTENDERS",
    "Contender",
    "canonical",
    "messages_equal",
]

Message = dict[str, Any]


# --- equality -------------------------------------------------------------------------------


def _json_or_text(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return ("json", json.loads(text))
    except ValueError:
        return ("text", text)


def canonical(message: Message) -> Message:
    """The message with representation-only differences removed (see the module docstring)."""
    out = dict(message)
    content = out.get("content")
    if (
        isinstance(content, list)
        and len(content) == 1
        and isinstance(content[0], dict)
        and set(content[0]) == {"type", "text"}
        and content[0]["type"] == "text"
    ):
        out["content"] = content[0]["text"]
    if out.get("role") == "assistant":
        if out.get("content") in (None, "", []):
            out.pop("content", None)
        if not out.get("tool_calls"):
            out.pop("tool_calls", None)
        else:
            calls = []
            for original in out["tool_calls"]:
                call = dict(original)
                function = dict(call.get("function") or {})
                function["arguments"] = _json_or_text(function.get("arguments"))
                call["function"] = function
                call.setdefault("type", "function")
                calls.append(call)
            out["tool_calls"] = calls
    return out


def messages_equal(
    original: list[Message], output: list[Message], *, strict: bool = False
) -> list[bool]:
    """Per message of ``original``: is the message at the same place in ``output`` equal?

    Messages past the end of a shorter ``output`` count as different.
    """
    result = []
    for index, message in enumerate(original):
        if index >= len(output):
            result.append(False)
        elif strict:
            result.append(message == output[index])
        else:
            result.append(canonical(message) == canonical(output[index]))
    return result


# --- the common shape -------------------------------------------------------------------------


class Contender:
    """One library, driven through its public API."""

    name: ClassVar[str] = ""
    package: ClassVar[str | None] = None  # the distribution whose version is reported
    has_to_dicts: ClassVar[bool] = True

    def build(self, messages: list[Message]) -> Any:
        raise NotImplementedError

    def dump(self, obj: Any) -> str | bytes:
        raise NotImplementedError

    def load(self, text: str | bytes) -> Any:
        raise NotImplementedError

    def to_dicts(self, obj: Any) -> list[Message] | None:
        raise NotImplementedError

    def equal(self, original: list[Message], output: list[Message] | None) -> bool:
        return output is not None and len(original) == len(output) and all(
            messages_equal(original, output)
        )

    def same_object(self, a: Any, b: Any) -> bool:
        """Whether two of this contender's objects are equal (for the JSON round trip)."""
        return bool(a == b)


# --- semantic_chat --------------------------------------------------------------------------


class SemanticChat(Contender):
    name = "semantic_chat"
    package = "semantic_chat"

    def build(self, messages: list[Message]) -> SCHistory:
        return openai_chat.from_payload(messages)

    def dump(self, obj: SCHistory) -> str:
        return to_json(obj)

    def load(self, text: str | bytes) -> SCHistory:
        return from_json(text, SCHistory)

    def to_dicts(self, obj: SCHistory) -> list[Message]:
        return openai_chat.to_payload(obj)


# --- Semantic Kernel ------------------------------------------------------------------------


class SemanticKernel(Contender):
    name = "semantic-kernel"
    package = "semantic-kernel"

    def __init__(self) -> None:
        self.History = sk.ChatHistory
        self.Message = sk.ChatMessageContent
        self.Text = sk.TextContent
        self.Image = sk.ImageContent
        self.Audio = sk.AudioContent
        self.Call = sk.FunctionCallContent
        self.Result = sk.FunctionResultContent
        self.roles = {role.value: role for role in sk.AuthorRole}

    def _parts(self, content: str | list[dict[str, Any]]) -> list[Any]:
        if isinstance(content, str):
            return [self.Text(text=content)]
        items: list[Any] = []
        for part in content:
            kind = part["type"]
            if kind == "text":
                items.append(self.Text(text=part["text"]))
            elif kind == "image_url":
                items.append(self.Image(data_uri=part["image_url"]["url"]))
            elif kind == "input_audio":
                audio = part["input_audio"]
                mime_type = f"audio/{audio['format']}"
                items.append(
                    self.Audio(data=audio["data"], data_format="base64", mime_type=mime_type)
                )
            else:
                raise ValueError(f"unexpected part {kind!r}")
        return items

    def build(self, messages: list[Message]) -> Any:
        history = self.History()
        names: dict[str, str] = {}
        for message in messages:
            role = message["role"]
            items: list[Any]
            if role == "tool":
                call_id = message["tool_call_id"]
                items = [
                    self.Result(id=call_id, name=names.get(call_id), result=message["content"])
                ]
            elif role == "assistant":
                content = message.get("content")
                items = self._parts(content) if content else []
                for call in message.get("tool_calls") or ():
                    function = call["function"]
                    names[call["id"]] = function["name"]
                    items.append(
                        self.Call(
                            id=call["id"], name=function["name"], arguments=function["arguments"]
                        )
                    )
            else:
                items = self._parts(message["content"])
            history.add_message(
                self.Message(role=self.roles[role], items=items, name=message.get("name"))
            )
        return history

    def dump(self, obj: Any) -> str:
        return str(obj.model_dump_json())

    def load(self, text: str | bytes) -> Any:
        return self.History.model_validate_json(text)

    def to_dicts(self, obj: Any) -> list[Message]:
        return [message.to_dict() for message in obj.messages]


# --- LangChain ------------------------------------------------------------------------------


class LangChain(Contender):
    name = "langchain-core"
    package = "langchain-core"

    def __init__(self) -> None:
        self.AI = lc.AIMessage
        self.Human = lc.HumanMessage
        self.System = lc.SystemMessage
        self.Tool = lc.ToolMessage
        self.convert = lc.convert_to_openai_messages
        self.from_dict = lc.messages_from_dict
        self.to_dict = lc.messages_to_dict

    @staticmethod
    def _blocks(content: str | list[dict[str, Any]]) -> str | list[str | dict[str, Any]]:
        if isinstance(content, str):
            return content
        blocks: list[str | dict[str, Any]] = []
        for part in content:
            kind = part["type"]
            if kind == "text":
                blocks.append({"type": "text", "text": part["text"]})
            elif kind == "image_url":
                header, _, payload = part["image_url"]["url"].partition(",")
                mime_type = header[5:].partition(";")[0]
                blocks.append({"type": "image", "base64": payload, "mime_type": mime_type})
            elif kind == "input_audio":
                audio = part["input_audio"]
                mime_type = f"audio/{audio['format']}"
                blocks.append({"type": "audio", "base64": audio["data"], "mime_type": mime_type})
            else:
                raise ValueError(f"unexpected part {kind!r}")
        return blocks

    def build(self, messages: list[Message]) -> list[Any]:
        built: list[Any] = []
        for message in messages:
            role = message["role"]
            name = message.get("name")
            if role == "system":
                built.append(self.System(content=self._blocks(message["content"]), name=name))
            elif role == "user":
                built.append(self.Human(content=self._blocks(message["content"]), name=name))
            elif role == "assistant":
                calls = [
                    {
                        "name": call["function"]["name"],
                        "args": json.loads(call["function"]["arguments"]),
                        "id": call["id"],
                        "type": "tool_call",
                    }
                    for call in message.get("tool_calls") or ()
                ]
                content = message.get("content") or ""
                built.append(self.AI(content=self._blocks(content), tool_calls=calls, name=name))
            elif role == "tool":
                built.append(
                    self.Tool(content=message["content"], tool_call_id=message["tool_call_id"])
                )
            else:
                raise ValueError(f"unexpected role {role!r}")
        return built

    def dump(self, obj: list[Any]) -> bytes:
        return orjson.dumps(self.to_dict(obj))

    def load(self, text: str | bytes) -> list[Any]:
        return list(self.from_dict(orjson.loads(text)))

    def to_dicts(self, obj: list[Any]) -> list[Message]:
        return list(self.convert(obj))


# --- pydantic-ai ----------------------------------------------------------------------------


class PydanticAI(Contender):
    name = "pydantic-ai"
    package = "pydantic-ai-slim"
    has_to_dicts = False

    def __init__(self) -> None:
        self.adapter = pai.ModelMessagesTypeAdapter
        self.Request = pai.ModelRequest
        self.Response = pai.ModelResponse
        self.System = pai.SystemPromptPart
        self.User = pai.UserPromptPart
        self.Text = pai.TextPart
        self.Call = pai.ToolCallPart
        self.Return = pai.ToolReturnPart
        self.binary = pai.BinaryContent.from_data_uri

    def _user_content(self, content: str | list[dict[str, Any]]) -> Any:
        if isinstance(content, str):
            return content
        parts: list[Any] = []
        for part in content:
            kind = part["type"]
            if kind == "text":
                parts.append(part["text"])
            elif kind == "image_url":
                parts.append(self.binary(part["image_url"]["url"]))
            elif kind == "input_audio":
                audio = part["input_audio"]
                parts.append(self.binary(f"data:audio/{audio['format']};base64,{audio['data']}"))
            else:
                raise ValueError(f"unexpected part {kind!r}")
        return parts

    def build(self, messages: list[Message]) -> list[Any]:
        built: list[Any] = []
        names: dict[str, str] = {}
        for message in messages:
            role = message["role"]
            if role == "system":
                built.append(self.Request(parts=[self.System(message["content"])]))
            elif role == "user":
                built.append(
                    self.Request(parts=[self.User(self._user_content(message["content"]))])
                )
            elif role == "assistant":
                parts: list[Any] = []
                if message.get("content"):
                    parts.append(self.Text(message["content"]))
                for call in message.get("tool_calls") or ():
                    function = call["function"]
                    names[call["id"]] = function["name"]
                    parts.append(self.Call(function["name"], function["arguments"], call["id"]))
                built.append(self.Response(parts=parts))
            elif role == "tool":
                call_id = message["tool_call_id"]
                built.append(
                    self.Request(
                        parts=[self.Return(names.get(call_id, ""), message["content"], call_id)]
                    )
                )
            else:
                raise ValueError(f"unexpected role {role!r}")
        return built

    def dump(self, obj: list[Any]) -> bytes:
        return bytes(self.adapter.dump_json(obj))

    def load(self, text: str | bytes) -> list[Any]:
        return list(self.adapter.validate_json(text))

    def to_dicts(self, obj: list[Any]) -> None:
        return None


# --- msgspec: the fast typed structs reference -------------------------------------------------
#
# The same data semantic_chat holds, in the same shape: a message is a role-tagged Struct with a
# list of item Structs (text, image and audio with their media type and base64 text taken out of
# the data URL, function call, function result), plus the one hint needed to write a lone text
# back as a list of parts. Build and to-dicts are hand-written; JSON is msgspec's.


class Text(msgspec.Struct, tag=True, omit_defaults=True):
    text: str


class Image(msgspec.Struct, tag=True, omit_defaults=True):
    mime_type: str
    data: str  # base64 text, as in the data URL
    detail: str | None = None


class Audio(msgspec.Struct, tag=True, omit_defaults=True):
    mime_type: str
    data: str  # base64 text


class FunctionCall(msgspec.Struct, tag=True, omit_defaults=True):
    id: str
    name: str
    arguments: str


class FunctionResult(msgspec.Struct, tag=True, omit_defaults=True):
    call_id: str
    result: str
    name: str | None = None


Item = Text | Image | Audio | FunctionCall | FunctionResult


class SystemMessage(msgspec.Struct, tag=True, omit_defaults=True):
    items: list[Item]
    name: str | None = None
    as_parts: bool = False


class UserMessage(msgspec.Struct, tag=True, omit_defaults=True):
    items: list[Item]
    name: str | None = None
    as_parts: bool = False


class AssistantMessage(msgspec.Struct, tag=True, omit_defaults=True):
    items: list[Item]
    name: str | None = None
    as_parts: bool = False


class ToolMessage(msgspec.Struct, tag=True, omit_defaults=True):
    items: list[Item]


StructMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage
_AUDIO_MIME = {"wav": "audio/wav", "mp3": "audio/mpeg"}
_AUDIO_FORMAT = {mime: name for name, mime in _AUDIO_MIME.items()}


def _struct_items(content: str | list[dict[str, Any]], items: list[Item]) -> bool:
    """Append the items of a message's content; True when a lone text was a list of parts."""
    if isinstance(content, str):
        items.append(Text(content))
        return False
    for part in content:
        kind = part["type"]
        if kind == "text":
            items.append(Text(part["text"]))
        elif kind == "image_url":
            body = part["image_url"]
            header, _, payload = body["url"].partition(",")
            items.append(Image(header[5:-7], payload, body.get("detail")))
        elif kind == "input_audio":
            body = part["input_audio"]
            items.append(Audio(_AUDIO_MIME[body["format"]], body["data"]))
        else:
            raise ValueError(f"unexpected part {kind!r}")
    return len(items) == 1 and type(items[0]) is Text


def _part_dict(item: Item) -> dict[str, Any]:
    if type(item) is Text:
        return {"type": "text", "text": item.text}
    if type(item) is Image:
        body = {"url": f"data:{item.mime_type};base64,{item.data}"}
        if item.detail is not None:
            body["detail"] = item.detail
        return {"type": "image_url", "image_url": body}
    assert type(item) is Audio
    return {
        "type": "input_audio",
        "input_audio": {"data": item.data, "format": _AUDIO_FORMAT[item.mime_type]},
    }


class Msgspec(Contender):
    name = "msgspec structs"
    package = "msgspec"

    def __init__(self) -> None:
        self.encoder = msgspec.json.Encoder()
        self.decoder = msgspec.json.Decoder(list[StructMessage])

    def build(self, messages: list[Message]) -> list[StructMessage]:
        built: list[StructMessage] = []
        names: dict[str, str] = {}
        for message in messages:
            role = message["role"]
            items: list[Item] = []
            if role == "tool":
                call_id = message["tool_call_id"]
                items.append(FunctionResult(call_id, message["content"], names.get(call_id)))
                built.append(ToolMessage(items))
                continue
            content = message.get("content")
            as_parts = False
            if content is not None:
                as_parts = _struct_items(content, items)
            if role == "assistant":
                for call in message.get("tool_calls") or ():
                    function = call["function"]
                    names[call["id"]] = function["name"]
                    items.append(FunctionCall(call["id"], function["name"], function["arguments"]))
                built.append(AssistantMessage(items, message.get("name"), as_parts))
            elif role == "user":
                built.append(UserMessage(items, message.get("name"), as_parts))
            elif role == "system":
                built.append(SystemMessage(items, message.get("name"), as_parts))
            else:
                raise ValueError(f"unexpected role {role!r}")
        return built

    def dump(self, obj: list[StructMessage]) -> bytes:
        return self.encoder.encode(obj)

    def load(self, text: str | bytes) -> list[StructMessage]:
        return self.decoder.decode(text)

    def to_dicts(self, obj: list[StructMessage]) -> list[Message]:
        out: list[Message] = []
        for message in obj:
            if isinstance(message, ToolMessage):
                for result in message.items:
                    assert type(result) is FunctionResult
                    out.append(
                        {"role": "tool", "tool_call_id": result.call_id, "content": result.result}
                    )
                continue
            role = (
                "user" if type(message) is UserMessage
                else "assistant" if type(message) is AssistantMessage
                else "system"
            )
            written: Message = {"role": role}
            if message.name is not None:
                written["name"] = message.name
            parts = [
                _part_dict(item) for item in message.items if type(item) is not FunctionCall
            ]
            if len(parts) == 1 and type(message.items[0]) is Text and not message.as_parts:
                written["content"] = parts[0]["text"]
            elif parts:
                written["content"] = parts
            elif role == "assistant":
                written["content"] = None
            calls = [
                {
                    "id": item.id,
                    "type": "function",
                    "function": {"name": item.name, "arguments": item.arguments},
                }
                for item in message.items
                if type(item) is FunctionCall
            ]
            if calls:
                written["tool_calls"] = calls
            out.append(written)
        return out


# --- plain dicts: the floor -----------------------------------------------------------------


class Dicts(Contender):
    name = "dicts + orjson"
    package = "orjson"

    def build(self, messages: list[Message]) -> list[Message]:
        return list(messages)

    def dump(self, obj: list[Message]) -> bytes:
        return orjson.dumps(obj)

    def load(self, text: str | bytes) -> list[Message]:
        return list(orjson.loads(text))

    def to_dicts(self, obj: list[Message]) -> list[Message]:
        return obj


CONTENDERS: dict[str, Callable[[], Contender]] = {
    "semantic_chat": SemanticChat,
    "semantic-kernel": SemanticKernel,
    "langchain-core": LangChain,
    "pydantic-ai": PydanticAI,
    "msgspec": Msgspec,
    "dicts": Dicts,
}
"""Factories by key, in the order the tables list them."""

REFERENCE = "msgspec"
FLOOR = "dicts"
PEERS = ("semantic-kernel", "langchain-core", "pydantic-ai")


def _self_check() -> None:
    """Round-trip a small corpus through every contender and print what survives."""
    corpus = make_corpus(20)
    for key, factory in CONTENDERS.items():
        contender = factory()
        total = equal = exact = via_json = same = 0
        for conversation in corpus:
            source = copy.deepcopy(conversation)
            obj = contender.build(conversation)
            loaded = contender.load(contender.dump(obj))
            same += contender.same_object(obj, loaded)
            out = contender.to_dicts(obj)
            total += len(source)
            if out is not None:
                equal += sum(messages_equal(source, out))
                exact += sum(messages_equal(source, out, strict=True))
                via_json += sum(messages_equal(source, contender.to_dicts(loaded) or []))
            assert source == conversation, f"{key} changed its input"
        shown = [
            f"{value / total:7.1%}" if contender.has_to_dicts else "      -"
            for value in (equal, exact, via_json)
        ]
        print(
            f"{key:16} equal {shown[0]}  identical {shown[1]}  via JSON {shown[2]}  "
            f"JSON round trip same object {same}/{len(corpus)} conversations"
        )


if __name__ == "__main__":
    _self_check()
