"""One constructor per role: ``system("Be brief.")``, ``user(["What is this?", image])``.

Each is `ChatMessageContent` with its role given, with the same coercion of ``content`` (a
string, an item, bytes, a path, a numpy or PIL image, or a list of them) and the same keyword
fields (``items=``, ``name=``, ``usage=`` ...), as ell's ``ell.user`` and the Prompt API's
per-role messages have it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .contents import FunctionResultContent, KernelContent
from .errors import InvalidTypeError, InvalidValueError
from .labels import AuthorRole, FinishReason
from .message import ChatMessageContent
from .usage import Usage

__all__ = ["assistant", "system", "tool", "user"]


def system(
    content: Any = None,
    *,
    items: Iterable[KernelContent] | None = None,
    name: str | None = None,
    id: str | None = None,
    finish_reason: FinishReason | str | None = None,
    usage: Usage | Mapping[str, int] | None = None,
    model_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    inner_content: Any = None,
) -> ChatMessageContent:
    """A system message: instructions for the model."""
    return ChatMessageContent(
        AuthorRole.SYSTEM,
        content,
        items=items, name=name, id=id, finish_reason=finish_reason, usage=usage,
        model_id=model_id, metadata=metadata, inner_content=inner_content,
    )


def user(
    content: Any = None,
    *,
    items: Iterable[KernelContent] | None = None,
    name: str | None = None,
    id: str | None = None,
    finish_reason: FinishReason | str | None = None,
    usage: Usage | Mapping[str, int] | None = None,
    model_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    inner_content: Any = None,
) -> ChatMessageContent:
    """A user message."""
    return ChatMessageContent(
        AuthorRole.USER,
        content,
        items=items, name=name, id=id, finish_reason=finish_reason, usage=usage,
        model_id=model_id, metadata=metadata, inner_content=inner_content,
    )


def assistant(
    content: Any = None,
    *,
    items: Iterable[KernelContent] | None = None,
    name: str | None = None,
    id: str | None = None,
    finish_reason: FinishReason | str | None = None,
    usage: Usage | Mapping[str, int] | None = None,
    model_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    inner_content: Any = None,
) -> ChatMessageContent:
    """An assistant (model) message."""
    return ChatMessageContent(
        AuthorRole.ASSISTANT,
        content,
        items=items, name=name, id=id, finish_reason=finish_reason, usage=usage,
        model_id=model_id, metadata=metadata, inner_content=inner_content,
    )


def tool(
    content: Any = None,
    *,
    call_id: str | None = None,
    is_error: bool = False,
    items: Iterable[KernelContent] | None = None,
    name: str | None = None,
    id: str | None = None,
    finish_reason: FinishReason | str | None = None,
    usage: Usage | Mapping[str, int] | None = None,
    model_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    inner_content: Any = None,
) -> ChatMessageContent:
    """A tool message: ``tool(result, call_id="call_1")`` answers one call.

    With ``call_id``, ``content`` is the function's output (a string, a JSON value or a list
    of items) put in one `FunctionResultContent` (``is_error`` when it describes a failure).
    Without it, ``content`` is coerced as by the constructor, so results built beforehand
    (``tool([FunctionResultContent(...), ...])`` or ``items=``) are kept as they are. The other
    keyword fields are the message's (``name=`` is the author's name, as for every role).

    Raises:
        InvalidValueError: ``is_error`` without ``call_id`` (it belongs on each result then).
        InvalidTypeError: ``items`` with ``call_id`` (the result is the message's item); a field
            of the wrong type, named as by `FunctionResultContent`.
    """
    if call_id is None:
        if is_error:
            raise InvalidValueError(
                "applies to a result given with call_id; "
                "set it on each FunctionResultContent instead",
                path="is_error",
            )
    elif items is not None:
        raise InvalidTypeError("give call_id= (with the result) or items=, not both", path="items")
    else:
        items = [FunctionResultContent(call_id, content, is_error=is_error)]
        content = None
    return ChatMessageContent(
        AuthorRole.TOOL,
        content,
        items=items, name=name, id=id, finish_reason=finish_reason, usage=usage,
        model_id=model_id, metadata=metadata, inner_content=inner_content,
    )
