"""Anthropic Messages: requests (``system``, ``messages`` and options), responses and streams.

Everything the format carries maps to items: text blocks (with ``citations``, as
`semantic_chat.Citation` on the text they support), images (``base64``, ``url``, ``file``),
documents (PDF as base64, plain text, url, file; ``title`` as the file's name), ``tool_use``
(``input`` kept as the object it is) and ``tool_result`` (a string or blocks; ``is_error`` as
the flag), ``thinking`` with its ``signature`` and ``redacted_thinking`` with its ``data``
(kept exactly, to send a tool loop with extended thinking back), and every other block
(server tools, search results, newer types) whole as `UnknownContent`. The top-level
``system`` is a leading system message; a user turn that starts with tool results is a
``tool`` message. What the format does not model (``cache_control``, a document's
``context``, a response's ``stop_reason``) is kept under ``metadata["anthropic"]`` so that
``to_payload(from_payload(p)) == p``; `cache_control` marks an item or message for caching.

On the way out, turns alternate (consecutive turns of one role are merged, or refused with
``merge_consecutive=False``), tool results come first in their user turn, system and
developer messages go to ``system``, and reasoning of another provider is never sent as text.

`from_payload` also takes whole documents: ``{"system", "messages"}``, a request body, a
``message`` response and a Message Batches request or results line. `from_request` and
`to_request` read and write a request body with its options (``history.options``;
``to_request`` needs ``max_tokens``). `from_stream` reads the events of a streamed answer.

``register_encoder(cls, encoder)`` and ``register_decoder(block_type, decoder)`` are
`semantic_chat.formats.register_encoder` and ``register_decoder`` with the format name
``"anthropic"`` given.
"""

from .reading import from_response as from_response
from .request import from_payload as from_payload
from .request import from_request as from_request
from .request import to_payload as to_payload
from .request import to_request as to_request
from .shared import HINTS as HINTS
from .shared import NAME as NAME
from .shared import register_decoder as register_decoder
from .shared import register_encoder as register_encoder
from .streaming import from_stream as from_stream
from .writing import cache_control as cache_control

__all__ = [
    "HINTS",
    "NAME",
    "cache_control",
    "from_payload",
    "from_request",
    "from_response",
    "from_stream",
    "register_decoder",
    "register_encoder",
    "to_payload",
    "to_request",
]
