"""Fixes: saving onto a symbolic link or into a missing folder, and prompt strings' tools.

- ``ChatHistory.save``, the command line's ``-o`` and `semantic_chat.atomic` write the file a
  link points to and keep the link; a missing folder is a ``FileNotFoundError`` naming the
  path given and the folder, never the temporary file.
- ``form_prompt_string`` writes a request body's own tools (a history's ``options.tools``)
  when no ``tools`` are given, cleanlab's string for its messages with those tools; given
  ``tools`` win. A `ToolSet` is written as its Chat Completions definitions.
- A tool returning a `ChatMessageContent` gets an error result naming it and saying what a
  tool may return, not its private fields.
"""

from __future__ import annotations

import copy
import errno
import importlib.util
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from cleanlab_tlm.utils import chat as cleanlab
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import histories

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    ChatOptions,
    FunctionCallContent,
    InvalidTypeError,
    atomic,
)
from semantic_chat.cli import main as cli_main
from semantic_chat.formats import openai_chat, openai_responses
from semantic_chat.prompt import form_prompt_string
from semantic_chat.serialization import to_json
from semantic_chat.tools import ToolSet


def _load_exact_tests() -> Any:
    """The cleanlab comparison tests' strategies and helpers (``tests/prompt``), reused."""
    path = Path(__file__).parent / "prompt" / "test_prompt_exact.py"
    spec = importlib.util.spec_from_file_location("_prompt_exact_helpers", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_exact = _load_exact_tests()


def _parts(directory: Path) -> list[str]:
    """The temporary files left in ``directory`` (none, after a write or a failed one)."""
    return sorted(path.name for path in directory.iterdir() if path.name.endswith(".part"))


# --- saving onto a symbolic link -----------------------------------------------------------


def test_save_onto_a_link_writes_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    real, link = tmp_path / "real.json", tmp_path / "chat.json"
    ChatHistory(system_message="old").save(real)
    link.symlink_to(real)
    ChatHistory(system_message="new").save(link)
    assert link.is_symlink()
    assert os.readlink(link) == str(real)
    assert ChatHistory.load(real)[0].content == "new"
    assert real.read_text() == to_json(ChatHistory(system_message="new")) + "\n"
    assert _parts(tmp_path) == []


def test_a_relative_link_in_another_folder_is_followed(tmp_path: Path) -> None:
    """The temporary file goes beside the real file, in its folder (one file system)."""
    (tmp_path / "data").mkdir()
    (tmp_path / "links").mkdir()
    link = tmp_path / "links" / "chat.json"
    link.symlink_to(Path("..") / "data" / "real.json")
    ChatHistory(system_message="x").save(link)
    assert link.is_symlink()
    assert ChatHistory.load(tmp_path / "data" / "real.json")[0].content == "x"
    assert _parts(tmp_path / "data") == _parts(tmp_path / "links") == []


def test_a_chain_of_links_writes_the_last_file(tmp_path: Path) -> None:
    real, middle, link = tmp_path / "real.json", tmp_path / "middle.json", tmp_path / "chat.json"
    middle.symlink_to("real.json")
    link.symlink_to("middle.json")
    ChatHistory(system_message="x").save(link)
    assert (link.is_symlink(), middle.is_symlink(), real.is_symlink()) == (True, True, False)
    assert real.read_text() == to_json(ChatHistory(system_message="x")) + "\n"


def test_a_dangling_link_creates_the_file_it_names(tmp_path: Path) -> None:
    link = tmp_path / "chat.json"
    link.symlink_to("made.json")
    ChatHistory(system_message="x").save(link)
    assert link.is_symlink()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["chat.json", "made.json"]
    assert ChatHistory.load(tmp_path / "made.json")[0].content == "x"


def test_a_dangling_link_into_a_missing_folder_names_the_link_and_folder(
    tmp_path: Path,
) -> None:
    link = tmp_path / "chat.json"
    link.symlink_to("nowhere/made.json")
    with pytest.raises(FileNotFoundError) as caught:
        ChatHistory(system_message="x").save(link)
    assert str(caught.value) == (
        f"[Errno 2] the folder {tmp_path / 'nowhere'} does not exist (the link points to "
        f"{tmp_path / 'nowhere' / 'made.json'}): '{link}'"
    )
    assert caught.value.filename == str(link)
    assert link.is_symlink()


def test_a_loop_of_links_is_an_error_naming_the_path(tmp_path: Path) -> None:
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    with pytest.raises(OSError) as caught:
        ChatHistory(system_message="x").save(tmp_path / "a.json")
    assert caught.value.errno == errno.ELOOP
    assert str(caught.value) == (
        f"[Errno 40] the symbolic links form a loop: '{tmp_path / 'a.json'}'"
    )
    assert (tmp_path / "a.json").is_symlink()
    assert (tmp_path / "b.json").is_symlink()


def test_the_file_a_link_points_to_keeps_its_permissions(tmp_path: Path) -> None:
    real, link = tmp_path / "real.json", tmp_path / "chat.json"
    real.write_text("{}")
    real.chmod(0o600)
    link.symlink_to(real)
    ChatHistory(system_message="x").save(link)
    assert real.stat().st_mode & 0o777 == 0o600


def test_a_failed_write_through_a_link_leaves_the_target_and_no_temporary_file(
    tmp_path: Path,
) -> None:
    real, link = tmp_path / "real.json", tmp_path / "chat.json"
    real.write_text("before")
    link.symlink_to(real)

    def stopped_midway() -> None:
        with atomic.atomic_write(link) as handle:
            handle.write(b"half")
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        stopped_midway()
    assert real.read_text() == "before"
    assert link.is_symlink()
    assert _parts(tmp_path) == []


def test_the_command_line_output_onto_a_link_writes_its_target(tmp_path: Path) -> None:
    source, real, link = tmp_path / "in.json", tmp_path / "real.json", tmp_path / "out.json"
    ChatHistory(system_message="hi").save(source)
    real.write_text("{}")
    link.symlink_to("real.json")
    status = cli_main(["convert", str(source), "--to", "openai-chat", "-o", str(link)])
    assert status == 0
    assert link.is_symlink()
    assert real.read_text() == '[{"role":"system","content":"hi"}]\n'
    assert _parts(tmp_path) == []


def test_atomic_real_target(tmp_path: Path) -> None:
    link = tmp_path / "l.json"
    link.symlink_to("sub/r.json")
    assert atomic.real_target(link) == tmp_path / "sub" / "r.json"
    assert atomic.real_target(tmp_path / "plain.json") == tmp_path / "plain.json"


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(history=histories())
def test_a_history_saved_through_a_link_loads_back_from_its_target(history: ChatHistory) -> None:
    with tempfile.TemporaryDirectory() as directory:
        real, link = Path(directory) / "real.json", Path(directory) / "chat.json"
        link.symlink_to("real.json")
        history.save(link)
        assert link.is_symlink()
        assert ChatHistory.load(real) == history
        assert ChatHistory.load(link) == history


# --- a missing folder ----------------------------------------------------------------------


def test_saving_into_a_missing_folder_names_the_path_and_the_folder(tmp_path: Path) -> None:
    target = tmp_path / "missing_dir" / "chat.json"
    with pytest.raises(FileNotFoundError) as caught:
        ChatHistory(system_message="x").save(target)
    assert str(caught.value) == (
        f"[Errno 2] the folder {tmp_path / 'missing_dir'} does not exist: '{target}'"
    )
    assert caught.value.filename == str(target)
    assert ".part" not in str(caught.value)
    assert isinstance(caught.value, OSError)


def test_the_first_missing_folder_is_named(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "chat.json"
    with pytest.raises(FileNotFoundError) as caught:
        ChatHistory(system_message="x").save(str(target))
    assert caught.value.strerror == f"the folder {tmp_path / 'a'} does not exist"
    assert caught.value.filename == str(target)


def test_a_folder_as_the_target_names_the_path_given(tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    with pytest.raises(IsADirectoryError) as caught:
        ChatHistory(system_message="x").save(tmp_path / "adir")
    assert caught.value.filename == str(tmp_path / "adir")
    assert ".part" not in str(caught.value)
    assert _parts(tmp_path) == []


def test_the_command_line_names_the_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.json"
    ChatHistory(system_message="hi").save(source)
    target = tmp_path / "nowhere" / "out.json"
    status = cli_main(["convert", str(source), "--to", "openai-chat", "-o", str(target)])
    assert status == 1
    assert capsys.readouterr().err == (
        f"semantic-chat: {target}: cannot write: the folder {tmp_path / 'nowhere'} "
        "does not exist\n"
    )


# --- prompt strings: a request's own tools ---------------------------------------------------

WEATHER_CHAT = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather.",
        "parameters": {"type": "object", "properties": {}},
    },
}
WEATHER_RESPONSES = {
    "type": "function",
    "name": "get_weather",
    "description": "Weather.",
    "parameters": {"type": "object", "properties": {}},
    "strict": False,
}
CHAT_BODY = {
    "model": "gpt-4o",
    "messages": [{"role": "system", "content": "S."}, {"role": "user", "content": "hi"}],
    "tools": [WEATHER_CHAT],
}
RESPONSES_BODY = {
    "model": "gpt-4o",
    "instructions": "Be brief.",
    "input": [{"role": "user", "content": "hi"}],
    "tools": [WEATHER_RESPONSES],
}
TOOLS_HEAD = (
    "You are an AI Assistant that can call provided tools (a.k.a. functions). The set of "
    "available tools is provided to you as function signatures within <tools> </tools> XML "
    "tags. You may call one or more of these functions to assist with the user query. If the "
    "provided functions are not helpful/relevant, then just respond in natural conversational "
    "language. After you choose to call a function, you will be provided with the function's "
    "results within <tool_response> </tool_response> XML tags.\n\n<tools>\n"
)
TOOLS_TAIL = (
    "\n</tools>\n\nFor each function call return a JSON object, with the following pydantic "
    "model json schema:\n{'name': <function-name>, 'arguments': <args-dict>}\nEach function "
    "call should be enclosed within <tool_call> </tool_call> XML tags.\nExample:\n<tool_call>\n"
    "{'name': <function-name>, 'arguments': <args-dict>}\n</tool_call>\nNote: Function calls "
    "and their results may optionally include a call_id, which should be ignored."
)
CHAT_LINE = (
    '{"type":"function","function":{"name":"get_weather","description":"Weather.",'
    '"parameters":{"type":"object","properties":{}}}}'
)
RESPONSES_LINE = (
    '{"type":"function","name":"get_weather","description":"Weather.",'
    '"parameters":{"type":"object","properties":{}},"strict":false}'
)
CHAT_EXPECTED = f"System: S.\n\n{TOOLS_HEAD}{CHAT_LINE}{TOOLS_TAIL}\n\nUser: hi\n\nAssistant:"
RESPONSES_EXPECTED = (
    f"System: Be brief.\n\n{TOOLS_HEAD}{RESPONSES_LINE}{TOOLS_TAIL}\n\nUser: hi\n\nAssistant:"
)


def _cleanlab(messages: Any, tools: Any = None, **kwargs: Any) -> str:
    """Cleanlab's own ``form_prompt_string``, its warnings ignored."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        written: str = cleanlab.form_prompt_string(
            copy.deepcopy(messages), copy.deepcopy(tools), **kwargs
        )
    return written


def test_a_chat_request_writes_its_own_tools_as_cleanlab_does() -> None:
    assert _cleanlab(CHAT_BODY["messages"], CHAT_BODY["tools"]) == CHAT_EXPECTED
    assert form_prompt_string(CHAT_BODY) == CHAT_EXPECTED
    assert form_prompt_string(CHAT_BODY, exact=True) == CHAT_EXPECTED
    assert form_prompt_string(CHAT_BODY, exact=False) == CHAT_EXPECTED


def test_a_responses_request_writes_its_own_tools_as_cleanlab_does() -> None:
    expected = _cleanlab(
        RESPONSES_BODY["input"], RESPONSES_BODY["tools"], instructions="Be brief."
    )
    assert expected == RESPONSES_EXPECTED
    assert form_prompt_string(RESPONSES_BODY) == RESPONSES_EXPECTED
    assert form_prompt_string(RESPONSES_BODY, exact=False) == RESPONSES_EXPECTED


def test_a_history_read_from_a_request_writes_its_options_tools() -> None:
    chat = openai_chat.from_request(CHAT_BODY)
    assert chat.options is not None
    assert chat.options.tools == [WEATHER_CHAT]
    assert form_prompt_string(chat) == CHAT_EXPECTED
    assert form_prompt_string(chat, exact=True) == CHAT_EXPECTED
    responses = openai_responses.from_request(RESPONSES_BODY)
    assert form_prompt_string(responses) == RESPONSES_EXPECTED
    assert form_prompt_string(responses, exact=True) == RESPONSES_EXPECTED


def test_tools_given_win_over_the_requests_own() -> None:
    other = [{"type": "function", "function": {"name": "f"}}]
    expected = form_prompt_string(CHAT_BODY["messages"], other)
    assert '{"type":"function","function":{"name":"f"}}' in expected
    assert "get_weather" not in expected
    assert form_prompt_string(CHAT_BODY, other) == expected
    assert form_prompt_string(openai_chat.from_request(CHAT_BODY), other) == expected
    # an empty list given: no tools, whatever the request holds
    assert form_prompt_string(CHAT_BODY, []) == "System: S.\n\nUser: hi\n\nAssistant:"


def test_a_gemini_sdk_request_writes_its_config_tools() -> None:
    declaration = {"name": "get_weather", "description": "Weather."}
    body = {
        "model": "gemini-2.5-flash",
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "config": {"tools": [{"function_declarations": [declaration]}]},
    }
    line = '{"type":"function","function":{"name":"get_weather","description":"Weather."}}'
    assert form_prompt_string(body) == f"System: {TOOLS_HEAD}{line}{TOOLS_TAIL}\n\nUser: hi\n\nAssistant:"


def test_a_requests_bad_tool_is_located_in_the_request() -> None:
    body = {**CHAT_BODY, "tools": [WEATHER_CHAT, {"description": "no name"}]}
    with pytest.raises(InvalidTypeError) as caught:
        form_prompt_string(body)
    assert str(caught.value) == (
        "conversation.tools[1]: expected a tool definition with a name, got a dict without one"
    )
    history = ChatHistory(options=ChatOptions(tools=[{"description": "no name"}]))
    history.add_user_message("hi")
    with pytest.raises(InvalidTypeError) as caught:
        form_prompt_string(history)
    assert caught.value.path == "conversation.options.tools[0]"


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(messages=_exact._chat_messages(), tools=_exact._chat_tools())
def test_a_chat_request_is_its_messages_with_its_tools(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
) -> None:
    """A request body writes what its messages with its tools write, cleanlab's string."""
    body: dict[str, Any] = {"model": "m", "messages": messages}
    if tools is not None:
        body["tools"] = tools
    expected = _exact._cleanlab_or_none(messages, tools)
    ours = _exact._ours_or_error(body)
    _exact._same_or_refused(ours, expected)
    alone = _exact._ours_or_error(messages, tools)
    if isinstance(alone, str):
        assert ours == alone


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    items=_exact._responses_input(),
    tools=_exact._responses_tools(),
    instructions=st.one_of(st.none(), st.sampled_from(["I", "Be brief.", ""])),
)
def test_a_responses_request_is_its_input_with_its_tools_and_instructions(
    items: list[dict[str, Any]], tools: list[dict[str, Any]] | None, instructions: str | None
) -> None:
    body: dict[str, Any] = {"model": "m", "input": items}
    if tools is not None:
        body["tools"] = tools
    if instructions is not None:
        body["instructions"] = instructions
    kwargs = {} if instructions is None else {"instructions": instructions}
    expected = _exact._cleanlab_or_none(items, tools, **kwargs)
    ours = _exact._ours_or_error(body, exact=True)
    _exact._same_or_refused(ours, expected)
    alone = _exact._ours_or_error(items, tools, exact=True, **kwargs)
    if isinstance(alone, str):
        assert ours == alone


# --- prompt strings: a ToolSet as the tools --------------------------------------------------


def _get_weather(city: str) -> str:
    """Get the weather."""
    return "sunny"


def test_a_toolset_is_written_as_its_chat_definitions() -> None:
    tools = ToolSet([_get_weather])
    messages = [{"role": "user", "content": "hi"}]
    definitions = tools.definitions("openai-chat")
    expected = form_prompt_string(messages, definitions)
    assert expected == _cleanlab(messages, definitions)
    assert form_prompt_string(messages, tools) == expected
    assert '"name":"_get_weather","description":"Get the weather."' in expected
    history = openai_chat.from_payload(messages)
    assert form_prompt_string(history, tools) == form_prompt_string(history, definitions)
    # instructions select the Responses rendering, which writes the tools in its shape
    responses = form_prompt_string(messages, tools, instructions="I")
    assert responses == form_prompt_string(messages, definitions, instructions="I")
    assert '{"type":"function","name":"_get_weather","description":"Get the weather."' in (
        responses
    )


def test_a_mapping_that_is_no_tool_is_still_a_located_error() -> None:
    with pytest.raises(InvalidTypeError) as caught:
        form_prompt_string([{"role": "user", "content": "hi"}], {"get_weather": {}})
    assert str(caught.value) == (
        "tools[0]: expected a tool definition with a name, got a dict without one"
    )


# --- a tool that returns a message ---------------------------------------------------------


def _returns_message() -> ChatMessageContent:
    """Answer with a message (which a tool should not)."""
    return ChatMessageContent("user", "hi")


def _returns_nested_message() -> dict[str, Any]:
    """A message inside a dict."""
    return {"m": ChatMessageContent("user", "hi")}


def test_a_tool_returning_a_message_says_what_a_tool_may_return() -> None:
    tools = ToolSet([_returns_message])
    result = tools.invoke(FunctionCallContent("c14", "_returns_message", {}))
    assert result.is_error
    assert result.result == (
        "_returns_message (call c14) returned a ChatMessageContent, which is not a result: a "
        "tool returns text, JSON values, content items (an ImageContent, a list of items), or "
        "attrs, dataclass, enum, date or pydantic values; return its items (message.items) or "
        "its text (message.content)"
    )
    assert "_role" not in result.result


def test_a_message_inside_a_result_is_named_at_its_place() -> None:
    tools = ToolSet([_returns_nested_message])
    result = tools.invoke(FunctionCallContent("c1", "_returns_nested_message", {}))
    assert result.is_error
    assert result.result == (
        '_returns_nested_message (call c1) returned what a result cannot hold: result["m"]: '
        "ChatMessageContent is not a JSON value"
    )
