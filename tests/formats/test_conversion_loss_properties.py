"""No silent loss: for generated histories, every loss is refused, warned about, or in the table.

The histories are those each format carries exactly (`format_strategies`), decorated with what
it cannot carry, each decoration recorded with its path and its kind:

- silent (the README table's "not written"): message ``id``, ``model_id``, ``finish_reason``
  and ``usage``, which requests never carry;
- a field (warned about by default): a message's ``name`` where the format has none (every
  Responses message, a Chat tool or function message), metadata under a key that is no
  format's hints, on a message or an item;
- an item (refused by default): reasoning without an OpenAI item id in an assistant message.

Error results (``is_error=True``) are decorations the formats carry: they read back as they
were.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any, NamedTuple

import pytest
from format_strategies import chat_histories, responses_histories
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import ChatHistory, FunctionResultContent, ReasoningContent, Usage
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import ConversionWarning, openai_chat, openai_responses, validate
from semantic_chat.serialization import to_dict

_FORMATS = {
    "openai-chat": (openai_chat, chat_histories()),
    "openai-responses": (openai_responses, responses_histories()),
}


class Decorated(NamedTuple):
    given: ChatHistory
    expected: ChatHistory
    """What reading the payload back gives when every loss is left out."""
    losses: dict[str, str]
    """Path of each loss and its default: ``"error"`` (an item) or ``"warn"`` (a field)."""


@st.composite
def decorated(draw: st.DrawFn, format_name: str) -> Decorated:
    base = draw(_FORMATS[format_name][1])
    for message in base.messages:
        for item in message.items:
            if isinstance(item, FunctionResultContent) and draw(st.booleans()):
                item.is_error = True
    expected = copy.deepcopy(base)
    losses: dict[str, str] = {}
    for index, message in enumerate(base.messages):
        path = f"messages[{index}]"
        if draw(st.integers(0, 3)) == 0:
            message.id, message.model_id = "msg_1", "gpt-x"
            message.finish_reason = "stop"
            message.usage = Usage(prompt_tokens=1, completion_tokens=2, total_tokens=3)
        role = str(message.role)
        nameless = format_name == "openai-responses" or role in ("tool", "function")
        if message.name is None and nameless and draw(st.integers(0, 3)) == 0:
            message.name = "ada"
            losses[f"{path}.name"] = "warn"
        if message.name is not None and format_name == "openai-responses":
            losses[f"{path}.name"] = "warn"
        if draw(st.integers(0, 4)) == 0:
            message.metadata["app"] = {"k": 1}
            losses[f'{path}.metadata["app"]'] = "warn"
        for position, item in enumerate(message.items):
            if draw(st.integers(0, 6)) == 0:
                item.metadata["note"] = "x"
                losses[f'{path}.items[{position}].metadata["note"]'] = "warn"
        if role == "assistant" and draw(st.integers(0, 4)) == 0:
            losses[f"{path}.items[{len(message.items)}]"] = "error"
            message.items.append(ReasoningContent("thinking"))
    return Decorated(base, expected, losses)


def _write(format_name: str, history: ChatHistory, on_unsupported: Any) -> tuple[Any, list[str]]:
    module = _FORMATS[format_name][0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = module.to_payload(history, on_unsupported=on_unsupported)
    assert all(note.category is ConversionWarning for note in caught)
    return payload, [str(note.message).split(": dropped: ")[0] for note in caught]


def _read(format_name: str, payload: Any) -> ChatHistory:
    return _FORMATS[format_name][0].from_payload(payload)


@pytest.mark.parametrize("format_name", sorted(_FORMATS))
@given(data=st.data())
def test_error_refuses_every_loss_or_reads_back_what_the_table_keeps(format_name, data):
    case = data.draw(decorated(format_name))
    if case.losses:
        with pytest.raises(UnsupportedContentError) as raised:
            _write(format_name, case.given, "error")
        assert raised.value.path in case.losses
        return
    payload, notes = _write(format_name, case.given, "error")
    assert notes == []
    assert _read(format_name, payload) == case.expected


@pytest.mark.parametrize("format_name", sorted(_FORMATS))
@given(data=st.data())
def test_warn_lists_exactly_the_differences(format_name, data):
    case = data.draw(decorated(format_name))
    payload, notes = _write(format_name, case.given, "warn")
    assert sorted(notes) == sorted(case.losses)
    assert _read(format_name, payload) == case.expected


@pytest.mark.parametrize("format_name", sorted(_FORMATS))
@given(data=st.data())
def test_drop_is_silent_and_the_default_refuses_items_and_warns_about_fields(format_name, data):
    case = data.draw(decorated(format_name))
    payload, notes = _write(format_name, case.given, "drop")
    assert notes == []
    assert _read(format_name, payload) == case.expected
    refused = [path for path, kind in case.losses.items() if kind == "error"]
    if refused:
        with pytest.raises(UnsupportedContentError) as raised:
            _write(format_name, case.given, None)
        assert raised.value.path in refused
    else:
        _, notes = _write(format_name, case.given, None)
        assert sorted(notes) == sorted(case.losses)


@pytest.mark.parametrize("format_name", sorted(_FORMATS))
@given(data=st.data())
def test_validate_reports_each_loss_with_its_default_severity(format_name, data):
    case = data.draw(decorated(format_name))
    problems = validate(to_dict(case.given), "semantic-chat", target=format_name)
    severity = {"error": "error", "warn": "warning"}
    assert sorted((p.path, p.severity) for p in problems) == sorted(
        (path, severity[kind]) for path, kind in case.losses.items()
    )
