"""OpenAI Responses API: the request's ``input`` items, ``instructions``, and the ``Response``.

Input items map to messages: ``message`` items (``input_text``, ``input_image``,
``input_file``, ``input_audio``, ``output_text``, ``refusal`` parts) to a message of their role;
``function_call_output`` items to tool messages; and an assistant's turn, which the API spreads
over several items (``reasoning``, ``message``, ``function_call`` ...), to one assistant
message whose items keep the order. Reasoning items keep their ``id``, ``summary`` and
``encrypted_content`` so they can be sent back. What the format does not model is kept under
``metadata["openai_responses"]`` so that ``to_payload(from_payload(p)) == p``.

An ``output_text``'s ``annotations`` are its text's ``citations`` (see
`semantic_chat.formats.openai_responses.citations` for each type) and are written back
exactly; a stream's ``output_text.annotation.added`` events add them to the text fragment.
Only ``output_text`` has annotations, and it is only valid in an output message item (one
read with its id): the citations of any other text, and what an annotation cannot hold (a
quote, a page range, a citation with neither url nor file id), are reported as field losses.

`from_payload` also takes whole documents: a request body, a ``response`` object and an
OpenAI Batch input or output line. `from_request` and `to_request` read and write a request
body with its options (``history.options``: model, tools, reasoning effort, ``store`` ...).

``register_encoder(cls, encoder)`` and ``register_decoder(part_type, decoder)`` are
`semantic_chat.formats.register_encoder` and ``register_decoder`` with the format name
``"openai-responses"`` given, kept for code written before those took one.
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
