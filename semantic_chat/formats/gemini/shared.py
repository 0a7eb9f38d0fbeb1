"""Names, tables and small readers both directions of Google Gemini share.

Also the format's plugin codecs, the two spellings of its keys (the SDK's snake_case and the
REST API's camelCase) with `respell` between them, `plain` (an SDK object as the REST JSON
it stands for), the mapping of ``finish_reason`` to `FinishReason`, the reading of
``usage_metadata``, and the call ids made up for calls the API sent without one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum
from typing import Any, Literal

from ...errors import FormatError, InvalidValueError, describe_type
from ...labels import FinishReason
from ...media import canonical_mime_type, check_base64
from ...usage import Usage
from ..codecs import PluginCodecs
from ..wire import as_plain

__all__ = [
    "DATA_KEYS",
    "FORMAT",
    "HINTS",
    "IMAGE_TYPES",
    "NAME",
    "OPAQUE_KEYS",
    "PART_FIELDS",
    "PART_KINDS",
    "PROVIDER",
    "SENT_AS_SPELLED",
    "STANDARD_TO_URL_SAFE",
    "URL_SAFE_TO_STANDARD",
    "Spelling",
    "camel_key",
    "check_spelling",
    "codecs",
    "finish_reason",
    "is_made_id",
    "made_call_id",
    "plain",
    "proto_json",
    "read_usage",
    "register_decoder",
    "register_encoder",
    "respell",
    "response_value",
    "sdk_plain",
    "sent_mime_type",
    "signature_problem",
    "snake_key",
    "unreachable_uri",
]

NAME = "gemini"
"""The format's name in the `semantic_chat.formats` registry."""

HINTS = "gemini"
"""The metadata key under which this format keeps what it needs to write a payload back."""

FORMAT = "Gemini"
"""The format's name in messages (``Gemini cannot carry ...``)."""

PROVIDER = "gemini"
"""`ReasoningContent.provider` of thoughts read from this format: only sent back here."""

Spelling = Literal["snake", "camel"]
"""How a writer spells the keys it writes: ``"snake"`` (``function_call``, the SDK's names,
which the REST API accepts too; the default) or ``"camel"`` (``functionCall``, the REST
documentation's names). Readers take either, mixed too."""

PART_KINDS = ("text", "inline_data", "file_data", "function_call", "function_response")
"""The data keys of a part this format reads and writes itself, which no plugin decoder may
take. ``executable_code``, ``code_execution_result`` and newer data keys are read as
`UnknownContent` unless a plugin decoder is registered for them."""

DATA_KEYS = frozenset((
    *PART_KINDS,
    "executable_code",
    "code_execution_result",
    "tool_call",
    "tool_response",
    "audio_transcription",
))
"""The keys known to hold a part's data (a part has one); the others are part-level fields."""

PART_FIELDS = frozenset((
    "thought",
    "thought_signature",
    "video_metadata",
    "media_resolution",
    "part_metadata",
    "media_processing",
    "audio_metadata",
    "document_metadata",
    "spreadsheet_metadata",
    "speech_metadata",
))
"""Part-level keys known to qualify a part's data rather than be it (a part may have any)."""

OPAQUE_KEYS = frozenset((
    "args",
    "response",
    "part_metadata",
    "labels",
    "parameters_json_schema",
    "response_json_schema",
    "json_schema",
    "default",
    "example",
    "enum",
))
"""Keys (snake_case) whose values are the user's data, never respelled: a call's ``args``,
a function's ``response``, ``part_metadata``, ``labels``, JSON schemas, a schema's examples.
(A Batch line's ``response`` is a response: respell its value, not the line.)"""

_MAP_KEYS = frozenset(("properties",))
"""Keys whose values map the user's names (a schema's property names) to structural values."""

codecs = PluginCodecs(NAME, FORMAT, PART_KINDS)
"""Plugin encoders and decoders of this format (`semantic_chat.formats.register_encoder`).

A Gemini part has no ``type``: a decoder is registered under a data key (``"tool_call"``)
and gets the part (keys in snake_case); an encoder returns a part (one data key, any
part-level keys, snake_case: the writer respells it)."""
register_encoder = codecs.register_encoder
"""``register_encoder(cls, encoder)``: ``formats.register_encoder("gemini", ...)``."""
register_decoder = codecs.register_decoder
"""``register_decoder(data_key, decoder)``: ``formats.register_decoder("gemini", ...)``."""

# --- spelling -------------------------------------------------------------------------------

_SNAKE_SHAPE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_CAMEL_SHAPE = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*")
_SNAKE: dict[str, str] = {}
_CAMEL: dict[str, str] = {}


def snake_key(key: str) -> str:
    """A key in snake_case: ``functionCall`` -> ``function_call``; other shapes as given.

    Only a key that is camelCase (a lower-case start, then letters and digits) changes, so a
    key that is neither spelling (``$ref``, ``URL``) is kept as it is.
    """
    found = _SNAKE.get(key)
    if found is None:
        found = key
        if _CAMEL_SHAPE.fullmatch(key) and not key.islower():
            found = re.sub(r"[A-Z]", lambda match: "_" + match.group().lower(), key)
        if len(_SNAKE) < 4096:
            _SNAKE[key] = found
    return found


def camel_key(key: str) -> str:
    """A key in camelCase: ``function_call`` -> ``functionCall``; other shapes as given."""
    found = _CAMEL.get(key)
    if found is None:
        found = key
        if "_" in key and _SNAKE_SHAPE.fullmatch(key):
            found = re.sub(r"_([a-z0-9])", lambda match: match.group(1).upper(), key)
        if len(_CAMEL) < 4096:
            _CAMEL[key] = found
    return found


def check_spelling(spelling: Any) -> Spelling:
    """Check a ``spelling`` argument.

    Raises:
        InvalidValueError: it is neither ``"snake"`` nor ``"camel"``.
    """
    if spelling in ("snake", "camel") and type(spelling) is str:
        return spelling  # type: ignore[return-value]  # one of the literal's values
    raise InvalidValueError(f"expected 'snake' or 'camel', got {spelling!r}", path="spelling")


def respell(value: Any, spelling: Spelling) -> Any:
    """A structural value (a part's ``video_metadata``, a config ...) with its keys respelled.

    Every key of every nested object is written in ``spelling``, except the user's data: the
    values of `OPAQUE_KEYS` (``args``, ``response``, ``part_metadata``, JSON schemas ...) are
    kept as they are, and the property names of a schema's ``properties``. Lists are walked;
    other values are returned as they are. Returns a new value: the given one is not changed.
    """
    if type(value) is list:
        return [respell(element, spelling) for element in value]
    if type(value) is not dict:
        return value
    spell = snake_key if spelling == "snake" else camel_key
    respelled: dict[str, Any] = {}
    for key, element in value.items():
        snake = snake_key(key) if type(key) is str else key
        name = spell(key) if type(key) is str else key
        if snake in OPAQUE_KEYS:
            respelled[name] = element
        elif snake in _MAP_KEYS and type(element) is dict:
            respelled[name] = {
                inner: respell(schema, spelling) for inner, schema in element.items()
            }
        else:
            respelled[name] = respell(element, spelling)
    return respelled


# --- SDK objects ------------------------------------------------------------------------------

_BYTES_KEYS = frozenset((
    "thoughtSignature",
    "continuationToken",
    "sdkBlob",
    "voiceSampleAudio",
    "consentAudio",
))
_BLOB_KEYS = frozenset(("inlineData",))
_SDK_ONLY = ("sdkHttpResponse", "automaticFunctionCallingHistory", "parsed")
URL_SAFE_TO_STANDARD = str.maketrans("-_", "+/")
"""Turns URL-safe base64 text into standard base64 (``str.translate``)."""
STANDARD_TO_URL_SAFE = str.maketrans("+/", "-_")
"""Turns standard base64 text into URL-safe base64, as it was read."""


def plain(obj: Any, path: str) -> Any:
    """A ``google.genai`` SDK object, or a dict, as the REST JSON it stands for.

    `sdk_plain` for an SDK object (which walks its dump once), `proto_json` for a dict (any
    of the SDK's ``model_dump``s loses its ``null`` fields and has its SDK enums as their
    values). Nested values read with `sdk_plain` need not be walked again.
    """
    if type(obj) is dict or not hasattr(obj, "model_dump"):
        return proto_json(obj)
    return sdk_plain(obj, path)


def sdk_plain(obj: Any, path: str) -> Any:
    """A ``google.genai`` SDK object as the REST JSON it stands for; dicts pass through.

    The SDK dumps camelCase keys (the fields it was given) and bytes as URL-safe base64; the
    bytes (``thoughtSignature``, ``inlineData.data`` also inside ``functionResponse.parts``,
    ``continuationToken`` ...) are given back as standard base64, as the REST API sends them,
    so that an SDK object and its REST JSON read to equal messages. What only the SDK holds
    (``sdkHttpResponse``, ``automaticFunctionCallingHistory``, ``parsed``) is left out. A
    role the object's class gives (``ModelContent``, ``UserContent``), which a dump of the
    fields set leaves out, is kept.

    Anything else is returned as it is, for the caller to say what it expected there.

    Raises:
        FormatError: the SDK object's dump fails; the message names ``path``.
    """
    if type(obj) is dict or not hasattr(obj, "model_dump"):
        return obj
    dumped = as_plain(obj, path)
    if type(dumped) is dict:
        for key in _SDK_ONLY:
            dumped.pop(key, None)
        role = getattr(obj, "role", None)
        if type(role) is str and "role" not in dumped:  # a ModelContent's: its class's default
            dumped["role"] = role
    return proto_json(_standard_bytes(dumped))


def _standard_bytes(value: Any, in_call: bool = False) -> Any:
    """Re-encode, in place, the URL-safe base64 of an SDK dump's bytes fields as standard.

    The user's data (`OPAQUE_KEYS`) is not walked: a ``functionResponse``'s ``response``
    (``in_call``) is the user's, while a Batch line's ``response`` is a response.
    """
    if type(value) is list:
        for element in value:
            _standard_bytes(element)
    elif type(value) is dict:
        for key, element in value.items():
            if key in _BYTES_KEYS and type(element) is str:
                value[key] = element.translate(URL_SAFE_TO_STANDARD)
            elif key in _BLOB_KEYS and type(element) is dict:
                data = element.get("data")
                if type(data) is str:
                    element["data"] = data.translate(URL_SAFE_TO_STANDARD)
            elif key == "response" and not in_call:
                _standard_bytes(element)
            elif snake_key(key) not in OPAQUE_KEYS:
                _standard_bytes(element, key == "functionResponse")
    return value


# --- nulls and enums -------------------------------------------------------------------------

_USER_VALUES = (OPAQUE_KEYS - {"response"}) | {"metadata", "custom_configs"}
"""Keys (snake_case) whose values are the user's JSON, where a ``null`` is the user's value:
those never respelled, but ``response`` (a Batch line's is the API's: a function response's
is found by `_RESULT_KEYS`), and the request's ``metadata`` and ``custom_configs``.

An OpenAPI ``Schema`` (``parameters``, ``response_schema``) is the API's own object: its
``null`` fields are unset ones; a JSON Schema (``parameters_json_schema`` ...) is the user's."""
_USER_KEYS = _USER_VALUES | frozenset(camel_key(key) for key in _USER_VALUES)
_RESULT_KEYS = frozenset(("function_response", "functionResponse", "tool_response",
                          "toolResponse"))
"""Keys whose object's ``response`` is the user's (a Batch line's ``response`` is not)."""
_SCHEMA_MAPS = frozenset(("properties", "defs"))
"""Keys whose objects map the user's names to schemas: each schema is walked, whatever its name."""


def proto_json(value: Any) -> Any:
    """A Gemini value as proto JSON: ``null`` fields left out, SDK enums as their values.

    In Gemini's proto JSON a ``null`` field is an absent one, and the SDK's enums are ``str``
    subclasses that stand for their value: ``model_dump()`` (every field, ``None`` when
    unset; enums and bytes in Python mode) reads as ``model_dump(mode="json",
    exclude_none=True)`` does. The user's data (`_USER_VALUES` in either spelling, a function
    response's ``response``) is kept as it is, ``null`` values too. The value itself is
    returned when it has nothing to change (one walk, the cost on clean input); else a copy.
    """
    return _proto_copy(value, "") if _needs_proto(value, "") else value


def _user_value(key: Any, parent: Any) -> bool:
    """Whether the value under ``key`` of the object under the key ``parent`` is the user's."""
    return key in _USER_KEYS or (key == "response" and parent in _RESULT_KEYS)


def _needs_proto(value: Any, parent: Any) -> bool:
    """Whether `proto_json` would change ``value`` (the value of the key ``parent``)."""
    if type(value) is dict:
        for key, element in value.items():
            kind = type(element)
            if kind is str or kind is int or kind is float or kind is bool:
                continue
            if kind is dict or kind is list:
                if _user_value(key, parent):
                    continue
                if key in _SCHEMA_MAPS and kind is dict:
                    for schema in element.values():
                        if _needs_proto(schema, ""):
                            return True
                elif _needs_proto(element, key):
                    return True
            elif element is None or isinstance(element, Enum):
                return True
    elif type(value) is list:
        for element in value:
            kind = type(element)
            if kind is dict or kind is list:
                if _needs_proto(element, parent):
                    return True
            elif kind is not str and isinstance(element, Enum):
                return True
    return False


def _proto_copy(value: Any, parent: Any) -> Any:
    """`proto_json`'s copy of ``value`` (the value of the key ``parent``)."""
    if isinstance(value, Enum):
        return value.value
    if type(value) is list:
        return [_proto_copy(element, parent) for element in value]
    if type(value) is not dict:
        return value
    copied: dict[Any, Any] = {}
    for key, element in value.items():
        if element is None:
            continue
        if _user_value(key, parent):
            copied[key] = element
        elif key in _SCHEMA_MAPS and type(element) is dict:
            copied[key] = {inner: _proto_copy(schema, "") for inner, schema in element.items()}
        else:
            copied[key] = _proto_copy(element, key)
    return copied


# --- responses ----------------------------------------------------------------------------

_FILTERED = frozenset((
    "SAFETY",
    "RECITATION",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_RECITATION",
))


def finish_reason(reason: str, calls: bool = False) -> FinishReason:
    """The `FinishReason` of a Gemini ``finish_reason``.

    ``STOP`` is ``STOP``, or ``TOOL_CALLS`` when the answer holds function calls (``calls``);
    ``MAX_TOKENS`` is ``LENGTH``; ``SAFETY``, ``RECITATION``, ``BLOCKLIST``,
    ``PROHIBITED_CONTENT``, ``SPII`` and the ``IMAGE_`` ones are ``CONTENT_FILTER``; any other
    (``MALFORMED_FUNCTION_CALL``, ``OTHER``, newer ones) is a label of its own text, lower
    case. The readers keep the original in the message's hints.
    """
    if reason == "STOP":
        return FinishReason.TOOL_CALLS if calls else FinishReason.STOP
    if reason == "MAX_TOKENS":
        return FinishReason.LENGTH
    if reason in _FILTERED:
        return FinishReason.CONTENT_FILTER
    return FinishReason(reason.lower())


def read_usage(usage: Mapping[str, Any], path: str = "usage_metadata") -> Usage:
    """Read a Gemini ``usage_metadata`` object (either spelling) with its OpenAI meaning.

    ``prompt_tokens`` is ``prompt_token_count`` + ``tool_use_prompt_token_count`` (every
    input token); ``completion_tokens`` is ``candidates_token_count`` +
    ``thoughts_token_count`` (thoughts are output, as OpenAI counts reasoning);
    ``total_tokens`` is ``total_token_count``, or that sum when it is missing;
    ``cached_tokens`` is ``cached_content_token_count`` and ``reasoning_tokens``
    ``thoughts_token_count`` (``None`` when not reported). Missing or ``null`` counts are
    zero. The readers keep the whole object in the message's hints.

    Raises:
        FormatError: a count (a ``..._token_count``) is not an ``int``, located under
            ``path`` in snake_case (``usage_metadata.prompt_token_count``).
    """
    counts: dict[str, int] = {}
    for key, value in usage.items():
        name = snake_key(key)
        if type(value) is int:
            counts[name] = value
        elif value is not None and name.endswith("_token_count"):
            raise FormatError.mismatch(f"{path}.{name}", "int", describe_type(value))
    thoughts = counts.get("thoughts_token_count")
    prompt = counts.get("prompt_token_count", 0) + counts.get("tool_use_prompt_token_count", 0)
    completion = counts.get("candidates_token_count", 0) + (thoughts or 0)
    total = counts.get("total_token_count")
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=prompt + completion if total is None else total,
        cached_tokens=counts.get("cached_content_token_count"),
        reasoning_tokens=thoughts,
    )


def signature_problem(text: str) -> str | None:
    """What makes a thought signature no base64 text, or ``None`` when it is one.

    Standard base64 (as the REST API sends bytes) and URL-safe base64 (as the SDK's JSON
    dumps write them) are both signatures; the API takes either back.
    """
    try:
        check_base64(text)
    except ValueError as error:
        try:
            check_base64(text.translate(URL_SAFE_TO_STANDARD))
        except ValueError:
            return str(error)
    return None


# --- function responses ---------------------------------------------------------------------


def response_value(response: Mapping[str, Any]) -> tuple[Any, bool]:
    """The value a ``function_response``'s ``response`` reads as, and whether it is an error.

    ``{"result": v}`` and ``{"output": v}`` are ``v``, ``{"error": v}`` is ``v`` failed, any
    other object the object itself: what the reader gives and the writer compares against.
    """
    if len(response) == 1:
        ((key, value),) = response.items()
        if key in ("result", "output"):
            return value, False
        if key == "error":
            return value, True
    return response, False


# --- media ---------------------------------------------------------------------------------

IMAGE_TYPES = frozenset(("image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"))
"""The image types Gemini takes, as its own error lists them (``Unsupported MIME type``)."""

SENT_AS_SPELLED = IMAGE_TYPES | frozenset((
    "audio/wav",
    "audio/mp3",
    "audio/mpeg",
    "audio/aiff",
    "audio/aac",
    "audio/ogg",
    "audio/flac",
    "audio/webm",
    "audio/mp4",
))
"""Image and audio types `sent_mime_type` leaves as they are: the writer's quick check (any
other type is written the long way). Audio is not restricted to these."""

_RAW_AUDIO = frozenset(("audio/pcm", "audio/l16"))
"""Audio of no container, whose parameters (``rate=16000``) say how to play it: kept."""


def sent_mime_type(mime_type: str) -> str:
    """The media type written for ``mime_type``: an image's or audio's registered name.

    Gemini compares an image's or audio's type with its list, spelled as registered:
    ``image/jpg`` and ``IMAGE/JPEG`` are sent as ``image/jpeg``, ``audio/x-wav`` as
    ``audio/wav`` (`canonical_mime_type`), parameters dropped (``audio/wav;rate=8000``) but
    raw audio's (``audio/pcm;rate=16000``); ``audio/mp3``, a name Gemini documents, stays.
    Other types (a document's ``text/plain; charset=utf-8``) are written as given.
    """
    head, semicolon, parameters = mime_type.partition(";")
    bare = head.strip().lower()
    if bare[:6] != "image/" and bare[:6] != "audio/":
        return mime_type
    if bare in _RAW_AUDIO:
        return bare + semicolon + parameters
    if bare == "audio/mp3":
        return bare
    return canonical_mime_type(bare)


_URI_SCHEMES = frozenset(("https", "http", "gs"))


def unreachable_uri(uri: str) -> str | None:
    """Why Gemini cannot read ``file_data`` of ``uri``, or ``None`` when it can.

    Gemini takes http(s) URLs (its Files API's URIs, YouTube pages, the web) and Cloud
    Storage's ``gs://`` URIs; a relative path, a ``file://`` or ``ftp://`` URI names nothing
    it can reach. The reason is worded for `wire.unsupported`.
    """
    if not uri:
        return "by an empty URI"
    scheme, separator, _ = uri.partition("://")
    if separator and scheme.lower() in _URI_SCHEMES:
        return None
    return "by a URI other than http(s) or gs://"


# --- call ids -------------------------------------------------------------------------------

_MADE_ID = re.compile(r"gemini-call-\d+-\d+(?:-\d+)?")


def made_call_id(turn: int, k: int) -> str:
    """The id made up for a call the API sent without one: ``gemini-call-<turn>-<k>``.

    ``turn`` is the index of its content in the payload (0 in a response or a stream) and
    ``k`` the ordinal of the call among that content's calls. A result without an id takes
    the id of the call it answers (see `reading`); a made-up id is never written to Gemini.
    """
    return f"gemini-call-{turn}-{k}"


def is_made_id(text: str) -> bool:
    """Whether ``text`` is an id `made_call_id` made (``gemini-call-<digits>-<digits>``).

    One made up again by `repair` counts too (``gemini-call-0-0-2``): replies read one by
    one each number their calls from ``gemini-call-0-0``, and `repair` renames a repeated id.
    """
    return text[:12] == "gemini-call-" and _MADE_ID.fullmatch(text) is not None
