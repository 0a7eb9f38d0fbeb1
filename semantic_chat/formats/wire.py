"""What every wire format shares: hints in metadata, what a format cannot carry, data URLs.

Also reading provider SDK objects as plain dicts, and data URLs that stay base64.

A format keeps what it needs to write a payload back exactly (fields it does not model, and
the shape it was written in) under one metadata key named after the format, e.g.
``message.metadata["openai_chat"] = {"fields": {"refusal": None}}``. A history built by hand
has no such key, and each format writes it in its default shape.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal, TypeVar

import attrs

from .. import jsoncodec
from ..contents import (
    BinaryContent,
    Citation,
    FunctionCallContent,
    ImageContent,
    KernelContent,
    TextContent,
)
from ..contents.citation import CitationWithUnknownKeys
from ..contents.metadata import peek_metadata
from ..errors import (
    FormatError,
    InvalidValueError,
    SerializationError,
    UnsupportedContentError,
    describe_type,
)
from ..jsoncodec import json_value
from ..media import canonical_mime_type
from ..message import ChatMessageContent, UnknownMessage
from ..registry import is_builtin
from ..usage import Usage
from ..validation import check_stored
from .codecs import PluginCodecs

__all__ = [
    "ERROR_MARK",
    "ERROR_PREFIX",
    "HINT_KEYS",
    "MEANINGFUL_HINT_FIELDS",
    "SIGNED_HINTS",
    "WEB_IMAGE_TYPES",
    "ConversionWarning",
    "OnUnsupported",
    "arguments_text",
    "as_plain",
    "binary_from_base64",
    "binary_from_data_url",
    "collect_losses",
    "compact_json",
    "custom_call",
    "data_url",
    "error_output",
    "get_hints",
    "image_type_refused",
    "lose",
    "lost_citation_keys",
    "lost_hint_fields",
    "lost_history_keys",
    "lost_message_fields",
    "lost_metadata",
    "lost_signatures",
    "lost_subclass_fields",
    "note_call",
    "object_arguments",
    "parse_object_arguments",
    "policy",
    "quick_loads",
    "read_error",
    "read_parts",
    "report_citation_losses",
    "report_metadata",
    "report_unread",
    "require",
    "result_left_out",
    "set_hints",
    "stored_items",
    "unfetchable_uri",
    "unsupported",
    "unsupported_field",
    "usage_from",
]

OnUnsupported = Literal["error", "warn", "drop", "raise"]
"""What a writer does with what its format cannot carry.

``"error"`` refuses it (`UnsupportedContentError`), ``"warn"`` leaves it out with a located
`ConversionWarning`, ``"drop"`` leaves it out silently; ``"raise"`` is the former name of
``"error"``. ``None`` (the writers' default) picks per kind of loss, as each format's table in
the README says: items are refused, fields and metadata are left out with a warning.
"""

HINT_KEYS = frozenset(
    ("anthropic", "gemini", "openai_chat", "openai_responses", "sk_dotnet", "sk_python")
)
"""Metadata keys that hold a wire format's own hints: never reported as lost by any writer."""

SIGNED_HINTS = {"gemini": ("Gemini", "thought_signature")}
"""Hints that hold a provider's signature (hint key: format name, field): every other format
reports leaving one out, since a signature is the provider's record of the model's thinking
and is only valid with that provider (a Gemini call sent back without it can be refused)."""

MEANINGFUL_HINT_FIELDS = {
    "openai_chat": ("OpenAI Chat Completions", {"weight": "the fine-tuning weight of a message"}),
}
"""Message fields a format keeps in its hints' ``fields`` that say something about the
conversation rather than its wire shape (hint key: format name, field: what it is): every
other format's writer reports leaving one out, at ``messages[i].<field>``. A fine-tuning
line's ``weight: 0`` says not to train on that turn."""

ERROR_PREFIX = "Error: "
"""What starts the output of a tool call that failed (``is_error``) in the OpenAI formats.

Neither format has an error flag on tool output; their guides say to return text that says
the call failed. Readers give back ``is_error=True`` (without the prefix) for output that
starts with it.
"""

ERROR_MARK = "Error:"
"""The text part put before tool output that starts with no text part, for a failed call."""

_POLICIES = {"error": "error", "raise": "error", "warn": "warn", "drop": "drop"}

_LOSSES: ContextVar[list[tuple[str, str, str]] | None] = ContextVar("losses", default=None)


class ConversionWarning(UserWarning):
    """What a conversion left out; the message starts with its location.

    ``messages[1].name: dropped: OpenAI Responses cannot carry the name of a user message``.
    """

_I = TypeVar("_I", bound=KernelContent)
_B = TypeVar("_B", bound=BinaryContent)


def as_plain(obj: Any, path: str = "") -> Any:
    """Return a provider SDK object (pydantic model) as plain dicts; dicts pass through.

    Raises:
        FormatError: ``obj`` is neither, or its dump fails (a Python function or class in
            it, which only the SDK itself turns into JSON); the message names ``path``.
    """
    if isinstance(obj, (dict, list)) or obj is None:
        return obj
    dump = getattr(obj, "model_dump", None)
    if dump is not None:
        try:
            return dump(mode="json", exclude_unset=True, by_alias=True)
        except Exception as error:  # a Python value in it (a function as a tool, a class)
            detail = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise FormatError(
                f"{describe_type(obj)} holds what is no JSON: {detail}", path=path
            ) from None
    raise FormatError.mismatch(path, "an object or a provider SDK model", describe_type(obj))


def require(mapping: Mapping[str, Any], key: str, kind: type | tuple[type, ...], path: str) -> Any:
    """Return ``mapping[key]`` after checking its type.

    Raises:
        FormatError: the key is missing or holds another type; the message names ``path.key``.
    """
    if key not in mapping:
        raise FormatError(f"missing {key!r}", path=path)
    value = mapping[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise FormatError.mismatch(f"{path}.{key}", names, describe_type(value))
    return value


def get_hints(owner: KernelContent | ChatMessageContent, key: str) -> dict[str, Any]:
    """Return the hints a format kept in ``owner.metadata[key]`` (empty when there are none).

    Reading hints never creates the owner's metadata dict.
    """
    hints = peek_metadata(owner).get(key)
    return hints if isinstance(hints, dict) else {}


def set_hints(
    owner: KernelContent | ChatMessageContent, key: str, hints: dict[str, Any]
) -> None:
    """Keep non-empty hints under ``owner.metadata[key]``."""
    if hints:
        owner.metadata[key] = hints


def policy(on_unsupported: OnUnsupported | None) -> OnUnsupported | None:
    """Check an ``on_unsupported`` argument and return it with ``"raise"`` read as ``"error"``.

    Raises:
        InvalidValueError: the value is none of ``"error"``, ``"warn"``, ``"drop"``,
            ``"raise"`` or ``None``.
    """
    if on_unsupported is None:
        return None
    found = _POLICIES.get(on_unsupported) if isinstance(on_unsupported, str) else None
    if found is None:
        raise InvalidValueError(
            f"expected 'error', 'warn', 'drop' or None, got {on_unsupported!r}",
            path="on_unsupported",
        )
    return found  # type: ignore[return-value]  # one of the literal's values


def unsupported(
    on_unsupported: OnUnsupported | None,
    format_name: str,
    where: str,
    item: KernelContent,
    why: str,
) -> None:
    """Refuse an item a format cannot carry, or leave it out (with a warning unless ``"drop"``).

    Items are refused unless ``on_unsupported`` says otherwise.

    Raises:
        UnsupportedContentError: ``on_unsupported`` is ``"error"`` or ``None``.
    """
    detail = f"{format_name} cannot carry {item.content_type!s} content {why}"
    lose(on_unsupported, where, detail, "error")


def unsupported_field(
    on_unsupported: OnUnsupported | None, format_name: str, where: str, what: str
) -> None:
    """Leave out a field a format cannot carry, with a warning unless asked otherwise.

    Raises:
        UnsupportedContentError: ``on_unsupported`` is ``"error"``.
    """
    lose(on_unsupported, where, f"{format_name} cannot carry {what}", "warn")


def lost_history_keys(
    history: Iterable[ChatMessageContent], format_name: str, on_unsupported: OnUnsupported | None
) -> None:
    """Report the keys of a newer version's history document, which no provider writer sends.

    `from_json` keeps them on the history (``future_top``); no format knows what they mean.

    Raises:
        UnsupportedContentError: there is such a key and ``on_unsupported`` is ``"error"``.
    """
    for key in getattr(history, "_unknown_keys", None) or ():  # unset unless read with some
        what = f"the history key {key!r} (unknown to this version)"
        unsupported_field(on_unsupported, format_name, key, what)


def lost_metadata(
    owner: KernelContent | ChatMessageContent,
    where: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> None:
    """Report each metadata key of ``owner`` that is no wire format's hints, as a field loss.

    Also a signature another format keeps in its hints (`SIGNED_HINTS`), which no format but
    its own may send: ``messages[1].items[0].metadata["gemini"].thought_signature``.

    Raises:
        UnsupportedContentError: there is such a key and ``on_unsupported`` is ``"error"``.
    """
    metadata = peek_metadata(owner)
    if not metadata:
        return
    for key in metadata:
        if key not in HINT_KEYS:
            name = json.dumps(key, ensure_ascii=False)
            unsupported_field(on_unsupported, format_name, f"{where}.metadata[{name}]", "metadata")
    lost_signatures(owner, where, format_name, on_unsupported)


def lost_signatures(
    owner: KernelContent | ChatMessageContent,
    where: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> None:
    """Report a signature another format keeps in ``owner``'s hints (`SIGNED_HINTS`), as a loss.

    No format but its own may send it: ``messages[1].items[0].metadata["gemini"]
    .thought_signature``. Writers that keep metadata but never hints (Semantic Kernel's)
    call this alone.

    Raises:
        UnsupportedContentError: there is such a signature and ``on_unsupported`` is ``"error"``.
    """
    metadata = peek_metadata(owner)
    if not metadata:
        return
    for key, (signer, field) in SIGNED_HINTS.items():
        hints = metadata.get(key)
        if signer != format_name and isinstance(hints, dict) and field in hints:
            name = json.dumps(key, ensure_ascii=False)
            what = f"a {signer} thought signature (it is only valid with {signer})"
            located = f"{where}.metadata[{name}].{field}"
            unsupported_field(on_unsupported, format_name, located, what)


def stored_items(message: ChatMessageContent, path: str) -> list[tuple[int, KernelContent]]:
    """A message's items with their indexes, once the message and each item hold their types.

    What every general writer checks first: an object broken by hand (through
    ``object.__setattr__``) is refused at its field rather than copied into a payload.

    Raises:
        FormatError: a field holds something else (``messages[2].items[0].text``).
    """
    check_stored(message, path, FormatError)
    items = list(enumerate(message.items))
    for index, item in items:
        check_stored(item, f"{path}.items[{index}]", FormatError)
    return items


def report_metadata(
    message: ChatMessageContent,
    items: list[tuple[int, KernelContent]],
    path: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
    *,
    codecs: PluginCodecs,
) -> None:
    """Report the metadata of a message and its items that no hints hold, and plugin fields.

    The fields are those a plugin's message subclass adds (`lost_message_fields`) and those a
    plugin's subclass of a built-in item adds (`lost_subclass_fields`); ``codecs`` are the
    format's, whose encoders write their items whole.

    Raises:
        UnsupportedContentError: there is such a key and ``on_unsupported`` is ``"error"``.
    """
    lost_message_fields(message, path, format_name, on_unsupported)
    lost_metadata(message, path, format_name, on_unsupported)
    lost_hint_fields(message, path, format_name, on_unsupported)
    for index, item in items:
        where = f"{path}.items[{index}]"
        lost_metadata(item, where, format_name, on_unsupported)
        lost_subclass_fields(item, where, format_name, on_unsupported, codecs)



def lost_subclass_fields(
    item: KernelContent,
    where: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
    codecs: PluginCodecs | None,
) -> None:
    """Report the fields a plugin's subclass of a built-in item adds, when they are set.

    The writer writes such an item as the built-in class it is (a ``NoteContent(TextContent)``
    as a text), which has no place for them. An item its plugin encoder writes is not
    concerned, nor one of no built-in kind (a ``KernelContent`` of its own): no writer writes
    it as a bare ``KernelContent``, it is refused or left out whole, at its own path.

    Raises:
        UnsupportedContentError: such a field is set and ``on_unsupported`` is ``"error"``.
    """
    cls = type(item)
    if is_builtin(cls) or (codecs is not None and codecs.encoder_for(item) is not None):
        return
    if next((c for c in cls.__mro__ if is_builtin(c)), None) is KernelContent:
        return
    _lost_own_fields(item, where, format_name, on_unsupported)


def lost_message_fields(
    message: ChatMessageContent,
    path: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> None:
    """Report the fields a plugin's message subclass adds, when set, at ``messages[i].<field>``.

    A provider format writes such a message as a `ChatMessageContent`, which has no place for
    them (``SessionMessage.session``); only our own JSON keeps them. The same for the keys of
    an `UnknownMessage` (a subclass read without its plugin, or newer data), but its
    ``message_type``.

    Raises:
        UnsupportedContentError: such a field is set and ``on_unsupported`` is ``"error"``.
    """
    if type(message) is ChatMessageContent:  # most messages: nothing to look up
        return
    if type(message) is UnknownMessage:  # read without its plugin, or from newer data
        label = message.unknown_keys.get("message_type")
        for key in message.unknown_keys:
            if key != "message_type":
                what = (
                    f"the field {key!r} of a {label!r} message (its plugin is not loaded)"
                    if isinstance(label, str)
                    else f"the message field {key!r} (unknown to this version)"
                )
                unsupported_field(on_unsupported, format_name, f"{path}.{key}", what)
        return
    _lost_own_fields(message, path, format_name, on_unsupported)


def note_call(
    item: FunctionCallContent, path: str, left_out: dict[str, str], written: bool
) -> None:
    """Note by its id whether a writer wrote a call (at ``path``) or left it out.

    The results answering a call left out go too (`result_left_out`); a call written later
    with the same id (Gemini's made-up ids repeat from turn to turn) takes its place, so the
    results after it stay.
    """
    call_id = item.id
    if type(call_id) is str:
        if written:
            left_out.pop(call_id, None)
        else:
            left_out[call_id] = path


def result_left_out(  # noqa: PLR0917 - the writer's state, passed on
    item: KernelContent,
    path: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
    left_out: dict[str, str],
    codecs: PluginCodecs | None = None,
) -> bool:
    """Whether a result answers a call left out (`note_call`); if so it is reported.

    The APIs that pair results with calls refuse a result whose call is not there. The call
    was refused first under ``"error"``, so this is a `ConversionWarning` then too (as
    `validate` sees it: the call is the fault), none under ``"drop"``. A result a plugin's
    encoder writes (``codecs``) is its own.
    """
    call_id = getattr(item, "call_id", None)
    call = left_out.get(call_id) if type(call_id) is str else None
    if call is None or (codecs is not None and codecs.encoder_for(item) is not None):
        return False
    detail = (
        f"{format_name} cannot carry a result whose call was left out ({call}): the API "
        "refuses a result without its call"
    )
    lose("warn" if on_unsupported == "error" else on_unsupported, path, detail, "warn")
    return True


def _lost_own_fields(
    owner: KernelContent | ChatMessageContent,
    where: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> None:
    """Report each init field a plugin's class adds to its built-in base and holds set.

    A field holding its default (a factory's fresh value counts) is not reported: nothing is
    lost. A class of this library's own (`UnknownMessage` ...) is not a plugin's.
    """
    cls = type(owner)
    if is_builtin(cls):
        return
    base = next((c for c in cls.__mro__ if is_builtin(c)), None)
    if base is None or not attrs.has(cls) or not attrs.has(base):
        return
    known = {field.name for field in attrs.fields(base)}
    for field in attrs.fields(cls):
        if field.name in known or not field.init:
            continue
        value = getattr(owner, field.name)
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory(owner) if default.takes_self else default.factory()
        try:
            unchanged = bool(value == default)
        except Exception:  # a value that cannot be compared (an array): it is set
            unchanged = False
        if unchanged:
            continue
        name = field.alias or field.name
        what = f"the field {name!r} of {cls.__qualname__} (written as {base.__qualname__})"
        unsupported_field(on_unsupported, format_name, f"{where}.{name}", what)


def lost_hint_fields(
    message: ChatMessageContent,
    path: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> None:
    """Report each `MEANINGFUL_HINT_FIELDS` field another format kept on ``message``.

    `report_metadata` calls it; a writer that keeps the message's metadata itself (Semantic
    Kernel's, which leave the other formats' hints out) calls it alone.

    Raises:
        UnsupportedContentError: there is such a field and ``on_unsupported`` is ``"error"``.
    """
    metadata = peek_metadata(message)
    if not metadata:  # most messages: nothing to look up
        return
    for key, (owner, described) in MEANINGFUL_HINT_FIELDS.items():
        hints = metadata.get(key)
        if owner == format_name or not isinstance(hints, dict):
            continue
        fields = hints.get("fields")
        if not isinstance(fields, dict):
            continue
        for field, what in described.items():
            if field in fields:
                shown = f"{what} ({json.dumps(fields[field], ensure_ascii=False)})"
                unsupported_field(on_unsupported, format_name, f"{path}.{field}", shown)


def report_citation_losses(  # noqa: PLR0917 - one loss report, every part of it named
    citation: Citation,
    carried: frozenset[str],
    kind: str,
    path: str,
    format_name: str,
    on_unsupported: OnUnsupported | None,
) -> None:
    """Report what a ``kind`` annotation leaves out of ``citation``, each as a field loss.

    That is its fields not in ``carried`` and its metadata under keys that are no format's
    hints, located under ``path`` (``messages[1].items[0].citations[2].cited_text``).

    Raises:
        UnsupportedContentError: there is such a field and ``on_unsupported`` is ``"error"``.
    """
    for field in _CITATION_FIELDS:
        if getattr(citation, field) is not None and field not in carried:
            what = f"{field} in a {kind} annotation"
            unsupported_field(on_unsupported, format_name, f"{path}.{field}", what)
    for key in citation.metadata:
        if key not in HINT_KEYS:
            name = json.dumps(key, ensure_ascii=False)
            unsupported_field(on_unsupported, format_name, f"{path}.metadata[{name}]", "metadata")
    lost_citation_keys(citation, path, format_name, on_unsupported)


def lost_citation_keys(
    citation: Citation, path: str, format_name: str, on_unsupported: OnUnsupported | None
) -> None:
    """Report each field of a newer version a citation holds (`CitationWithUnknownKeys`).

    Our JSON keeps them; no provider writer knows what they mean, so none sends them.

    Raises:
        UnsupportedContentError: there is one and ``on_unsupported`` is ``"error"``.
    """
    if type(citation) is CitationWithUnknownKeys:
        for key in citation.unknown_keys:
            what = f"the citation field {key!r} (unknown to this version)"
            unsupported_field(on_unsupported, format_name, f"{path}.{key}", what)


_CITATION_FIELDS = tuple(
    field.name for field in attrs.fields(Citation) if field.name != "metadata"
)
"""The `Citation` fields a loss report looks at, in the order it names them."""


def lose(on_unsupported: OnUnsupported | None, where: str, detail: str, default: str) -> None:
    """Act on one loss: refuse it, warn about it, or drop it, as asked or by ``default``.

    Inside `collect_losses` nothing is raised or warned: the loss is recorded and left out.

    Raises:
        UnsupportedContentError: the action is ``"error"``.
    """
    action = default if on_unsupported is None else _POLICIES.get(on_unsupported, "error")
    collected = _LOSSES.get()
    if collected is not None:
        if action != "drop":
            collected.append((where, detail, action))
        return
    if action == "drop":
        return
    if action == "warn":
        note = ConversionWarning(f"{where}: dropped: {detail}")
        warnings.warn(note, stacklevel=_caller_level())
        return
    raise UnsupportedContentError(
        f"{detail} (pass on_unsupported='warn' to leave it out)", path=where
    )


@contextmanager
def collect_losses() -> Iterator[list[tuple[str, str, str]]]:
    """Record, instead of raising or warning, what writers leave out in this context.

    Yields the list that receives ``(path, detail, action)`` for each loss, the action being
    ``"error"`` (it would be refused) or ``"warn"``; silent drops are not recorded.
    """
    losses: list[tuple[str, str, str]] = []
    token = _LOSSES.set(losses)
    try:
        yield losses
    finally:
        _LOSSES.reset(token)


def error_output(
    content: str | list[dict[str, Any]], text_type: str
) -> str | list[dict[str, Any]]:
    """Tool output that says the call failed: its text, or its first text part, prefixed.

    Output whose first part is not text gets a text part ``Error:`` first. ``text_type`` is
    the format's type of text parts (``text``, ``input_text``).
    """
    if isinstance(content, str):
        return ERROR_PREFIX + content
    if content and content[0].get("type") == text_type and isinstance(content[0].get("text"), str):
        return [{**content[0], "text": ERROR_PREFIX + content[0]["text"]}, *content[1:]]
    return [{"type": text_type, "text": ERROR_MARK}, *content]


def read_error(
    answer: str | list[KernelContent],
) -> tuple[str | list[KernelContent], bool]:
    """A tool's answer without the ``Error: `` that marks a failed call, and whether it had it.

    In a list of parts the first text part carries the mark, or is the mark alone
    (``Error:``) before parts that are not text.
    """
    if isinstance(answer, str):
        if answer.startswith(ERROR_PREFIX):
            return answer[len(ERROR_PREFIX) :], True
        return answer, False
    first = answer[0] if answer else None
    if type(first) is not TextContent:
        return answer, False
    if first.text == ERROR_MARK and len(answer) > 1:
        return answer[1:], True
    if not first.text.startswith(ERROR_PREFIX):
        return answer, False
    first.text = first.text[len(ERROR_PREFIX) :]
    return answer, True


def read_parts(
    parts: list[Any], path: str, read_part: Callable[[dict[str, Any], str], KernelContent]
) -> list[KernelContent]:
    """Read a list of content parts with a format's ``read_part``.

    Raises:
        FormatError: a part is not an object; the message names its index.
    """
    items = []
    for index, part in enumerate(parts):
        where = f"{path}[{index}]"
        if type(part) is not dict:
            raise FormatError.mismatch(where, "a content part object", describe_type(part))
        items.append(read_part(part, where))
    return items


def usage_from(usage: Mapping[str, Any], prompt: str, completion: str) -> Usage:
    """Read a provider's usage object whose token counts are named ``prompt`` and ``completion``.

    Cached tokens come from ``<prompt>_details.cached_tokens``, tokens written to the cache
    from ``<prompt>_details.cache_write_tokens`` and reasoning tokens from
    ``<completion>_details.reasoning_tokens``, as both OpenAI APIs nest them.
    """
    prompt_details = usage.get(f"{prompt}_details") or {}
    completion_details = usage.get(f"{completion}_details") or {}
    return Usage(
        prompt_tokens=usage.get(prompt) or 0,
        completion_tokens=usage.get(completion) or 0,
        total_tokens=usage.get("total_tokens") or 0,
        cached_tokens=prompt_details.get("cached_tokens"),
        reasoning_tokens=completion_details.get("reasoning_tokens"),
        cache_creation_tokens=prompt_details.get("cache_write_tokens"),
    )


def arguments_text(call: FunctionCallContent, path: str = "") -> str:
    """A call's arguments as JSON text: a string as given, a mapping compactly, none as ``{}``.

    Raises:
        FormatError: a value put into the arguments dict is not JSON, located under ``path``
            (the call's own path, e.g. ``messages[2].items[0]``).
    """
    arguments = call.arguments
    if arguments is None:
        return "{}"
    if isinstance(arguments, str):
        return arguments
    return compact_json(dict(arguments), f"{path}.arguments" if path else "arguments")


try:
    from orjson import loads as _orjson_loads
except ImportError:  # pragma: no cover - jsoncodec's standard library parser serves then
    _orjson_loads = None  # type: ignore[assignment]


def quick_loads() -> Callable[[str], Any] | None:
    """Orjson's ``loads`` when it is the JSON backend now (the tests switch backends), else None.

    What the quick writers call to parse a call's arguments text, with no wrapper around it:
    it raises on text that is not JSON, and the general writer then locates the problem.
    """
    return _orjson_loads if jsoncodec.BACKEND == "orjson" else None


def object_arguments(arguments: Any) -> dict[str, Any] | None:
    """A call's arguments as a JSON object, or ``None`` for the general writer to say why not.

    For a format that takes an object (Anthropic's ``input``, Gemini's ``args``): JSON text is
    parsed, ``None`` is ``{}``, a dict is copied and checked as JSON.
    """
    if type(arguments) is str:
        try:
            parsed = jsoncodec.loads(arguments)
        except SerializationError:  # blank, or not JSON: the general writer says which
            return None
        return parsed if type(parsed) is dict else None
    if arguments is None:
        return {}
    if type(arguments) is dict:
        try:
            checked: dict[str, Any] = json_value(arguments, "arguments")
        except SerializationError:
            return None
        return checked
    return None


def parse_object_arguments(arguments: str | Mapping[str, Any] | None, path: str) -> dict[str, Any]:
    """A call's arguments as a JSON object, for a format that takes one; the general writers'.

    JSON text is parsed (a blank one is ``{}``), ``None`` is ``{}``, a mapping is copied and
    checked as JSON.

    Raises:
        FormatError: the text is not JSON or not an object, or a value put into a mapping is
            not JSON; located at ``path`` (the call's ``arguments``).
    """
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        if not arguments.strip():
            return {}
        try:
            parsed = jsoncodec.loads(arguments)
        except SerializationError as error:
            detail = error.detail.removeprefix("malformed JSON: ")
            raise FormatError(f"arguments are not valid JSON: {detail}", path=path) from None
        if type(parsed) is not dict:
            kind = "an array" if type(parsed) is list else f"a JSON {type(parsed).__name__}"
            raise FormatError.mismatch(path, "arguments that are a JSON object", kind)
        return parsed
    try:
        copied: dict[str, Any] = json_value(dict(arguments), path)
    except SerializationError as error:
        raise FormatError(error.detail, path=error.path) from None
    return copied


def compact_json(value: Any, path: str) -> str:
    """A JSON value as compact text, the way the APIs show tool output and arguments.

    numpy values are written as the numbers and lists they hold.

    Raises:
        FormatError: a part of ``value`` is not JSON (put into a dict after it was given to
            an item); the message names its path under ``path``.
    """
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        pass
    try:
        checked = json_value(value, path)
    except SerializationError as error:
        raise FormatError(error.detail, path=error.path) from None
    return json.dumps(checked, ensure_ascii=False, separators=(",", ":"))


def _caller_level() -> int:
    """The stack level of the first frame outside this package, for a warning to point at."""
    level, frame = 2, sys._getframe(2)
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
        "semantic_chat."
    ):
        frame = frame.f_back
        level += 1
    return level


def data_url(item: BinaryContent) -> str:
    """Render a binary item's bytes as a ``data:`` URL without decoding lazy base64 text.

    The media type is written as the item holds it (normalized, parameters as they were given:
    a bare token such as ``;utf8`` stays bare).
    """
    mime_type = item.mime_type or "application/octet-stream"
    return f"data:{mime_type};base64,{item.base64}"


def binary_from_data_url(cls: type[_B], url: str, path: str, **fields: Any) -> _B:
    """Build a binary item from a ``data:`` URL, keeping base64 undecoded until it is read.

    Strict base64 is kept as it is; a URL that is not is read as the constructors read one
    (``ImageContent(uri=...)``: `semantic_chat.media.parse_data_uri` drops the line breaks
    MIME encoders wrap base64 with, and percent-escapes). Only the failing case pays for it.

    Raises:
        FormatError: the URL cannot be read either way (the strict reading's reason for a
            base64 one), located at ``path``.
    """
    header, comma, payload = url.partition(",")
    strict: ValueError | None = None
    if comma and header.endswith(";base64") and header[:5] == "data:":
        try:
            return cls.from_base64(payload, mime_type=header[5:-7] or "text/plain", **fields)
        except ValueError as error:
            strict = error
    try:
        return cls.from_data_uri(url, **fields)
    except ValueError as error:
        raise FormatError(str(strict or error), path=path) from None


def binary_from_base64(cls: type[_B], text: str, mime_type: str, path: str, **fields: Any) -> _B:
    """``cls.from_base64`` with a bad base64 text refused at ``path`` (``...input_audio.data``).

    Raises:
        FormatError: the text is not strict base64, located at ``path``.
    """
    try:
        return cls.from_base64(text, mime_type=mime_type, **fields)
    except ValueError as error:
        raise FormatError(getattr(error, "detail", str(error)), path=path) from None


def custom_call(item: FunctionCallContent) -> str | None:
    """Why a format whose calls take a JSON object cannot carry ``item``, or ``None``.

    An OpenAI custom tool call (``custom``, ``custom_tool_call``) holds free-form input, not
    arguments: the readers mark it in its OpenAI Chat hints. The reason is worded for
    `unsupported`.
    """
    if get_hints(item, "openai_chat").get("custom") is True:
        return "as an OpenAI custom tool call (free-form input, not a JSON object)"
    return None


WEB_IMAGE_TYPES = frozenset(("image/jpeg", "image/png", "image/gif", "image/webp"))
"""The image types OpenAI's and Anthropic's APIs take as data, as `canonical_mime_type`
names them (a writer's quick path compares an item's type with it as it is held)."""


def image_type_refused(item: ImageContent) -> str | None:
    """Why OpenAI or Anthropic cannot take an image of its type (``of type image/bmp (...)``).

    ``None`` when they can. The type is compared by its registered name, so ``image/jpg`` and
    ``IMAGE/PNG`` pass; an image by URL is judged by a type given with it (without one, the
    server's answer says). The reason is worded for `unsupported`.
    """
    if item.uri is not None and item.mime_type is None:
        return None
    bare = canonical_mime_type(item.mime_type or "")
    if bare in WEB_IMAGE_TYPES:
        return None
    return f"of type {bare or 'unknown'} (JPEG, PNG, GIF or WebP only)"

_YOUTUBE_HOSTS = frozenset(("youtube.com", "www.youtube.com", "m.youtube.com", "youtu.be"))


def unfetchable_uri(uri: str) -> str | None:
    """Why an API that downloads media by URL cannot fetch ``uri``, or ``None`` if it can.

    OpenAI's and Anthropic's APIs fetch over http(s) only: a ``gs://`` URI (Gemini's Cloud
    Storage) is out of their reach, and a YouTube page is a web page, which Gemini alone
    reads as a video. The reason is worded for `unsupported` (``by a URI other than http(s)``).
    """
    scheme, _, rest = uri.partition("://")
    if scheme.lower() not in ("http", "https"):
        return "by a URI other than http(s)"
    host = rest.partition("/")[0].partition("?")[0].rpartition("@")[2].partition(":")[0]
    if host.lower() in _YOUTUBE_HOSTS:
        return "by a YouTube page URL (a web page, not a file)"
    return None


def report_unread(count: int, where: str, noun: str, keyword: str) -> None:
    """Warn of each reply but the first of ``count``, which a reader not told which leaves out.

    A response holds several when asked for (``n``, ``candidate_count``): converting it
    carries one. ``where`` is the list's path (``completion.choices``), ``noun`` what one is
    (``choice``), ``keyword`` the reader's argument that picks another (``choice``).
    """
    for index in range(1, count):
        lose(
            None,
            f"{where}[{index}]",
            f"{noun} {index} of {count}: from_response reads one "
            f"(read this one with from_response({where.partition('.')[0]}, {keyword}={index}))",
            "warn",
        )
