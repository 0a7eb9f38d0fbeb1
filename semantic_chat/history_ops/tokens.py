"""Counting tokens: a per-message `TokenCounter`, an approximate counter and a tiktoken adapter.

A counter is asked about one message at a time, so that `trim` counts each message once and
stays linear in the history's length (a counter of whole lists has to be asked about ever
longer prefixes, which is what makes LangChain's ``trim_messages`` search). A counter of whole
lists is still welcome: `per_message` turns one into a per-message counter. What a request
costs besides its messages (the tokens that prime the reply, the tool definitions) is the
counter's ``overhead``, added once by `count_tokens` and `trim`.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..contents import (
    BinaryContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    UnknownContent,
)
from ..errors import InvalidTypeError, InvalidValueError, describe_type
from ..labels import PLAIN_TEXT
from ..media import image_size
from ..message import ChatMessageContent
from .units import checked_message

if TYPE_CHECKING:
    import tiktoken

__all__ = [
    "TiktokenCounter",
    "TokenCounter",
    "count_tokens",
    "count_tokens_approximately",
    "image_tokens",
    "overhead_of",
    "per_message",
    "tiktoken_counter",
]

_INSTALL_HINT = "pip install 'semantic_chat[tiktoken]'"
# The first base64 characters of an image read for its size: enough for the header of a PNG,
# GIF, WebP or BMP and of most JPEGs; a JPEG whose frame header lies further is decoded whole.
_HEADER_CHARS = 16_384


class TokenCounter(Protocol):
    """Tokens one message costs in a request.

    Any callable of one message returning an ``int`` is a counter (a function, a
    ``functools.partial`` of `count_tokens_approximately`, a `TiktokenCounter`). It may have
    an ``int`` attribute ``overhead``: the tokens a request costs whatever messages it holds,
    added once (see `overhead_of`). A counter of whole lists becomes one with `per_message`.
    """

    def __call__(self, message: ChatMessageContent, /) -> int:
        """The tokens ``message`` costs."""
        ...


def overhead_of(token_counter: Callable[[ChatMessageContent], int]) -> int:
    """The ``overhead`` of ``token_counter`` (0 when it has none): tokens a request adds once."""
    overhead = getattr(token_counter, "overhead", 0)
    if type(overhead) is not int:
        raise InvalidTypeError.mismatch("token_counter.overhead", "an int", describe_type(overhead))
    return overhead


def count_tokens(
    messages: Iterable[ChatMessageContent],
    token_counter: Callable[[ChatMessageContent], int] | None = None,
) -> int:
    """The tokens of ``messages`` (a `ChatHistory` or any iterable of messages) as a request.

    The sum of ``token_counter`` over the messages plus its ``overhead``; the default counter
    is `count_tokens_approximately`.

    Raises:
        InvalidTypeError: an element is not a message, or the counter returned something
            other than an ``int`` (the message names the message's index: ``messages[3]``).
    """
    counter = count_tokens_approximately if token_counter is None else token_counter
    total = overhead_of(counter)
    for index, message in enumerate(messages):
        total += checked_count(counter(checked_message(message, index)), index)
    return total


def checked_count(tokens: object, index: int) -> int:
    """``tokens`` as a counter returned it for ``messages[index]``, checked to be an ``int``.

    A negative count is refused: a history would then count fewer tokens the more messages
    it holds, and `trim` would keep everything (a ``partial`` with a sign typo).

    Raises:
        InvalidTypeError: not an ``int`` (a ``bool`` neither).
        InvalidValueError: a negative ``int``.
    """
    if type(tokens) is int and tokens >= 0:
        return tokens
    if isinstance(tokens, int) and not isinstance(tokens, bool):
        if tokens < 0:
            raise InvalidValueError(
                f"token_counter gave {tokens} tokens: a count is 0 or more",
                path=f"messages[{index}]",
            )
        return int(tokens)
    raise InvalidTypeError.mismatch(
        f"messages[{index}]", "an int token count from token_counter", describe_type(tokens)
    )


class _PerMessage:
    """A counter of whole lists asked about one message at a time (see `per_message`)."""

    __slots__ = ("list_counter", "overhead")

    def __init__(self, list_counter: Callable[[list[ChatMessageContent]], int]) -> None:
        self.list_counter = list_counter
        self.overhead = checked_count(list_counter([]), 0)

    def __call__(self, message: ChatMessageContent, /) -> int:
        return checked_count(self.list_counter([message]), 0) - self.overhead

    def __repr__(self) -> str:
        return f"per_message({self.list_counter!r})"


def per_message(list_counter: Callable[[list[ChatMessageContent]], int]) -> TokenCounter:
    """Turn a counter of whole message lists (LangChain's kind) into a per-message counter.

    The list counter is asked once about an empty list, which gives the ``overhead``, and
    then once about each message alone, whose count is its own minus that overhead. The sum
    is the list counter's own count whenever that count is a sum over the messages plus a
    constant, which every OpenAI-style rule is; a counter that sees across messages (one
    that scales by the last reply's usage) is approximated message by message.
    """
    if not callable(list_counter):
        raise InvalidTypeError.mismatch(
            "list_counter", "a function of a list of messages", describe_type(list_counter)
        )
    return _PerMessage(list_counter)


def _arguments_text(call: FunctionCallContent) -> str:
    arguments = call.arguments
    if arguments is None:
        return ""
    if isinstance(arguments, str):
        return arguments
    return json.dumps(arguments, ensure_ascii=False, default=repr)


def _unknown_text(item: UnknownContent) -> str:
    """An unknown item as sent back: its label and its fields' compact JSON text.

    A server tool's call or result (Anthropic ``web_search_tool_result``, Gemini
    ``code_execution_result``) can hold pages of text, all of it in ``fields``.
    """
    fields = json.dumps(item.fields, ensure_ascii=False, separators=(",", ":"), default=repr)
    return item.type + fields


def _reasoning_text(item: ReasoningContent) -> str:
    """The reasoning text, or its encrypted form (redacted thinking) sent back in its place."""
    return item.text + (item.encrypted or "")


def _image_header(image: ImageContent) -> bytes | None:
    """The image's bytes, or enough of them for its size, without decoding it all in place."""
    if image.is_decoded:
        return image.data
    text = image.base64
    if text is None:
        return None
    head = text[: _HEADER_CHARS - _HEADER_CHARS % 4]
    try:
        return base64.b64decode(head)
    except (binascii.Error, ValueError):
        return None


def _image_dimensions(image: ImageContent) -> tuple[int, int] | None:
    """``(width, height)`` read from the image's header, or ``None`` when unknown."""
    header = _image_header(image)
    if header is None:
        return None
    try:
        return image_size(header)
    except ValueError:
        if image.is_decoded:
            return None
    text = image.base64
    try:  # a JPEG whose frame header lies past the first bytes: decode a copy whole
        return None if text is None else image_size(base64.b64decode(text))
    except (binascii.Error, ValueError):
        return None


def image_tokens(image: ImageContent, *, unknown: int = 85) -> int:
    """The tokens OpenAI charges for ``image``: its tile rule, or ``unknown`` without a size.

    ``detail="low"`` costs 85. Otherwise the image is scaled to fit 2048 x 2048, then
    so that its shorter side is at most 768, and costs 85 plus 170 per 512-pixel tile it
    covers (a 1024 x 1024 image: 765). The size is read from the bytes' header; an image
    given by URI or file id, or in a format whose size cannot be read, costs ``unknown``.
    """
    if image.detail == "low":
        return 85
    size = _image_dimensions(image)
    if size is None or size[0] <= 0 or size[1] <= 0:
        return unknown
    width, height = float(size[0]), float(size[1])
    if max(width, height) > 2048:
        scale = 2048 / max(width, height)
        width, height = width * scale, height * scale
    if min(width, height) > 768:
        scale = 768 / min(width, height)
        width, height = width * scale, height * scale
    tiles = math.ceil(width / 512) * math.ceil(height / 512)
    return 85 + 170 * tiles


def _approximate_items(
    items: Iterable[KernelContent], tokens_per_image: int, tokens_per_file: int
) -> tuple[int, int]:
    """(characters, fixed tokens) of ``items`` under the rule of `count_tokens_approximately`."""
    chars = 0
    fixed = 0
    for item in items:
        kind = type(item)
        if kind is TextContent or kind is RefusalContent:
            chars += len(item.text)  # type: ignore[attr-defined]
        elif kind is FunctionCallContent:
            call: FunctionCallContent = item  # type: ignore[assignment]
            chars += len(call.name or "") + len(call.id or "") + len(_arguments_text(call))
        elif kind is FunctionResultContent:
            result: FunctionResultContent = item  # type: ignore[assignment]
            chars += len(result.call_id or "")
            value = result.result
            if type(value) is list and value and isinstance(value[0], KernelContent):
                more_chars, more_fixed = _approximate_items(
                    value, tokens_per_image, tokens_per_file
                )
                chars += more_chars
                fixed += more_fixed
            else:
                chars += len(str(result))
        elif kind is ReasoningContent:
            chars += len(_reasoning_text(item))  # type: ignore[arg-type]
        elif isinstance(item, ImageContent):
            fixed += image_tokens(item, unknown=tokens_per_image)
        elif isinstance(item, BinaryContent):
            fixed += tokens_per_file
        elif isinstance(item, ReasoningContent):
            chars += len(_reasoning_text(item))
        elif isinstance(item, (TextContent, RefusalContent)):
            chars += len(item.text)
        elif isinstance(item, UnknownContent):
            chars += len(_unknown_text(item))
        else:
            chars += len(str(item))
    return chars, fixed


def count_tokens_approximately(
    message: ChatMessageContent,
    /,
    *,
    chars_per_token: float = 4.0,
    extra_tokens_per_message: int = 3,
    count_name: bool = True,
    tokens_per_image: int = 85,
    tokens_per_file: int = 85,
) -> int:
    """Estimate the tokens of one message, without a tokenizer; fast enough for every request.

    The rule (LangChain's, with images by size): the message's characters divided by
    ``chars_per_token`` and rounded up, plus ``extra_tokens_per_message`` (the tokens that
    open and close a message), plus a count per image and per other binary item. The
    characters are those of the role, the name (with ``count_name``), every text, reasoning
    and refusal item (a reasoning item's ``encrypted`` data too: redacted thinking is sent
    back whole), a call's name, id and arguments text, a result's call id and text (a result
    made of items counts its items), and an `UnknownContent`'s label and fields as compact
    JSON (a server tool's call or result, such as a web search's pages). An image costs
    what `image_tokens` says (OpenAI's tile rule from its width and height,
    ``tokens_per_image`` when its size is unknown); audio, files and other binary items
    cost ``tokens_per_file`` each. Rounding per message keeps the count of a history the
    sum of its messages' counts.

    Configure it with ``functools.partial(count_tokens_approximately, chars_per_token=3)``.

    Raises:
        InvalidTypeError: ``chars_per_token`` is not a number.
        InvalidValueError: ``chars_per_token`` is not above 0 (or is NaN).
    """
    if not (type(chars_per_token) is float or type(chars_per_token) is int) or not (
        chars_per_token > 0
    ):
        _refuse_chars_per_token(chars_per_token)
    chars, fixed = _approximate_items(message.items, tokens_per_image, tokens_per_file)
    role = message.role
    chars += len(PLAIN_TEXT.get(role) or str(role))
    name = message.name
    if name and count_name:
        chars += len(name)
    return math.ceil(chars / chars_per_token) + fixed + extra_tokens_per_message


def _refuse_chars_per_token(value: object) -> None:
    """Say why ``chars_per_token`` cannot divide a message's characters.

    Raises:
        InvalidTypeError: it is not a number (a ``bool`` neither).
        InvalidValueError: it is not above 0.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidTypeError.mismatch("chars_per_token", "a number", describe_type(value))
    if not value > 0:
        raise InvalidValueError(f"expected a number above 0, got {value!r}", path="chars_per_token")


# The cookbook's constants for tool definitions: (function start, properties start, property,
# enum start, enum item, functions end), for gpt-4o and later, and for gpt-3.5-turbo and gpt-4.
_TOOL_TOKENS_4O = (7, 3, 3, -3, 3, 12)
_TOOL_TOKENS_GPT4 = (10, 3, 3, -3, 3, 12)


def _tool_constants(model: str | None) -> tuple[int, int, int, int, int, int]:
    if model is not None and (
        model in ("gpt-3.5-turbo", "gpt-4")
        or model.startswith(("gpt-3.5-turbo-", "gpt-4-", "gpt-4-32k"))
    ):
        return _TOOL_TOKENS_GPT4
    return _TOOL_TOKENS_4O


def _text_of(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _without_period(text: str) -> str:
    return text[:-1] if text.endswith(".") else text


class TiktokenCounter:
    """Count tokens with a tiktoken encoding, the way OpenAI's cookbook counts a request.

    "How to count tokens with tiktoken": every message costs 3 tokens plus its role's and
    content's tokens, a name 1 more than its own tokens, and the request 3 more that prime
    the reply (the ``overhead``). Tools (Chat Completions ``{"type": "function", "function":
    {...}}`` or Responses ``{"type": "function", "name": ...}`` definitions) are counted by
    the cookbook's function-calling rule and added to the overhead: per function 7 (10 for
    gpt-3.5-turbo and gpt-4) plus ``name:description``, 3 for the properties, per property 3
    plus ``name:type:description`` and its enum (-3, then 3 plus the item's tokens per item),
    12 at the end. A tool of another type counts as its JSON text.

    The cookbook counts string contents only; the rest is this library's rule: each text,
    reasoning and refusal item counts its tokens (a reasoning item's ``encrypted`` data
    too), a call its name's and arguments' tokens, a result its text's (a result made of
    items, those items), an `UnknownContent` its label and fields as compact JSON, an image
    OpenAI's tile rule (`image_tokens`), other binary items ``tokens_per_file``. Text is
    encoded as ordinary text: a special token's spelling in a message counts as the text it
    is.
    """

    __slots__ = ("_encode", "encoding", "model", "overhead", "tokens_per_file", "tools")

    def __init__(
        self,
        encoding: tiktoken.Encoding,
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        model: str | None = None,
        tokens_per_file: int = 85,
    ) -> None:
        self.encoding = encoding
        self._encode: Callable[[str], list[int]] = encoding.encode_ordinary
        self.model = model
        self.tools = None if tools is None else list(tools)
        self.tokens_per_file = tokens_per_file
        self.overhead = 3 + self.count_tools(self.tools or [])

    def __repr__(self) -> str:
        return f"TiktokenCounter({self.encoding.name!r}, model={self.model!r})"

    def _tokens(self, text: str) -> int:
        return len(self._encode(text)) if text else 0

    def count_tools(self, tools: Sequence[Mapping[str, Any]]) -> int:
        """The tokens the cookbook's function-calling rule gives ``tools`` (0 for none).

        Raises:
            InvalidTypeError: a tool, its function or its parameters is not an object
                (the message names it: ``tools[1].function``).
        """
        if not tools:
            return 0
        func_init, prop_init, prop_key, enum_init, enum_item, func_end = _tool_constants(self.model)
        tokens = self._tokens
        total = 0
        for index, tool in enumerate(tools):
            path = f"tools[{index}]"
            if not isinstance(tool, Mapping):
                raise InvalidTypeError.mismatch(path, "a tool object", describe_type(tool))
            if tool.get("type", "function") != "function":
                total += tokens(json.dumps(tool, ensure_ascii=False, sort_keys=True))
                continue
            function = tool.get("function", tool)
            if not isinstance(function, Mapping):
                raise InvalidTypeError.mismatch(
                    f"{path}.function", "a function object", describe_type(function)
                )
            total += func_init
            description = _without_period(_text_of(function.get("description") or ""))
            total += tokens(f"{_text_of(function.get('name') or '')}:{description}")
            parameters = function.get("parameters") or {}
            if not isinstance(parameters, Mapping):
                raise InvalidTypeError.mismatch(
                    f"{path}.parameters", "a JSON schema object", describe_type(parameters)
                )
            properties = parameters.get("properties") or {}
            if not isinstance(properties, Mapping):
                raise InvalidTypeError.mismatch(
                    f"{path}.parameters.properties", "an object", describe_type(properties)
                )
            if properties:
                total += prop_init
                for key, value in properties.items():
                    total += prop_key
                    schema = value if isinstance(value, Mapping) else {}
                    enum = schema.get("enum")
                    if isinstance(enum, list):
                        total += enum_init
                        for member in enum:
                            total += enum_item + tokens(_text_of(member))
                    kind = _text_of(schema.get("type") or "")
                    note = _without_period(_text_of(schema.get("description") or ""))
                    total += tokens(f"{key}:{kind}:{note}")
        return total + func_end

    def _item_tokens(self, items: Iterable[KernelContent]) -> int:
        tokens = self._tokens
        total = 0
        for item in items:
            if isinstance(item, ReasoningContent):
                total += tokens(_reasoning_text(item))
            elif isinstance(item, (TextContent, RefusalContent)):
                total += tokens(item.text)
            elif isinstance(item, FunctionCallContent):
                total += tokens(item.name or "") + tokens(_arguments_text(item))
            elif isinstance(item, FunctionResultContent):
                value = item.result
                if type(value) is list and value and isinstance(value[0], KernelContent):
                    total += self._item_tokens(value)
                else:
                    total += tokens(str(item))
            elif isinstance(item, ImageContent):
                total += image_tokens(item)
            elif isinstance(item, BinaryContent):
                total += self.tokens_per_file
            elif isinstance(item, UnknownContent):
                total += tokens(_unknown_text(item))
            else:
                total += tokens(str(item))
        return total

    def __call__(self, message: ChatMessageContent, /) -> int:
        """The cookbook's tokens for ``message``: 3, its role, its content, its name and 1."""
        role = message.role
        total = 3 + self._tokens(PLAIN_TEXT.get(role) or str(role))
        total += self._item_tokens(message.items)
        if message.name:
            total += self._tokens(message.name) + 1
        return total


def tiktoken_counter(
    encoding_or_model: str | tiktoken.Encoding,
    *,
    tools: Sequence[Mapping[str, Any]] | None = None,
    model: str | None = None,
) -> TiktokenCounter:
    """A `TiktokenCounter` for an encoding (``"o200k_base"`` or a ``tiktoken.Encoding``) or model.

    A model name (``"gpt-4o"``) picks its encoding and the cookbook's tool constants for it;
    with an encoding, ``model`` names the model for those constants (gpt-4o's by default).
    tiktoken loads an encoding's file the first time it is used, from the network or its
    cache; a ``tiktoken.Encoding`` built by hand needs neither.

    Raises:
        ImportError: tiktoken is not installed (``pip install 'semantic_chat[tiktoken]'``).
        InvalidValueError: ``encoding_or_model`` names neither an encoding nor a model
            tiktoken knows.
        InvalidTypeError: it is neither a name nor an encoding.
    """
    try:
        import tiktoken  # noqa: PLC0415 - an optional dependency, imported when used
    except ImportError as error:
        raise ImportError(
            f"counting tokens with tiktoken needs the tiktoken package: {_INSTALL_HINT}"
        ) from error
    if isinstance(encoding_or_model, tiktoken.Encoding):
        return TiktokenCounter(encoding_or_model, tools=tools, model=model)
    if not isinstance(encoding_or_model, str):
        raise InvalidTypeError.mismatch(
            "encoding_or_model",
            "an encoding name, a model name or a tiktoken.Encoding",
            describe_type(encoding_or_model),
        )
    if encoding_or_model in tiktoken.list_encoding_names():
        encoding = tiktoken.get_encoding(encoding_or_model)
    else:
        try:
            encoding = tiktoken.encoding_for_model(encoding_or_model)
        except KeyError:
            raise InvalidValueError(
                f"tiktoken knows no encoding or model {encoding_or_model!r}",
                path="encoding_or_model",
            ) from None
        model = encoding_or_model if model is None else model
    return TiktokenCounter(encoding, tools=tools, model=model)
