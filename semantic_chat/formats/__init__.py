"""Wire formats: one module per format, each with the same ``to_*`` / ``from_*`` functions.

``formats.get(name)``, ``formats.names()``, ``formats.detect(payload)`` and
``formats.convert(payload, source=None, target=...)`` and ``formats.validate(payload)`` work
over every registered format:
``semantic-chat`` (this library's own JSON), ``openai-chat``, ``openai-responses``,
``anthropic``, ``gemini``, ``sk-python`` (Semantic Kernel's Python JSON) and ``sk-dotnet``
(.NET Semantic Kernel).

``formats.register_encoder(format_name, cls, encoder)`` and ``register_decoder(format_name,
part_type, decoder)`` teach a wire format a plugin's content type (``unregister_encoder`` and
``unregister_decoder`` forget them); ``openai_chat.register_encoder(cls, encoder)`` and its
kin are the same, bound to their format.
"""

from collections.abc import Iterable
from typing import Any

from ..history import ChatHistory
from ..message import ChatMessageContent
from ..serialization import from_dict, to_dict
from . import anthropic, gemini, openai_chat, openai_responses, sk_dotnet, sk_python
from .codecs import register_decoder as register_decoder
from .codecs import register_encoder as register_encoder
from .codecs import unregister_decoder as unregister_decoder
from .codecs import unregister_encoder as unregister_encoder
from .registry import WireFormat as WireFormat
from .registry import convert as convert
from .registry import detect as detect
from .registry import get as get
from .registry import names as names
from .registry import register as register
from .scoring import (
    score_anthropic,
    score_gemini,
    score_openai_chat,
    score_openai_responses,
    score_semantic_chat,
    score_sk_dotnet,
    score_sk_python,
)
from .validation import Problem as Problem
from .validation import validate as validate
from .wire import ConversionWarning as ConversionWarning

__all__ = [
    "ConversionWarning",
    "Problem",
    "WireFormat",
    "anthropic",
    "convert",
    "detect",
    "gemini",
    "get",
    "names",
    "openai_chat",
    "openai_responses",
    "register",
    "register_decoder",
    "register_encoder",
    "sk_dotnet",
    "sk_python",
    "unregister_decoder",
    "unregister_encoder",
    "validate",
]


def _read_semantic_chat(payload: Any) -> ChatHistory:
    return from_dict(payload, ChatHistory)


def _read_openai_responses(payload: Any) -> ChatHistory:
    return openai_responses.from_payload(payload)


def _read_anthropic(payload: Any) -> ChatHistory:
    return anthropic.from_payload(payload)


def _write_anthropic_request(
    history: Iterable[ChatMessageContent] | ChatHistory, **options: Any
) -> Any:
    # A document with messages and no options (a fine-tuning line, {"system", "messages"})
    # has no max_tokens to send: it stays a payload. One with options is a request.
    if isinstance(history, ChatHistory) and history.options is not None:
        return anthropic.to_request(history, **options)
    return anthropic.to_payload(history, **options)


def _read_gemini(payload: Any) -> ChatHistory:
    return gemini.from_payload(payload)


def _write_gemini_request(
    history: Iterable[ChatMessageContent] | ChatHistory, **options: Any
) -> Any:
    # A history with options is a request (in the layout it was read in); without, the
    # payload, which is a request body too ({"contents", "system_instruction"}).
    if isinstance(history, ChatHistory) and history.options is not None:
        return gemini.to_request(history, **options)
    return gemini.to_payload(history, **options)


def _write_semantic_chat(history: Iterable[ChatMessageContent], **_: Any) -> Any:
    # A ChatHistory is written as it is, options included; other iterables are made one.
    return to_dict(history if isinstance(history, ChatHistory) else ChatHistory(history))


register(
    WireFormat(
        name="semantic-chat",
        summary="this library's own JSON: every item kind, plugins and metadata, lossless",
        from_payload=_read_semantic_chat,
        to_payload=_write_semantic_chat,
        score=score_semantic_chat,
    )
)
register(
    WireFormat(
        name=openai_chat.NAME,
        summary="OpenAI Chat Completions messages: text (a response's with its citations), "
        "images, wav/mp3 audio, files, refusals, tool calls and results",
        from_payload=openai_chat.from_payload,
        to_payload=openai_chat.to_payload,
        score=score_openai_chat,
        to_request=openai_chat.to_request,
    )
)
register(
    WireFormat(
        name=openai_responses.NAME,
        summary="OpenAI Responses input items (or a request with instructions): text with "
        "citations, images, files, refusals, function calls and outputs, reasoning items",
        from_payload=_read_openai_responses,
        to_payload=openai_responses.to_payload,
        score=score_openai_responses,
        to_request=openai_responses.to_request,
    )
)
register(
    WireFormat(
        name=anthropic.NAME,
        summary="Anthropic Messages (system and messages, or a request): text with citations, "
        "images, documents, tool use and results, thinking with signatures, server tool blocks",
        from_payload=_read_anthropic,
        to_payload=anthropic.to_payload,
        score=score_anthropic,
        to_request=_write_anthropic_request,
    )
)
register(
    WireFormat(
        name=gemini.NAME,
        summary="Google Gemini contents (or a generateContent request, REST or SDK): text, "
        "thoughts with signatures, inline and file data, function calls and responses, "
        "code execution parts, grounding citations",
        from_payload=_read_gemini,
        to_payload=gemini.to_payload,
        score=score_gemini,
        to_request=_write_gemini_request,
    )
)
register(
    WireFormat(
        name=sk_dotnet.NAME,
        summary=".NET Semantic Kernel's ChatHistory JSON ($type items, PascalCase): text, "
        "images, audio, binary, file references, function calls and results, reasoning",
        from_payload=sk_dotnet.from_payload,
        to_payload=sk_dotnet.to_payload,
        score=score_sk_dotnet,
    )
)
register(
    WireFormat(
        name=sk_python.NAME,
        summary="Semantic Kernel's Python ChatHistory JSON (serialize()): text, images, audio, "
        "binary, file references, function calls and results, reasoning, annotations",
        from_payload=sk_python.from_payload,
        to_payload=sk_python.to_payload,
        score=score_sk_python,
    )
)
