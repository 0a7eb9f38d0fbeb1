"""OpenAI Chat Completions: requests (``messages`` and options) and ``ChatCompletion`` responses.

Everything the format carries maps to items: string or part content (``text``, ``image_url``
with ``detail``, ``input_audio`` wav/mp3, ``file`` by data or id), ``name``, assistant
``refusal``, ``tool_calls`` (arguments kept byte for byte), ``audio`` by id, tool messages
with ``tool_call_id``, and the legacy ``function`` role and ``function_call``. What the format
does not model is kept under ``metadata["openai_chat"]`` so that ``to_payload(from_payload(p))
== p``. Request messages carry no ids, usage or finish reasons, so those message fields are not
written. An assistant message with no text is written with ``"content": null``, as the API
sends it; one read without a ``content`` key keeps a hint and is written back without it.

Citations: a ``ChatCompletion`` message's ``annotations`` (``url_citation``, offsets into the
content string) become the citations of its text item. The request types have no
``annotations``, so the rule is: a message read with them (a response, or its message
appended to the next request) writes them back as read, from its texts' current citations;
on any other message, citations are a field loss (left out with a warning by default), and
so is what a ``url_citation`` cannot hold (a citation without a url, a quote, a source's
span). A list holding a type other than ``url_citation`` stays a hint, written back as read.

`from_payload` also takes whole documents: a request body, a fine-tuning line, a
``chat.completion`` and an OpenAI Batch input or output line. `from_request` and `to_request`
read and write a request body with its options (``history.options``).

``register_encoder(cls, encoder)`` and ``register_decoder(part_type, decoder)`` are
`semantic_chat.formats.register_encoder` and ``register_decoder`` with the format name
``"openai-chat"`` given, kept for code written before those took one.
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
