"""``semantic-chat validate`` reports every problem; ``--on-unsupported`` for convert."""

import json

from cli_helpers import chat_conversation, example_json, run, write_jsonl

FOUR_PROBLEMS = [
    {"role": "user", "content": "hi"},
    {"role": "tool", "content": "x"},
    {"role": "human", "content": "hello"},
    {"role": "assistant", "content": [{"type": "video", "video": {}}]},
    {"role": "user"},
]
FOUR_LINES = [
    "messages[1]: tool message without tool_call_id",
    "messages[2].role: OpenAI Chat Completions has no role 'human'",
    "messages[3].content[0].type: unknown content part type 'video'",
    "messages[4]: missing 'content'",
]


def test_validate_prints_all_four_problems_of_a_document():
    done = run("validate", "--format", "openai-chat", stdin=json.dumps(FOUR_PROBLEMS))
    assert (done.status, done.stderr) == (1, "")
    assert done.stdout.splitlines() == [*FOUR_LINES, "<stdin>: 4 errors"]


def test_max_problems_limits_the_lines_not_the_count():
    done = run("validate", "--format", "openai-chat", "--max-problems", "2",
               stdin=json.dumps(FOUR_PROBLEMS))
    assert done.status == 1
    assert done.stdout.splitlines() == [
        *FOUR_LINES[:2],
        "... 2 more problems not shown (see --max-problems)",
        "<stdin>: 4 errors",
    ]


def test_max_problems_must_be_a_whole_number():
    done = run("validate", "--max-problems", "-1", stdin="[]")
    assert done.status == 2
    assert done.errors == [
        "semantic-chat validate: error: argument --max-problems: expected a whole number of "
        "problems, got '-1' (see semantic-chat validate --help)"
    ]


def test_validate_a_robot_as_convert_would():
    robot = json.dumps([{"role": "robot", "content": "beep"}])
    done = run("validate", "--format", "openai-responses", stdin=robot)
    assert (done.status, done.stdout) == (
        1, "input[0].role: OpenAI Responses has no role 'robot'\n<stdin>: 1 error\n"
    )
    converted = run("convert", "--from", "openai-responses", "--to", "openai-responses",
                    stdin=robot)
    assert converted.status == 1
    assert converted.errors == [
        "semantic-chat: input[0].role: OpenAI Responses has no role 'robot'"
    ]


def test_validate_to_a_target_lists_errors_and_warnings():
    done = run("validate", "--to", "openai-responses", stdin=example_json())
    assert (done.status, done.stderr) == (1, "")
    assert done.stdout.splitlines() == [
        "messages[1].name: warning: OpenAI Responses cannot carry the name of a user message",
        "messages[1].items[2]: OpenAI Responses cannot carry audio content in a user message",
        "messages[2].items[0]: OpenAI Responses cannot carry reasoning content without the id "
        "of an OpenAI reasoning item",
        "<stdin>: 2 errors, 1 warning",
    ]


def test_warnings_alone_exit_zero():
    done = run("validate", "--to", "openai-responses",
               stdin=json.dumps([{"role": "user", "content": "hi", "name": "ada"}]))
    assert done == (0, (
        "messages[0].name: warning: OpenAI Responses cannot carry the name of a user message\n"
        "<stdin>: 1 warning\n"
    ), "")


def test_validate_jsonl_numbers_lines_and_counts_with_separators(tmp_path):
    conversations = [chat_conversation(i) for i in range(1_200)]
    conversations[1_099] = FOUR_PROBLEMS
    source = write_jsonl(tmp_path / "in.jsonl", conversations)
    done = run("validate", str(source), "--quiet")
    assert (done.status, done.stderr) == (1, "")
    assert done.stdout.splitlines() == [f"line 1,100: {line}" for line in FOUR_LINES]
    done = run("validate", str(source))
    assert done.stdout.splitlines()[-1] == f"{source}: 4 errors in 1,200 conversations"
    good = write_jsonl(tmp_path / "good.jsonl", [chat_conversation(i) for i in range(1_200)])
    assert run("validate", str(good)).stdout == (
        f"{good}: no problems in 1,200 conversations (1,200 openai-chat)\n"
    )


def test_on_unsupported_drop_is_silent_and_error_refuses_fields():
    user = json.dumps([{"role": "user", "content": "hi", "name": "ada"}])
    done = run("convert", "--to", "openai-responses", "--on-unsupported", "drop", stdin=user)
    assert (done.status, json.loads(done.stdout), done.stderr) == (
        0, [{"role": "user", "content": "hi"}], ""
    )
    done = run("convert", "--to", "openai-responses", stdin=user)
    assert done.errors == [
        "semantic-chat: warning: messages[0].name: dropped: OpenAI Responses cannot carry the "
        "name of a user message"
    ]
    done = run("convert", "--to", "openai-responses", "--on-unsupported", "error", stdin=user)
    assert (done.status, done.stdout) == (1, "")
    assert done.errors == [
        "semantic-chat: messages[0].name: OpenAI Responses cannot carry the name of a user "
        "message (pass --drop-unsupported to leave it out)"
    ]


GEMINI_REQUEST = {"model": "gemini-2.5-flash",
                  "contents": [{"role": "user", "parts": [{"text": "hi"}]}]}


def test_validate_to_anthropic_takes_max_tokens_as_convert_does(tmp_path):
    # What was seen: validate --to anthropic flagged every request without max_tokens, told a
    # command-line user to "set history.options.max_tokens", and had no --max-tokens.
    source = tmp_path / "req.json"
    source.write_text(json.dumps(GEMINI_REQUEST))
    done = run("validate", str(source), "--to", "anthropic")
    assert (done.status, done.stdout.splitlines()) == (1, [
        "max_tokens: Anthropic Messages requires max_tokens: pass --max-tokens",
        f"{source}: 1 error",
    ])
    done = run("validate", str(source), "--to", "anthropic", "--max-tokens", "100")
    assert (done.status, done.stdout.splitlines()) == (
        0, [f"{source}: no problems (gemini, 1 message)"]
    )
    lines = write_jsonl(tmp_path / "reqs.jsonl", [GEMINI_REQUEST, GEMINI_REQUEST])
    done = run("validate", str(lines), "--to", "anthropic", "--max-tokens", "100")
    assert done.status == 0, done.stdout + done.stderr
    done = run("validate", str(source), "--to", "anthropic", "--max-tokens", "0")
    assert done.status == 2
    assert "--max-tokens" in done.stderr


def test_the_library_check_takes_max_tokens():
    from semantic_chat import formats

    assert [problem.path for problem in formats.validate(GEMINI_REQUEST, target="anthropic")] \
        == ["max_tokens"]
    assert formats.validate(GEMINI_REQUEST, target="anthropic", max_tokens=100) == []


TWO_CANDIDATES = {"candidates": [
    {"content": {"role": "model", "parts": [{"text": "Answer A"}]}, "finish_reason": "STOP"},
    {"content": {"role": "model", "parts": [{"text": "Answer B"}]}, "finish_reason": "STOP"},
]}
# without the reader's advice (from_response(response, candidate=1)), which no option follows
LEFT_OUT = "response.candidates[1]: dropped: candidate 1 of 2: from_response reads one"


def test_what_reading_leaves_out_is_a_warning_of_every_command(tmp_path):
    # What was seen: a response's second candidate disappeared in convert, show and validate
    # without a word; then it came as a raw Python warning.
    source = tmp_path / "two.json"
    source.write_text(json.dumps(TWO_CANDIDATES))
    converted = run("convert", str(source), "--to", "openai-chat")
    assert (converted.status, converted.errors) == (0, [f"semantic-chat: warning: {LEFT_OUT}"])
    assert json.loads(converted.stdout) == [{"role": "assistant", "content": "Answer A"}]
    shown = run("show", str(source), "--color", "never")
    assert (shown.status, shown.errors) == (0, [f"semantic-chat: warning: {LEFT_OUT}"])
    checked = run("validate", str(source))
    assert (checked.status, checked.stdout.splitlines()) == (0, [
        "response.candidates[1]: warning: candidate 1 of 2: from_response reads one",
        f"{source}: 1 warning",
    ])
    lines = write_jsonl(tmp_path / "two.jsonl", [TWO_CANDIDATES])
    converted = run("convert", str(lines), "--to", "openai-chat", "-q")
    assert converted.status == 0
    assert converted.errors == [f"semantic-chat: warning: line 1: {LEFT_OUT}"]


def test_the_library_validate_lists_what_reading_leaves_out():
    from semantic_chat import formats

    problems = formats.validate(TWO_CANDIDATES, target="openai-chat")
    assert [(p.path, p.severity) for p in problems] == [("response.candidates[1]", "warning")]


def test_a_batch_line_of_a_failed_request_says_so(tmp_path):
    # What was seen: "response.body: cannot tell the format of this dict: pass --from (...)",
    # and with --from: "response.body.messages: expected a list of messages, got dict".
    # Such a line has no reply to convert: left out with a warning, as validate words it.
    line = {"id": "batch_req_3", "custom_id": "r3", "error": None, "response": {
        "status_code": 400, "request_id": "req_3", "body": {"error": {
            "message": "Invalid model", "type": "invalid_request_error", "param": "model",
            "code": None}}}}
    source = write_jsonl(tmp_path / "errors.jsonl", [line])
    for extra in ([], ["--from", "openai-chat"]):
        done = run("convert", str(source), "--to", "openai-responses", *extra)
        assert (done.status, done.errors) == (0, [
            "semantic-chat: warning: line 1: no reply to convert: request r3: failed "
            "(status 400): Invalid model",
            "semantic-chat: converted 0 conversations to openai-responses; left out 1 request "
            "without a reply",
        ])


def test_a_stream_of_chunks_is_named_as_one(tmp_path):
    # What was seen: "cannot tell the format of this list: pass --from (...)", which no
    # --from could follow.
    chunks = [{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
               "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"},
                            "finish_reason": None}]}]
    source = tmp_path / "chunks.json"
    source.write_text(json.dumps(chunks))
    done = run("convert", str(source), "--to", "anthropic")
    assert (done.status, done.errors) == (1, [
        "semantic-chat: this is a stream of OpenAI Chat Completions events, not a "
        "conversation: accumulate it first (its format's from_stream, then "
        "StreamingChatMessageContent.accumulate(...).to_message())"
    ])
