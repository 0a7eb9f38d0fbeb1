"""The command line between Semantic Kernel's two dialects: ``convert stored.json --to
sk-dotnet`` on a history Python Semantic Kernel serialized (``ChatHistory.serialize()``), and
``--to sk-python`` on one .NET wrote (``JsonSerializer.Serialize(chatHistory)``); each output
exact, with nothing lost, and read back by Semantic Kernel (Python) equal to the original."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run

from semantic_chat import formats

sk = pytest.importorskip("semantic_kernel")
from semantic_kernel.contents import (  # noqa: E402 - after the importorskip
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
)
from semantic_kernel.contents.chat_history import ChatHistory  # noqa: E402
from semantic_kernel.contents.utils.author_role import AuthorRole  # noqa: E402

DOTNET_FIXTURES = Path(__file__).parent.parent / "formats" / "sk_dotnet_fixtures"


def _python_history() -> ChatHistory:
    """A Python Semantic Kernel history with text, an image, a call, its result and metadata."""
    history = ChatHistory()
    history.add_system_message("Be brief.")
    history.add_message(ChatMessageContent(role=AuthorRole.USER, name="ada", items=[
        TextContent(text="What is this?"),
        ImageContent(data_uri="data:image/png;base64,iVBORw0KGgo="),
    ]))
    history.add_message(ChatMessageContent(role=AuthorRole.ASSISTANT, ai_model_id="gpt-4o", items=[
        FunctionCallContent(id="call_1", plugin_name="math", function_name="add",
                            arguments={"a": 2, "b": 3}),
    ]))
    history.add_message(ChatMessageContent(role=AuthorRole.TOOL, items=[
        FunctionResultContent(id="call_1", plugin_name="math", function_name="add", result="5"),
    ]))
    history.add_message(ChatMessageContent(
        role=AuthorRole.ASSISTANT, items=[TextContent(text="5")], metadata={"seen": True}
    ))
    return history


DOTNET: list[dict[str, Any]] = [
    {"Role": {"Label": "system"}, "Items": [{"$type": "TextContent", "Text": "Be brief."}]},
    {"AuthorName": "ada", "Role": {"Label": "user"}, "Items": [
        {"$type": "TextContent", "Text": "What is this?"},
        {"$type": "ImageContent", "MimeType": "image/png", "Data": "iVBORw0KGgo="},
    ]},
    {"Role": {"Label": "assistant"}, "Items": [
        {"$type": "FunctionCallContent", "Id": "call_1", "PluginName": "math",
         "FunctionName": "add", "Arguments": {"a": 2, "b": 3}},
    ], "ModelId": "gpt-4o"},
    {"Role": {"Label": "tool"}, "Items": [
        {"$type": "FunctionResultContent", "CallId": "call_1", "PluginName": "math",
         "FunctionName": "add", "Result": "5"},
    ]},
    {"Role": {"Label": "assistant"}, "Items": [{"$type": "TextContent", "Text": "5"}],
     "Metadata": {"seen": True}},
]
"""What .NET's ``JsonSerializer`` writes for `_python_history` (.NET's key order)."""


def test_a_python_history_converts_to_dotnet_and_back_unchanged(tmp_path):
    history = _python_history()
    stored = history.serialize()
    (tmp_path / "stored.json").write_text(stored, encoding="utf-8")
    done = run("convert", "stored.json", "--to", "sk-dotnet", cwd=tmp_path)
    assert (done.status, done.errors) == (0, [])
    assert done.stdout == json.dumps(DOTNET, separators=(",", ":")) + "\n"

    (tmp_path / "dotnet.json").write_text(done.stdout, encoding="utf-8")
    back = run("convert", "dotnet.json", "--to", "sk-python", cwd=tmp_path)
    assert (back.status, back.errors) == (0, [])
    assert json.loads(back.stdout) == json.loads(stored)
    assert ChatHistory.restore_chat_history(back.stdout) == history


TOOL_LOOP_AS_PYTHON = {"messages": [
    {"metadata": {}, "content_type": "message", "role": "user", "items": [
        {"metadata": {}, "content_type": "text", "text": "What is 2 + 3 in Paris time?"}]},
    {"ai_model_id": "gpt-4o", "metadata": {"Usage": {"OutputTokenCount": 12},
                                           "FinishReason": "ToolCalls"},
     "content_type": "message", "role": "assistant", "items": [
        {"metadata": {}, "content_type": "function_call", "id": "call_1", "name": "math-Add",
         "function_name": "Add", "plugin_name": "math",
         "arguments": {"a": 2, "b": 3, "options": {"round": True, "tags": ["x", None]}}},
        # .NET's FunctionName "time-now" without a plugin is one name: never split (ad4ca7d).
        {"metadata": {}, "content_type": "function_call", "id": "call_2",
         "function_name": "time-now"},
        {"metadata": {}, "content_type": "function_call", "name": "noop",
         "function_name": "noop", "arguments": {}}]},
    {"metadata": {}, "content_type": "message", "role": "tool", "items": [
        {"metadata": {}, "content_type": "function_result", "id": "call_1", "result": "5",
         "name": "math-Add", "function_name": "Add", "plugin_name": "math"},
        # Python Semantic Kernel holds a result as text: a dict is written as its repr.
        {"metadata": {}, "content_type": "function_result", "id": "call_2",
         "result": "{'zone': 'Europe/Paris', 'hour': 14}", "function_name": "time-now"},
        {"metadata": {}, "content_type": "function_result", "function_name": "noop"}]},
    {"metadata": {}, "content_type": "message", "role": "assistant", "name": "helper", "items": [
        {"metadata": {}, "content_type": "reasoning", "text": ""},
        {"metadata": {}, "content_type": "text", "text": "5, at 14:00."}]},
]}


def test_a_dotnet_history_converts_to_python_and_restores_there(tmp_path):
    source = DOTNET_FIXTURES / "tool_loop.json"
    (tmp_path / "stored.json").write_bytes(source.read_bytes())
    done = run("convert", "stored.json", "--to", "sk-python", cwd=tmp_path)
    assert (done.status, done.errors) == (0, [])
    assert json.loads(done.stdout) == TOOL_LOOP_AS_PYTHON
    restored = ChatHistory.restore_chat_history(done.stdout)
    call = restored.messages[1].items[0]
    assert (call.plugin_name, call.function_name, call.arguments["options"]) == (
        "math", "Add", {"round": True, "tags": ["x", None]}
    )
    assert restored.messages[2].items[1].result == "{'zone': 'Europe/Paris', 'hour': 14}"
    assert [str(message.role.value) for message in restored.messages] == [
        "user", "assistant", "tool", "assistant"
    ]


def test_a_dotnet_history_is_detected_and_written_back_as_it_was(tmp_path):
    source = DOTNET_FIXTURES / "message_every_item.json"
    (tmp_path / "stored.json").write_bytes(source.read_bytes())
    done = run("convert", "stored.json", "--to", "sk-dotnet", cwd=tmp_path)
    assert (done.status, done.errors) == (0, [])
    assert json.loads(done.stdout) == json.loads(source.read_text(encoding="utf-8"))
    assert formats.detect(json.loads(done.stdout)) == "sk-dotnet"
