"""The JSON blocks of a prompt string: ``json.dumps(..., indent=2)`` byte for byte.

`blocks.indented`, `call_block` and `response_block` write indented JSON without the standard
library's pure-Python encoder; these properties pin them to it for any JSON value, at any
depth, names and call ids included (cleanlab writes whatever the payload holds there).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat.prompt.blocks import call_block, indented, response_block

_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(value=_json, newline=st.sampled_from(["\n", "\n  ", "\n    "]))
def test_indented_is_the_standard_librarys_indented_json(value: Any, newline: str) -> None:
    assert indented(value, newline) == json.dumps(value, indent=2).replace("\n", newline)


@given(name=_json, arguments=_json, call_id=_json)
def test_blocks_are_the_standard_librarys_json_in_tags(
    name: Any, arguments: Any, call_id: Any
) -> None:
    call = {"name": name, "arguments": arguments, "call_id": call_id}
    assert call_block(name, arguments, call_id) == (
        f"<tool_call>\n{json.dumps(call, indent=2)}\n</tool_call>"
    )
    result = {"name": name, "call_id": call_id, "output": arguments}
    assert response_block(name, call_id, arguments) == (
        f"<tool_response>\n{json.dumps(result, indent=2)}\n</tool_response>"
    )


def test_a_call_id_that_is_a_list_is_indented_at_its_depth() -> None:
    assert call_block("f", {}, [1]) == (
        '<tool_call>\n{\n  "name": "f",\n  "arguments": {},\n  "call_id": [\n    1\n  ]\n}'
        "\n</tool_call>"
    )


@pytest.mark.parametrize("value", [{1: "a", None: 2}, {"a": {2: [3]}}])
def test_keys_that_are_not_strings_are_written_as_json_writes_them(value: Any) -> None:
    assert indented(value) == json.dumps(value, indent=2)


def test_what_json_cannot_write_is_refused_as_json_refuses_it() -> None:
    with pytest.raises(TypeError, match="bytes is not JSON serializable"):
        indented({"a": b"x"})
