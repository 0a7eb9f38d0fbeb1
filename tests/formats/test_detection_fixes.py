"""Detection of Anthropic request bodies by their tools and tool choice, whatever the model.

An Anthropic body behind a gateway has a model name without ``claude`` in it
(``my-gateway-model``); its tools (``input_schema``, a dated type such as
``web_search_20250305``) and its ``tool_choice`` (``any``, ``tool``,
``disable_parallel_tool_use``) are shapes no OpenAI body has, so they make it Anthropic's as
``system`` and ``stop_sequences`` do. Chat bodies with function tools stay Chat's.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import formats
from semantic_chat.errors import FormatError
from semantic_chat.formats import anthropic, documents, openai_chat

USER = {"role": "user", "content": "Search the docs"}
LOOKUP = {"name": "lookup",
          "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}}
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
REPRO = {
    "model": "my-gateway-model", "max_tokens": 512, "messages": [USER],
    "tools": [LOOKUP, WEB_SEARCH],
    "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
    "metadata": {"user_id": "u1"},
}
CHAT_TOOL = {"type": "function", "function": {
    "name": "lookup", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
}}


def _body(**fields):
    return {"model": "my-gateway-model", "max_tokens": 64, "messages": [USER], **fields}


MARKERS = {
    "input_schema tool": {"tools": [LOOKUP]},
    "custom input_schema tool": {"tools": [{"type": "custom", **LOOKUP}]},
    "web_search_20250305": {"tools": [WEB_SEARCH]},
    "bash_20250124": {"tools": [{"type": "bash_20250124", "name": "bash"}]},
    "text_editor_20250728": {
        "tools": [{"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"}]
    },
    "dated tool after a function tool": {"tools": [CHAT_TOOL, WEB_SEARCH]},
    "tool_choice any": {"tool_choice": {"type": "any"}},
    "tool_choice tool": {"tool_choice": {"type": "tool", "name": "lookup"}},
    "disable_parallel_tool_use": {
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": True}
    },
}


@pytest.mark.parametrize("fields", MARKERS.values(), ids=list(MARKERS))
def test_each_anthropic_tool_marker_is_decisive_without_claude_in_the_model(fields):
    body = _body(**fields)
    assert documents.kind_of(body) == "anthropic_request"
    assert formats.detect(body) == "anthropic"


@pytest.mark.parametrize("fields", MARKERS.values(), ids=list(MARKERS))
def test_a_marker_without_max_tokens_or_model_still_makes_the_body_anthropic(fields):
    assert formats.detect({"messages": [USER], **fields}) == "anthropic"


CHAT_BODIES = {
    "function tool, string choice": _body(tools=[CHAT_TOOL], tool_choice="required"),
    "function tool, auto": _body(tools=[CHAT_TOOL], tool_choice="auto"),
    "function tool, named choice": _body(
        tools=[CHAT_TOOL], tool_choice={"type": "function", "function": {"name": "lookup"}}
    ),
    "allowed_tools choice": _body(tools=[CHAT_TOOL], tool_choice={
        "type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": [CHAT_TOOL]},
    }),
    "custom tool": _body(tools=[{"type": "custom", "custom": {"name": "sql"}}]),
    "Responses' dated preview tool": _body(tools=[{"type": "web_search_preview_2025_03_11"}]),
}


@pytest.mark.parametrize("body", CHAT_BODIES.values(), ids=list(CHAT_BODIES))
def test_chat_tools_and_tool_choices_stay_chat(body):
    assert documents.kind_of(body) == "chat_request"
    assert formats.detect(body) == "openai-chat"


def test_the_readme_rule_for_bodies_that_read_alike_is_unchanged():
    assert formats.detect([{"role": "user", "content": "Hi"}]) == "openai-chat"
    assert formats.detect({"model": "my-gateway-model", "messages": [USER]}) == "openai-chat"
    assert formats.detect({"model": "claude-haiku-4-5", "messages": [USER]}) == "openai-chat"
    assert formats.detect(
        {"model": "claude-haiku-4-5", "max_tokens": 16, "messages": [USER]}
    ) == "anthropic"
    assert formats.detect(_body(system="Be brief")) == "anthropic"
    assert formats.detect(_body(stop_sequences=["END"])) == "anthropic"
    assert formats.detect(_body(top_k=5)) == "anthropic"


def test_the_reported_body_converts_to_responses_as_when_named_anthropic():
    expected = {
        "model": "my-gateway-model",
        "input": [{"role": "user", "content": "Search the docs"}],
        "tools": [{"type": "function", "name": "lookup", "parameters": LOOKUP["input_schema"],
                   "strict": False}],
        "tool_choice": "required",
        "parallel_tool_calls": False,
        "max_output_tokens": 512,
        "metadata": {"user_id": "u1"},
    }
    converted = formats.convert(REPRO, target="openai-responses", on_unsupported="drop")
    assert converted == expected
    assert converted == formats.convert(
        REPRO, "anthropic", target="openai-responses", on_unsupported="drop"
    )


def test_the_reported_body_in_a_batch_line_is_read_as_anthropic():
    line = {"custom_id": "r1", "method": "POST", "url": "/v1/x", "body": REPRO}
    assert formats.detect(line) == "anthropic"
    assert formats.detect({"custom_id": "r1", "params": REPRO}) == "anthropic"


def test_the_command_line_validates_the_reported_body_as_anthropic(tmp_path):
    (tmp_path / "req.json").write_text(json.dumps(REPRO), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "semantic_chat", "validate", "req.json"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "req.json: no problems (anthropic, 1 message)\n", ""
    )


def test_the_chat_reader_refuses_an_anthropic_body_naming_what_it_got():
    with pytest.raises(FormatError) as caught:
        openai_chat.from_payload(REPRO)
    assert str(caught.value) == (
        "messages: expected a list of messages or a Chat Completions document, "
        "got an Anthropic Messages request"
    )


def test_a_chat_body_with_a_malformed_tools_field_is_still_chat_and_located():
    for tools in ("lookup", [None, "lookup", 3]):
        body = _body(tools=tools)
        assert documents.kind_of(body) == "chat_request"
        assert formats.detect(body) == "openai-chat"
    with pytest.raises(FormatError) as caught:
        openai_chat.from_payload(_body(tools="lookup"))
    assert caught.value.path == "tools"


def test_a_tool_choice_that_is_not_an_object_is_no_marker():
    for choice in ("any", None, ["any"]):
        assert documents.kind_of(_body(tool_choice=choice)) == "chat_request"


MODELS = st.text(min_size=1, max_size=30).filter(lambda name: "claude" not in name.lower())


# Bodies wholly in Anthropic's shape (a Chat function tool among them is rewritten as its own).
PURE = sorted(name for name in MARKERS if name != "dated tool after a function tool")


@given(model=MODELS, marker=st.sampled_from(PURE))
def test_property_an_anthropic_body_round_trips_and_is_detected_whatever_its_model(
    model, marker
):
    body = {"model": model, "max_tokens": 64, "messages": [USER], **MARKERS[marker]}
    assert formats.detect(body) == "anthropic"
    written = anthropic.to_request(anthropic.from_payload(body))
    assert written == body
    assert formats.detect(written) == "anthropic"


@given(model=MODELS, choice=st.sampled_from(["auto", "none", "required"]))
def test_property_a_chat_body_with_function_tools_round_trips_as_chat(model, choice):
    body = {"model": model, "messages": [USER], "tools": [CHAT_TOOL], "tool_choice": choice}
    assert formats.detect(body) == "openai-chat"
    written = openai_chat.to_request(openai_chat.from_payload(body))
    assert written == body
    assert formats.detect(written) == "openai-chat"
