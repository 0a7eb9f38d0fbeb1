"""Google Gemini: ``contents`` and ``system_instruction``, requests, responses and streams.

Everything the format carries maps to items: ``text`` parts, thought parts (``thought: true``)
as `ReasoningContent` with their ``thought_signature``, ``inline_data`` and ``file_data`` as
images, audio and files, ``function_call`` (``args`` kept as the object it is) and
``function_response`` (its ``response`` unwrapped, ``error`` as ``is_error``), and every other
part (``executable_code``, ``code_execution_result``, newer kinds) whole as `UnknownContent`.
``system_instruction`` is a leading system message; a ``user`` content that starts with
function responses is a ``tool`` message. A thought signature on any other part (a text, a
function call, an empty part) is kept in that item's hints and written back on the same
part; other formats never send it (each drop is reported). What the format does not model
(``video_metadata``, ``media_resolution``, a response's ``safety_ratings``) is kept under
``metadata["gemini"]``, so that ``to_payload(from_payload(p)) == p``.

Calls without an ``id`` (the Gemini Developer API sends none) get one made up,
``gemini-call-<turn>-<k>``; a result without an id pairs with the earliest unanswered call of
its name. A made-up id is never written back to Gemini.

Readers take dicts whose keys are in either spelling (the SDK's ``function_call`` or the REST
API's ``functionCall``, mixed too) and ``google.genai`` SDK objects. Writers write one
spelling: ``spelling="snake"`` (the default) or ``"camel"``.

`from_payload` also takes whole documents: ``{"contents", "system_instruction"}``, a request
(a REST body, or the SDK's ``{"model", "contents", "config"}``), a ``GenerateContentResponse``
and a Batch API input or output line. `from_request` and `to_request` read and write a request
with its options (``history.options``). `from_response` reads one candidate of a response and
`from_stream` the chunks of a streamed one.

``register_encoder(cls, encoder)`` and ``register_decoder(data_key, decoder)`` are
`semantic_chat.formats.register_encoder` and ``register_decoder`` with the format name
``"gemini"`` given.
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

__all__ = [
    "HINTS",
    "NAME",
    "from_payload",
    "from_request",
    "from_response",
    "from_stream",
    "register_decoder",
    "register_encoder",
    "to_payload",
    "to_request",
]
