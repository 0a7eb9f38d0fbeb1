"""One constructor per role: ``system("Be brief.")``, ``user(["What is this?", image])``.

Each is `ChatMessageContent` with its role given, with the same coercion of ``content`` (a
string, an item, bytes, a path, a numpy or PIL image, or a list of them) and the same keyword
fields (``items=``, ``name=``, ``usage=`` ...), as ell's ``ell.user`` and the Prompt API's
per-role messages have it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .contents import FunctionResultContent
from .errors import InvalidTypeError, InvalidValueError
from .labels import AuthorRole
from .message import ChatMessageContent, MessageFields

if TYPE_CHECKING:  # Python 3.10 has no typing.Unpack; annotations are never evaluated
    from typing_extensions import Unpack

__all__ = ["assistant", "system", "tool", "user"]


def system(content: Any = None, **fields: Unpack[MessageFields]) -> ChatMessageContent:
    """A system message: instructions for the model."""
    return ChatMessageContent(AuthorRole.SYSTEM, content, **fields)


def user(content: Any = None, **fields: Unpack[MessageFields]) -> ChatMessageContent:
    """A user message."""
    return ChatMessageContent(AuthorRole.USER, content, **fields)


def assistant(content: Any = None, **fields: Unpack[MessageFields]) -> ChatMessageContent:
    """An assistant (model) message."""
    return ChatMessageContent(AuthorRole.ASSISTANT, content, **fields)


def tool(
    content: Any = None,
    *,
    call_id: str | None = None,
    is_error: bool = False,
    **fields: Unpack[MessageFields],
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
    elif fields.get("items") is not None:
        raise InvalidTypeError("give call_id= (with the result) or items=, not both", path="items")
    else:
        fields["items"] = [FunctionResultContent(call_id, content, is_error=is_error)]
        content = None
    return ChatMessageContent(AuthorRole.TOOL, content, **fields)
