"""Conversations as prompt text.

Two ideas. `form_prompt_string` and `form_response_string` flatten a conversation into the
one string cleanlab's ``cleanlab_tlm.utils.chat`` writes, for scoring a reply: text meant for
a model to read, not to be read back. `to_prompt` / `from_prompt` / `from_rendered_prompt`
write and read Semantic Kernel's XML prompt format, a text form that round-trips.
"""

from __future__ import annotations

from .sk_xml import from_prompt as from_prompt
from .sk_xml import from_rendered_prompt as from_rendered_prompt
from .sk_xml import to_prompt as to_prompt
from .strings import form_prompt_string as form_prompt_string
from .strings import form_response_string as form_response_string

__all__ = [
    "form_prompt_string",
    "form_response_string",
    "from_prompt",
    "from_rendered_prompt",
    "to_prompt",
]
