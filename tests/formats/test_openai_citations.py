"""Citations in the two OpenAI formats: Responses ``output_text.annotations`` and Chat
Completions ``message.annotations`` read as `Citation` values, written back exactly, streamed,
and reported where a target cannot carry them."""

from __future__ import annotations

import copy
import warnings

import pytest
from format_helpers import (
    assert_keys_known,
    case,
    dumps_sorted,
    validate_chat_payload,
    validate_responses_payload,
)
from format_strategies import chat_answers_with_annotations, responses_payloads_with_annotations
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletion, ChatCompletionAssistantMessageParam
from openai.types.responses import Response, ResponseOutputTextAnnotationAddedEvent

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    Citation,
    FunctionResultContent,
    TextContent,
)
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import (
    ConversionWarning,
    Problem,
    convert,
    openai_chat,
    openai_responses,
    validate,
)
from semantic_chat.formats.anthropic.reading import from_response as read_claude
from semantic_chat.formats.wire import collect_losses
from semantic_chat.serialization import from_json, to_json
from semantic_chat.streaming import StreamingChatMessageContent, StreamingTextContent

TEXT = "Leeds opened a garden. The report is in a.pdf."
"""46 characters: the first sentence is [0, 22), ``a.pdf`` is [40, 45)."""

URL = {"type": "url_citation", "start_index": 0, "end_index": 22,
       "url": "https://example.com/garden", "title": "Garden opens"}
FILE = {"type": "file_citation", "file_id": "file-abc", "filename": "a.pdf", "index": 46}
CONTAINER = {"type": "container_file_citation", "container_id": "cntr_1", "file_id": "cfile_1",
             "filename": "plot.png", "start_index": 40, "end_index": 45}
FILE_PATH = {"type": "file_path", "file_id": "file-out", "index": 0}

URL_CITATION = Citation(url="https://example.com/garden", title="Garden opens",
                        text_start=0, text_end=22)
FILE_CITATION = Citation(file_id="file-abc", filename="a.pdf", text_start=46, text_end=46)
CONTAINER_CITATION = Citation(file_id="cfile_1", filename="plot.png", text_start=40, text_end=45,
                              metadata={"openai_responses": {"container_id": "cntr_1"}})
FILE_PATH_CITATION = Citation(file_id="file-out", source_index=0)

# What Anthropic gives (its own hints under "anthropic"): a web search result and a document
# passage, which has no OpenAI shape.
WEB_RESULT = Citation(
    url="https://example.com/garden", title="Garden opens", cited_text="A garden opened.",
    metadata={"anthropic": {"type": "web_search_result_location", "encrypted_index": "Eo8B"}},
)
PASSAGE = Citation(
    cited_text="The garden opened.", title="Notes", source_index=0, source_start=0,
    source_end=18, source_unit="char", metadata={"anthropic": {"type": "char_location"}},
)


def output_message(*annotations: dict, text: str = TEXT) -> dict:
    """A Responses output message item, as a response gives it and a request sends it back."""
    return {
        "id": "msg_1", "type": "message", "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": list(annotations),
                     "logprobs": []}],
    }


def the_text(history: ChatHistory) -> TextContent:
    (message,) = history.messages
    (item,) = message.items
    assert isinstance(item, TextContent)
    return item


def losses_of(write, *args, **kwargs) -> tuple[object, list[tuple[str, str, str]]]:
    with collect_losses() as losses:
        written = write(*args, **kwargs)
    return written, losses


# --- Responses: reading and writing back ---------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "citation"),
    [
        (URL, URL_CITATION),
        (FILE, FILE_CITATION),
        (CONTAINER, CONTAINER_CITATION),
        (FILE_PATH, FILE_PATH_CITATION),
    ],
    ids=["url_citation", "file_citation", "container_file_citation", "file_path"],
)
def test_responses_annotation_is_a_citation_and_written_back(annotation, citation):
    payload = [output_message(annotation)]
    history = openai_responses.from_payload(copy.deepcopy(payload))
    assert the_text(history).citations == (citation,)
    written = openai_responses.to_payload(history)
    assert written == payload
    assert dumps_sorted(written) == dumps_sorted(payload)
    validate_responses_payload(written)


def test_responses_annotations_keep_their_order_and_every_key():
    extra = {**URL, "note": {"k": [1]}}
    payload = [output_message(FILE_PATH, extra, FILE, CONTAINER)]
    item = the_text(openai_responses.from_payload(copy.deepcopy(payload)))
    assert item.citations == (
        FILE_PATH_CITATION,
        Citation(url="https://example.com/garden", title="Garden opens", text_start=0,
                 text_end=22, metadata={"openai_responses": {"note": {"k": [1]}}}),
        FILE_CITATION,
        CONTAINER_CITATION,
    )
    assert openai_responses.to_payload(openai_responses.from_payload(payload)) == payload


def test_responses_annotation_of_an_unknown_type_keeps_its_type_and_keys():
    newer = {"type": "page_citation", "file_id": "file-9", "start_index": 3, "end_index": 9,
             "page": 4, "url": 7}
    payload = [output_message(newer)]
    item = the_text(openai_responses.from_payload(copy.deepcopy(payload)))
    # The keys this code knows fill fields; ``url`` is not a string here, so it is kept as is.
    assert item.citations == (
        Citation(file_id="file-9", text_start=3, text_end=9,
                 metadata={"openai_responses": {"type": "page_citation", "page": 4, "url": 7}}),
    )
    assert openai_responses.to_payload(openai_responses.from_payload(payload)) == payload


def test_responses_output_text_without_annotations_is_written_without_them():
    payload = [output_message()]
    del payload[0]["content"][0]["annotations"]
    history = openai_responses.from_payload(copy.deepcopy(payload))
    assert the_text(history).citations == ()
    assert openai_responses.to_payload(history) == payload
    # An empty list is written back as one.
    assert openai_responses.to_payload(openai_responses.from_payload([output_message()])) == [
        output_message()
    ]


def test_responses_annotations_that_are_not_a_list_stay_as_they_were():
    payload = [output_message()]
    payload[0]["content"][0]["annotations"] = None
    history = openai_responses.from_payload(copy.deepcopy(payload))
    assert the_text(history).citations == ()
    assert openai_responses.to_payload(history) == payload


def test_responses_response_with_web_search_citations():
    response = case("openai_responses.json", "response_message_output_text")["payload"]
    search = {"type": "web_search_call", "id": "ws_1", "status": "completed",
              "action": {"type": "search", "query": "garden leeds"}}
    response["output"] = [search, output_message(URL, FILE)]
    reply = openai_responses.from_response(response)
    assert reply.items[1].citations == (URL_CITATION, FILE_CITATION)
    assert openai_responses.from_response(Response.model_validate(response)) == reply
    written = openai_responses.to_payload([reply])
    assert written == [search, output_message(URL, FILE)]
    validate_responses_payload(written[1:])  # a web_search_call input item is not modelled


def test_responses_citations_survive_json():
    history = openai_responses.from_payload([output_message(URL, FILE, CONTAINER, FILE_PATH)])
    again = from_json(to_json(history), ChatHistory)
    assert again == history
    assert openai_responses.to_payload(again) == [output_message(URL, FILE, CONTAINER, FILE_PATH)]


@pytest.mark.parametrize(
    ("annotation", "message"),
    [
        ({"type": "url_citation", "start_index": 0, "end_index": 2, "title": "t"},
         "input[0].content[0].annotations[0]: missing 'url'"),
        ({**URL, "start_index": "0"},
         "input[0].content[0].annotations[0].start_index: expected int, got str"),
        ({**FILE, "index": True},
         "input[0].content[0].annotations[0].index: expected int, got bool"),
        ({**CONTAINER, "container_id": None},
         "input[0].content[0].annotations[0].container_id: expected str, got NoneType"),
        ({"start_index": 0}, "input[0].content[0].annotations[0]: missing 'type'"),
        ("url", "input[0].content[0].annotations[0]: expected an annotation object, got str"),
    ],
)
def test_responses_malformed_annotation_names_its_place(annotation, message):
    with pytest.raises(FormatError) as raised:
        openai_responses.from_payload([output_message(annotation)])
    assert str(raised.value) == message


# --- Responses: writing citations from elsewhere -------------------------------------------


def read_then_cite(*citations: Citation, text: str = TEXT) -> ChatHistory:
    """An output message read from a payload, its text given ``citations``."""
    history = openai_responses.from_payload([output_message(text=text)])
    the_text(history).citations = citations
    return history


def test_responses_writes_a_citation_from_elsewhere_as_the_type_its_fields_imply():
    history = read_then_cite(
        Citation(url="https://a.test", title="A"),  # no span: the whole text
        Citation(url="https://b.test", text_start=5),  # no title: "" (the API requires one)
        Citation(file_id="file-1", filename="a.pdf"),  # goes after the text
        Citation(file_id="file-1", filename="a.pdf", text_start=3, text_end=3),
        Citation(file_id="file-2", source_index=1),
    )
    written, losses = losses_of(openai_responses.to_payload, history)
    assert losses == []
    assert written[0]["content"][0]["annotations"] == [
        {"type": "url_citation", "start_index": 0, "end_index": 46, "url": "https://a.test",
         "title": "A"},
        {"type": "url_citation", "start_index": 5, "end_index": 46, "url": "https://b.test",
         "title": ""},
        {"type": "file_citation", "file_id": "file-1", "filename": "a.pdf", "index": 46},
        {"type": "file_citation", "file_id": "file-1", "filename": "a.pdf", "index": 3},
        {"type": "file_path", "file_id": "file-2", "index": 1},
    ]
    validate_responses_payload(written)


def test_responses_reports_what_an_annotation_cannot_hold():
    history = read_then_cite(
        WEB_RESULT,
        PASSAGE,
        Citation(file_id="file-3"),  # a file_path needs its index among the files
        Citation(file_id="file-1", filename="a.pdf", text_start=0, text_end=22, title="A"),
        Citation(url="https://c.test", metadata={"app": 1}),
    )
    written, losses = losses_of(openai_responses.to_payload, history)
    at = "messages[0].items[0].citations"
    assert losses == [
        (f"{at}[0].cited_text",
         "OpenAI Responses cannot carry cited_text in a url_citation annotation", "warn"),
        (f"{at}[1]", "OpenAI Responses cannot carry a citation without a url or a file id "
                     "(no annotation type fits it)", "warn"),
        (f"{at}[2]", "OpenAI Responses cannot carry a file_path annotation without a "
                     "source_index (the file's place among the files)", "warn"),
        (f"{at}[3].title",
         "OpenAI Responses cannot carry title in a file_citation annotation", "warn"),
        (f"{at}[3].text_start", "OpenAI Responses cannot carry the start of a span in a "
                                "file_citation annotation (it marks one position)", "warn"),
        (f'{at}[4].metadata["app"]', "OpenAI Responses cannot carry metadata", "warn"),
    ]
    assert written[0]["content"][0]["annotations"] == [
        # Anthropic's web search result: the whole text, its own hints not reported.
        {"type": "url_citation", "start_index": 0, "end_index": 46,
         "url": "https://example.com/garden", "title": "Garden opens"},
        {"type": "file_citation", "file_id": "file-1", "filename": "a.pdf", "index": 22},
        {"type": "url_citation", "start_index": 0, "end_index": 46, "url": "https://c.test",
         "title": ""},
    ]
    validate_responses_payload(written)


def test_responses_citation_loss_warns_by_default_and_is_refused_when_asked():
    history = read_then_cite(PASSAGE)
    with pytest.warns(ConversionWarning) as caught:
        openai_responses.to_payload(history)
    assert [str(w.message) for w in caught] == [
        "messages[0].items[0].citations[0]: dropped: OpenAI Responses cannot carry a citation "
        "without a url or a file id (no annotation type fits it)"
    ]
    with pytest.raises(UnsupportedContentError) as raised:
        openai_responses.to_payload(history, on_unsupported="error")
    assert raised.value.path == "messages[0].items[0].citations[0]"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert openai_responses.to_payload(history, on_unsupported="drop") == [output_message()]


def test_responses_text_outside_an_output_message_cannot_carry_citations():
    history = ChatHistory([
        ChatMessageContent("user", items=[TextContent("Where?", citations=[WEB_RESULT])]),
        ChatMessageContent("assistant", items=[TextContent(TEXT, citations=[URL_CITATION])]),
    ])
    written, losses = losses_of(openai_responses.to_payload, history)
    what = ("OpenAI Responses cannot carry citations outside an output message item (one read "
            "with its id): only output_text has annotations")
    assert losses == [
        ("messages[0].items[0].citations", what, "warn"),
        ("messages[1].items[0].citations", what, "warn"),
    ]
    assert written == [{"role": "user", "content": "Where?"},
                       {"role": "assistant", "content": TEXT}]


def test_responses_text_added_to_an_output_message_is_output_text_with_its_annotations():
    history = openai_responses.from_payload([output_message(text="First.")])
    history[0].items.append(TextContent(TEXT, citations=[WEB_RESULT]))
    written, losses = losses_of(openai_responses.to_payload, history)
    assert [path for path, _, _ in losses] == ["messages[0].items[1].citations[0].cited_text"]
    assert written[0]["content"] == [
        {"type": "output_text", "text": "First.", "annotations": [], "logprobs": []},
        {"type": "output_text", "text": TEXT, "annotations": [
            {"type": "url_citation", "start_index": 0, "end_index": 46,
             "url": "https://example.com/garden", "title": "Garden opens"}]},
    ]
    validate_responses_payload(written)


def test_citations_set_on_text_read_before_they_were_modelled_win_over_the_old_hint():
    # A history saved by an earlier version kept the annotations as a part field.
    item = TextContent(TEXT, metadata={"openai_responses": {
        "output": True, "fields": {"annotations": [URL], "logprobs": []},
        "message": {"fields": {"id": "msg_1", "type": "message", "status": "completed"}},
    }})
    history = ChatHistory([ChatMessageContent("assistant", items=[item])])
    assert openai_responses.to_payload(history) == [output_message(URL)]
    item.citations = [FILE_CITATION]
    assert openai_responses.to_payload(history) == [output_message(FILE)]


# --- Responses: streams --------------------------------------------------------------------


def stream_events(*annotations: dict) -> list[dict]:
    added = [
        {"type": "response.output_text.annotation.added", "output_index": 1, "content_index": 0,
         "item_id": "msg_1", "annotation_index": number, "annotation": annotation,
         "sequence_number": 4 + number}
        for number, annotation in enumerate(annotations)
    ]
    return [
        {"type": "response.created", "response": {"id": "resp_1", "model": "gpt-5"}},
        {"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
         "item_id": "msg_0", "delta": "Before."},
        {"type": "response.output_text.delta", "output_index": 1, "content_index": 0,
         "item_id": "msg_1", "delta": TEXT[:22]},
        added[0],
        {"type": "response.output_text.delta", "output_index": 1, "content_index": 0,
         "item_id": "msg_1", "delta": TEXT[22:]},
        *added[1:],
        {"type": "response.output_text.annotation.added", "output_index": 1, "content_index": 0,
         "item_id": "msg_1", "annotation_index": 9, "annotation": None, "sequence_number": 20},
        {"type": "response.completed", "response": {"id": "resp_1", "model": "gpt-5",
                                                    "status": "completed"}},
    ]


def test_responses_stream_annotation_events_become_the_text_citations():
    events = stream_events(URL, FILE)
    chunks = list(openai_responses.from_stream(events))
    assert chunks[3].items == [StreamingTextContent("", citations=[URL_CITATION], index=1)]
    message = StreamingChatMessageContent.accumulate(chunks).to_message()
    # Each output message is its own text, so each one's citations index its own text.
    assert message.items == [
        TextContent("Before."),
        TextContent(TEXT, citations=[URL_CITATION, FILE_CITATION]),
    ]


def test_responses_stream_reads_sdk_annotation_events():
    events = stream_events(CONTAINER)
    events[3] = ResponseOutputTextAnnotationAddedEvent.model_validate(events[3])
    message = StreamingChatMessageContent.accumulate(
        openai_responses.from_stream(events)
    ).to_message()
    assert message.items[1].citations == (CONTAINER_CITATION,)


def test_responses_stream_malformed_annotation_names_the_event():
    events = stream_events({"type": "file_path", "file_id": "f"})
    with pytest.raises(FormatError) as raised:
        list(openai_responses.from_stream(events))
    assert str(raised.value) == "events[3].annotation: missing 'index'"


# --- Chat Completions ------------------------------------------------------------------------

CHAT_URL = {"type": "url_citation", "url_citation": {
    "start_index": 0, "end_index": 22, "title": "Garden opens",
    "url": "https://example.com/garden"}}
CHAT_SECOND = {"type": "url_citation", "url_citation": {
    "start_index": 23, "end_index": 46, "title": "Report", "url": "https://example.com/r"}}
SECOND_CITATION = Citation(url="https://example.com/r", title="Report", text_start=23,
                           text_end=46)


def completion(*annotations: dict, content: str | None = TEXT) -> dict:
    found = case("openai_chat.json", "completion_stop_plain_text")["payload"]
    message = found["choices"][0]["message"]
    message["content"] = content
    message["annotations"] = list(annotations)
    return found


def test_chat_completion_annotations_are_the_text_citations_and_written_back():
    answer = completion(CHAT_URL, CHAT_SECOND)
    reply = openai_chat.from_response(answer)
    assert reply.items == [TextContent(TEXT, citations=[URL_CITATION, SECOND_CITATION])]
    assert reply.metadata["openai_chat"]["annotations"] is True
    assert openai_chat.from_response(ChatCompletion.model_validate(answer)) == reply
    # What was read writes back as it was (as before citations were modelled): the request
    # types have no "annotations", and that is the only key they do not declare.
    (written,) = openai_chat.to_payload([reply])
    assert written == answer["choices"][0]["message"]
    assert dumps_sorted(written) == dumps_sorted(answer["choices"][0]["message"])
    without = {key: value for key, value in written.items() if key != "annotations"}
    validate_chat_payload([without])
    with pytest.raises(AssertionError, match=r"message\.annotations: key not declared"):
        assert_keys_known(written, ChatCompletionAssistantMessageParam, "message")


def test_chat_sdk_message_appended_to_the_messages_keeps_its_citations():
    sdk = ChatCompletion.model_validate(completion(CHAT_URL)).choices[0].message
    history = openai_chat.from_payload([{"role": "user", "content": "q"}, sdk])
    assert history[1].items[0].citations == (URL_CITATION,)
    assert openai_chat.to_payload(history)[1]["annotations"] == [CHAT_URL]


def test_chat_empty_and_unmodelled_annotations_are_written_back_as_read():
    empty = completion()
    assert openai_chat.to_payload([openai_chat.from_response(empty)]) == [
        empty["choices"][0]["message"]
    ]
    # Only tool calls, no text to hang citations on: the list stays a field of the message.
    calls = completion(content=None)
    calls["choices"][0]["message"]["tool_calls"] = [
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    ]
    reply = openai_chat.from_response(calls)
    assert reply.metadata["openai_chat"]["fields"]["annotations"] == []
    assert openai_chat.to_payload([reply]) == [calls["choices"][0]["message"]]
    # A type the format does not document: the whole list kept as it was, no citations.
    newer = completion(CHAT_URL, {"type": "file_citation", "file_citation": {"file_id": "f"}})
    reply = openai_chat.from_response(newer)
    assert reply.items[0].citations == ()
    assert openai_chat.to_payload([reply]) == [newer["choices"][0]["message"]]


def test_chat_annotation_keys_beside_the_known_ones_are_kept():
    odd = {"type": "url_citation", "extra": 1,
           "url_citation": {**CHAT_URL["url_citation"], "score": 0.5}}
    reply = openai_chat.from_response(completion(odd))
    assert reply.items[0].citations == (
        Citation(url="https://example.com/garden", title="Garden opens", text_start=0,
                 text_end=22, metadata={"openai_chat": {"fields": {"extra": 1},
                                                        "body_fields": {"score": 0.5}}}),
    )
    assert openai_chat.to_payload([reply])[0]["annotations"] == [odd]


@pytest.mark.parametrize(
    ("annotation", "message"),
    [
        ({"type": "url_citation"},
         "completion.choices[0].message.annotations[0]: missing 'url_citation'"),
        ({"type": "url_citation", "url_citation": {**CHAT_URL["url_citation"], "url": 5}},
         "completion.choices[0].message.annotations[0].url_citation.url: expected str, got int"),
        ({"type": "url_citation", "url_citation": {"url": "u", "title": "t", "start_index": 0}},
         "completion.choices[0].message.annotations[0].url_citation: missing 'end_index'"),
    ],
)
def test_chat_malformed_url_citation_names_its_place(annotation, message):
    with pytest.raises(FormatError) as raised:
        openai_chat.from_response(completion(annotation))
    assert str(raised.value) == message


def test_chat_request_messages_cannot_carry_citations():
    history = ChatHistory([
        ChatMessageContent("user", items=[TextContent("Where?", citations=[URL_CITATION])]),
        # One text with citations: the quick writer hands it to the one that reports.
        ChatMessageContent("assistant", items=[TextContent(TEXT, citations=[URL_CITATION])]),
        ChatMessageContent("assistant", items=[
            TextContent("a"), TextContent("b", citations=[URL_CITATION])]),
    ])
    written, losses = losses_of(openai_chat.to_payload, history)
    what = ("OpenAI Chat Completions cannot carry citations in a request message (it has no "
            "annotations; an assistant message read with them writes them back)")
    assert losses == [
        ("messages[0].items[0].citations", what, "warn"),
        ("messages[1].items[0].citations", what, "warn"),
        ("messages[2].items[1].citations", what, "warn"),
    ]
    assert written == [
        {"role": "user", "content": "Where?"},
        {"role": "assistant", "content": TEXT},
        {"role": "assistant", "content": [{"type": "text", "text": "a"},
                                          {"type": "text", "text": "b"}]},
    ]
    validate_chat_payload(written)
    with pytest.raises(UnsupportedContentError) as raised:
        openai_chat.to_payload(history[1:2], on_unsupported="error")
    assert raised.value.path == "messages[0].items[0].citations"


def test_chat_tool_result_text_cannot_carry_citations():
    result = FunctionResultContent("call_1", [TextContent("18 C", citations=[URL_CITATION])])
    history = ChatHistory([ChatMessageContent("tool", items=[result])])
    written, losses = losses_of(openai_chat.to_payload, history)
    assert [path for path, _, _ in losses] == ["messages[0].items[0].result[0].citations"]
    assert written == [{"role": "tool", "tool_call_id": "call_1",
                        "content": [{"type": "text", "text": "18 C"}]}]


def test_chat_message_read_with_annotations_writes_citations_from_elsewhere():
    reply = openai_chat.from_response(completion(CHAT_URL))
    reply.items[0].citations = [WEB_RESULT, PASSAGE, Citation(url="https://x.test",
                                                              text_start=23)]
    written, losses = losses_of(openai_chat.to_payload, [reply])
    at = "messages[0].items[0].citations"
    assert losses == [
        (f"{at}[0].cited_text",
         "OpenAI Chat Completions cannot carry cited_text in a url_citation annotation", "warn"),
        (f"{at}[1]", "OpenAI Chat Completions cannot carry a citation without a url (its "
                     "annotations are url citations only)", "warn"),
    ]
    assert written[0]["annotations"] == [
        {"type": "url_citation", "url_citation": {
            "start_index": 0, "end_index": 46, "title": "Garden opens",
            "url": "https://example.com/garden"}},
        {"type": "url_citation", "url_citation": {
            "start_index": 23, "end_index": 46, "title": "", "url": "https://x.test"}},
    ]


def chat_stream(*annotations: dict) -> list[dict]:
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
            "model": "gpt-4o-search-preview"}
    return [
        {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": TEXT[:22]}}]},
        {**base, "choices": [{"index": 0, "delta": {"content": TEXT[22:]}}]},
        # The search models send the annotations after the text, in a delta of their own.
        {**base, "choices": [{"index": 0, "delta": {"annotations": list(annotations)},
                              "finish_reason": "stop"}]},
    ]


def test_chat_stream_annotations_become_the_text_citations_and_are_written_back():
    message = StreamingChatMessageContent.accumulate(
        openai_chat.from_stream(chat_stream(CHAT_URL, CHAT_SECOND))
    ).to_message()
    assert message.items == [TextContent(TEXT, citations=[URL_CITATION, SECOND_CITATION])]
    reply = openai_chat.from_response(completion(CHAT_URL, CHAT_SECOND))
    assert openai_chat.to_payload([message]) == [
        {"role": "assistant", "content": TEXT, "annotations": [CHAT_URL, CHAT_SECOND],
         "refusal": None}
    ]
    assert openai_chat.to_payload([message]) == openai_chat.to_payload([reply])
    assert message.items == reply.items


def test_chat_stream_keeps_unmodelled_annotations_as_a_message_field():
    newer = {"type": "file_citation", "file_citation": {"file_id": "f"}}
    message = StreamingChatMessageContent.accumulate(
        openai_chat.from_stream(chat_stream(newer))
    ).to_message()
    assert message.items == [TextContent(TEXT)]
    assert openai_chat.to_payload([message])[0]["annotations"] == [newer]


# --- across formats ----------------------------------------------------------------------------


def test_chat_citations_converted_to_responses_are_reported():
    with collect_losses() as losses:
        written = convert(completion(CHAT_URL), target="openai-responses")
    assert written == [{"role": "assistant", "content": TEXT}]
    assert [path for path, _, _ in losses] == ["messages[0].items[0].citations"]


def test_responses_citations_converted_to_chat_are_reported():
    response = case("openai_responses.json", "response_message_output_text")["payload"]
    response["output"] = [output_message(URL, FILE)]
    with collect_losses() as losses:
        written = convert(response, target="openai-chat")
    assert written == [{"role": "assistant", "content": TEXT}]
    assert [path for path, _, _ in losses] == ["messages[0].items[0].citations"]


def test_validate_warns_about_citations_the_target_cannot_carry():
    assert validate(completion(CHAT_URL), target="openai-responses") == [
        Problem(path="messages[0].items[0].citations",
                message="OpenAI Responses cannot carry citations outside an output message "
                        "item (one read with its id): only output_text has annotations",
                severity="warning"),
    ]
    assert validate(completion(CHAT_URL)) == []


def test_claude_citations_in_openai_formats():
    claude = read_claude({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
        "content": [{"type": "text", "text": TEXT, "citations": [
            {"type": "web_search_result_location", "url": "https://example.com/garden",
             "title": "Garden opens", "encrypted_index": "Eo8B",
             "cited_text": "A garden opened."},
            {"type": "char_location", "cited_text": "The garden opened.", "document_index": 0,
             "document_title": "Notes", "start_char_index": 0, "end_char_index": 18},
        ]}],
    })
    # A plain assistant message in either OpenAI request: no place for citations.
    for module in (openai_chat, openai_responses):
        written, losses = losses_of(module.to_payload, [claude])
        assert written == [{"role": "assistant", "content": TEXT}]
        assert [path for path, _, _ in losses] == ["messages[0].items[0].citations"]
    # Where annotations have a place, the web result is a url_citation over the whole text;
    # the document passage has no OpenAI shape.
    history = read_then_cite(*claude.items[0].citations)
    written, losses = losses_of(openai_responses.to_payload, history)
    assert written == [output_message(
        {"type": "url_citation", "start_index": 0, "end_index": 46,
         "url": "https://example.com/garden", "title": "Garden opens"}
    )]
    assert [path for path, _, _ in losses] == [
        "messages[0].items[0].citations[0].cited_text", "messages[0].items[0].citations[1]"
    ]


# --- properties ----------------------------------------------------------------------------


@given(responses_payloads_with_annotations())
def test_responses_payloads_with_annotations_round_trip(payload):
    history = openai_responses.from_payload(copy.deepcopy(payload))
    written = openai_responses.to_payload(history)
    assert written == payload
    assert dumps_sorted(written) == dumps_sorted(payload)
    validate_responses_payload(written)
    assert openai_responses.to_payload(from_json(to_json(history), ChatHistory)) == payload


@given(chat_answers_with_annotations())
def test_chat_answers_with_annotations_round_trip(message):
    history = openai_chat.from_payload([copy.deepcopy(message)])
    assert openai_chat.to_payload(history) == [message]
    assert len(history[0].items[0].citations) == len(message["annotations"])


_TEXTS = st.text(max_size=6)
_NUMBERS = st.none() | st.integers(0, 60)
_CITATIONS = st.builds(
    Citation,
    cited_text=st.none() | _TEXTS, title=st.none() | _TEXTS,
    url=st.none() | st.just("https://a.test"), file_id=st.none() | st.just("file-1"),
    filename=st.none() | st.just("a.pdf"), source_index=_NUMBERS, source_start=_NUMBERS,
    source_end=_NUMBERS, source_unit=st.none() | st.sampled_from(["char", "page", "block"]),
    text_start=_NUMBERS, text_end=_NUMBERS,
)


@given(st.lists(_CITATIONS, max_size=4))
def test_every_citation_is_written_or_reported(citations):
    """A citation either becomes an annotation or is reported whole; nothing is silent."""
    history = read_then_cite(*citations)
    written, losses = losses_of(openai_responses.to_payload, history)
    whole = {path for path, _, _ in losses if path.endswith("]")}
    annotations = written[0]["content"][0]["annotations"]
    assert len(annotations) + len(whole) == len(citations)
    validate_responses_payload(written)
    # What is written reads back as the fields the annotation carries.
    for citation in openai_responses.from_payload(written)[0].items[0].citations:
        assert citation.cited_text is None
        assert citation.source_start is None

    chat = openai_chat.from_response(completion(CHAT_URL))
    chat.items[0].citations = citations
    written, losses = losses_of(openai_chat.to_payload, [chat])
    whole = {path for path, _, _ in losses if path.endswith("]")}
    assert len(written[0]["annotations"]) + len(whole) == len(citations)
    assert len(whole) == sum(citation.url is None for citation in citations)
