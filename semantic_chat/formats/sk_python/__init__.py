"""Semantic Kernel's Python JSON: what ``ChatHistory.serialize()`` writes, read and written back.

`from_payload` reads the parsed JSON (or a Semantic Kernel ``ChatHistory`` itself, by its
``serialize()``) into a history: text, images, audio and binary data (a data URI, a ``uri``),
file references (as files by id), function calls (string or dict arguments) and results,
reasoning, annotations (as citations of the text before them) and the streaming kinds. What
the model has no field for (an item's ``ai_model_id``, ``encoding``, ``status``, the
``plugin_name`` / ``function_name`` split, a data URI's header) is kept under
``metadata["sk_python"]``, so that `to_payload` writes the input back; a result Semantic
Kernel wrote as the Python repr of a dict or list is read back as that dict or list.
`to_payload` writes what ``ChatHistory.restore_chat_history`` reads, and reports what
Semantic Kernel cannot hold as ``on_unsupported`` says (the README's table).
"""

from .reading import from_payload as from_payload
from .shared import FORMAT as FORMAT
from .shared import HINTS as HINTS
from .shared import NAME as NAME
from .writing import to_payload as to_payload

__all__ = ["FORMAT", "HINTS", "NAME", "from_payload", "to_payload"]
