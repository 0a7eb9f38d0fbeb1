"""Fix: options and citations with keys of a newer version are kept and written back
byte-identical (strict refuses them at the key); provider writers report them, never send them."""

from __future__ import annotations

import datetime
import string
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic_chat import (
    ChatHistory,
    ChatMessageContent,
    ChatOptions,
    ChatOptionsWithUnknownKeys,
    Citation,
    CitationWithUnknownKeys,
    TextContent,
    jsoncodec,
)
from semantic_chat.errors import (
    InvalidTypeError,
    InvalidValueError,
    SerializationError,
    UnsupportedContentError,
)
from semantic_chat.formats import anthropic, openai_chat, sk_dotnet, sk_python
from semantic_chat.serialization import from_dict, from_json, to_dict, to_json
from tests.strategies import histories

OPTIONS = (
    '{"version":1,"options":{"model":"gpt-4o","temperature":0.5,"future_knob":3},'
    '"messages":[{"role":"user","items":[{"type":"text","text":"hi"}]}]}'
)

CITED = (
    '{"version":1,"messages":['
    '{"role":"assistant","items":[{"type":"text","text":"Blue.","citations":['
    '{"url":"https://x.test/sky","text_start":0,"future_key":{"a":[1]}}]}]},'
    '{"role":"tool","items":[{"type":"function_result","call_id":"c1","name":"search",'
    '"result_items":[{"type":"text","text":"sky","citations":['
    '{"title":"Sky","future_rank":2}]}]}]}]}'
)


# --- options ------------------------------------------------------------------------------


def test_an_unknown_option_is_kept_and_written_back_byte_identical() -> None:
    history = from_json(OPTIONS, ChatHistory)
    options = history.options
    assert type(options) is ChatOptionsWithUnknownKeys
    assert (options.model, options.temperature) == ("gpt-4o", 0.5)
    assert options.unknown_keys == {"future_knob": 3}
    assert to_json(history) == OPTIONS
    assert from_json(to_json(history), ChatHistory) == history
    assert options != ChatOptions(model="gpt-4o", temperature=0.5)
    assert not options.is_empty()


def test_save_and_load_keep_an_unknown_option(tmp_path: Path) -> None:
    path = tmp_path / "history.json"
    path.write_text(OPTIONS + "\n", encoding="utf-8")
    history = ChatHistory.load(path)
    history.save(path)
    assert path.read_text(encoding="utf-8") == OPTIONS + "\n"


def test_strict_refuses_an_unknown_option_at_its_key() -> None:
    with pytest.raises(SerializationError) as caught:
        from_json(OPTIONS, ChatHistory, strict=True)
    assert caught.value.path == "options.future_knob"
    assert str(caught.value) == (
        "options.future_knob: no option 'future_knob' in this version (data of a newer "
        "version): read it without strict=True to keep it"
    )


def test_a_bad_known_option_beside_an_unknown_one_is_refused_at_its_field() -> None:
    data = {"version": 1, "options": {"temperature": "hot", "future_knob": 3}, "messages": []}
    with pytest.raises(SerializationError) as caught:
        from_dict(data, ChatHistory)
    assert str(caught.value) == "options.temperature: expected a number or None, got str"


def test_options_with_unknown_keys_refuse_bad_keys() -> None:
    with pytest.raises(InvalidValueError) as caught:
        ChatOptionsWithUnknownKeys(unknown_keys={})
    assert caught.value.path == "unknown_keys"
    with pytest.raises(InvalidValueError) as caught:
        ChatOptionsWithUnknownKeys(model="m", unknown_keys={"model": "n"})
    assert caught.value.path == 'unknown_keys["model"]'
    with pytest.raises(InvalidTypeError) as caught:
        ChatOptionsWithUnknownKeys(unknown_keys={"when": datetime.date(2020, 1, 1)})
    assert caught.value.path == 'unknown_keys["when"]'


def test_an_own_key_put_into_the_unknown_keys_by_hand_is_refused_when_written() -> None:
    options = ChatOptionsWithUnknownKeys(model="m", unknown_keys={"future_knob": 3})
    options.unknown_keys["model"] = "n"  # past the checks
    with pytest.raises(SerializationError) as caught:
        to_json(ChatHistory(options=options))
    assert caught.value.path == 'options.unknown_keys["model"]'


# --- citations ------------------------------------------------------------------------------


def test_unknown_citation_keys_are_kept_on_a_text_and_in_a_tool_result() -> None:
    history = from_json(CITED, ChatHistory)
    (cited,) = history[0].items[0].citations
    assert cited == CitationWithUnknownKeys(
        url="https://x.test/sky", text_start=0, unknown_keys={"future_key": {"a": [1]}}
    )
    assert cited != Citation(url="https://x.test/sky", text_start=0)
    (inner,) = history[1].items[0].result[0].citations
    assert type(inner) is CitationWithUnknownKeys
    assert (inner.title, inner.unknown_keys) == ("Sky", {"future_rank": 2})
    assert to_json(history) == CITED
    assert from_json(to_json(history), ChatHistory) == history
    assert repr(inner) == "CitationWithUnknownKeys(title='Sky', unknown_keys={'future_rank': 2})"


@pytest.mark.parametrize(
    ("document", "path"),
    [
        (CITED, "messages[0].items[0].citations[0].future_key"),
        (
            CITED.replace(',"future_key":{"a":[1]}', ""),
            "messages[1].items[0].result_items[0].citations[0].future_rank",
        ),
    ],
)
def test_strict_refuses_an_unknown_citation_key_at_its_key(document: str, path: str) -> None:
    with pytest.raises(SerializationError) as caught:
        from_json(document, ChatHistory, strict=True)
    assert caught.value.path == path
    key = path.rpartition(".")[2]
    assert str(caught.value) == (
        f"{path}: no citation field {key!r} in this version (data of a newer version): read "
        "it without strict=True to keep it"
    )


def test_a_bad_known_citation_field_beside_an_unknown_one_is_refused_at_its_field() -> None:
    data = {"type": "text", "text": "x", "citations": [{"source_start": "3", "future": 1}]}
    with pytest.raises(SerializationError) as caught:
        from_dict(data, TextContent)
    assert str(caught.value) == "citations[0].source_start: expected an int or None, got str"


def test_citations_with_unknown_keys_refuse_bad_keys() -> None:
    with pytest.raises(InvalidValueError) as caught:
        CitationWithUnknownKeys(unknown_keys={})
    assert caught.value.path == "unknown_keys"
    with pytest.raises(InvalidValueError) as caught:
        CitationWithUnknownKeys(unknown_keys={"url": "u"})
    assert caught.value.path == 'unknown_keys["url"]'
    with pytest.raises(InvalidTypeError) as caught:
        CitationWithUnknownKeys(unknown_keys={"when": datetime.date(2020, 1, 1)})
    assert caught.value.path == 'unknown_keys["when"]'


def test_an_own_citation_key_put_in_by_hand_is_refused_when_written() -> None:
    citation = CitationWithUnknownKeys(title="t", unknown_keys={"future": 1})
    citation.unknown_keys["url"] = "u"  # past the checks
    item = TextContent("x", citations=[citation])
    with pytest.raises(SerializationError) as caught:
        to_dict(ChatMessageContent("assistant", items=[item]))
    assert caught.value.path == 'items[0].citations[0].unknown_keys["url"]'


# --- provider writers -----------------------------------------------------------------------


def test_openai_chat_reports_an_unknown_option_and_does_not_send_it() -> None:
    history = from_json(OPTIONS, ChatHistory)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        request = openai_chat.to_request(history, on_unsupported="warn")
    assert request == {
        "model": "gpt-4o",
        "temperature": 0.5,
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert [str(warning.message) for warning in caught] == [
        "options.future_knob: dropped: OpenAI Chat Completions cannot carry the option "
        "'future_knob' (unknown to this version)"
    ]
    with pytest.raises(UnsupportedContentError) as refused:
        openai_chat.to_request(history, on_unsupported="error")
    assert refused.value.path == "options.future_knob"


def test_semantic_kernel_reports_an_unknown_citation_key_and_writes_the_rest() -> None:
    citation = CitationWithUnknownKeys(
        url="https://x.test/sky",
        title="Sky",
        text_start=0,
        text_end=4,
        unknown_keys={"future_key": 1},
    )
    history = ChatHistory(
        [ChatMessageContent("assistant", items=[TextContent("Blue", citations=[citation])])]
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = sk_python.to_payload(history, on_unsupported="warn")
    assert payload["messages"][0]["items"][1] == {
        "metadata": {},
        "content_type": "annotation",
        "start_index": 0,
        "end_index": 4,
        "url": "https://x.test/sky",
        "title": "Sky",
    }
    assert [str(warning.message) for warning in caught] == [
        "messages[0].items[0].citations[0].future_key: dropped: Semantic Kernel (Python) "
        "cannot carry the citation field 'future_key' (unknown to this version)"
    ]


# --- property -------------------------------------------------------------------------------

_NEWER_KEYS = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=6).map("zz_".__add__)
_VALUES = st.integers(-5, 5) | st.text(max_size=4) | st.lists(st.booleans(), max_size=2)


def _add_to_citations(
    draw: st.DrawFn, items: list[dict[str, Any]], where: str, paths: list[str]
) -> None:
    """Add drawn keys to some citations of ``items`` (tool results' items too), noting paths."""
    for i, item in enumerate(items):
        for c, citation in enumerate(item.get("citations", [])):
            if draw(st.booleans()):
                key = draw(_NEWER_KEYS)
                citation[key] = draw(_VALUES)
                paths.append(f"{where}[{i}].citations[{c}].{key}")
        if "result_items" in item:
            _add_to_citations(draw, item["result_items"], f"{where}[{i}].result_items", paths)


def _add_newer_keys(draw: st.DrawFn, document: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``document`` given options with drawn newer keys, and some citations too; the paths."""
    paths: list[str] = []
    if draw(st.booleans()):
        options: dict[str, Any] = draw(st.sampled_from([{}, {"model": "m"}, {"seed": 1}]))
        for key in draw(st.lists(_NEWER_KEYS, min_size=1, max_size=2, unique=True)):
            options[key] = draw(_VALUES)
            paths.append(f"options.{key}")
        document = {"version": document["version"], "options": options, **document}
    for m, message in enumerate(document["messages"]):
        _add_to_citations(draw, message.get("items", []), f"messages[{m}].items", paths)
    return document, paths


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), histories())
def test_property_newer_option_and_citation_keys_round_trip_and_strict_refuses_them(
    data: st.DataObject, history: ChatHistory
) -> None:
    document = jsoncodec.loads(to_json(history))
    document, paths = _add_newer_keys(data.draw, document)
    text = jsoncodec.dumps(document, None)
    read = from_json(text, ChatHistory)
    assert to_json(read) == text
    assert from_json(to_json(read), ChatHistory) == read
    if paths:
        with pytest.raises(SerializationError) as caught:
            from_json(text, ChatHistory, strict=True)
        assert caught.value.path == paths[0]
    else:
        assert from_json(text, ChatHistory, strict=True) == history


_NEWER_CITATION = (
    '{"version":1,"messages":[{"role":"assistant","items":[{"type":"text",'
    '"text":"Paris is big.","citations":[{"cited_text":"Paris","url":"https://x.org",'
    '"source_unit":"char","source_index":0,"source_start":0,"source_end":5,"future_key":1}]}]}]}'
)


_ANTHROPIC_WRITTEN = {"messages": [{"role": "assistant", "content": [{
    "type": "text", "text": "Paris is big.", "citations": [{
        "type": "char_location", "cited_text": "Paris", "document_index": 0,
        "start_char_index": 0, "end_char_index": 5, "document_title": None,
    }],
}]}]}
_DOTNET_WRITTEN = [{"Role": {"Label": "assistant"}, "Items": [
    {"$type": "TextContent", "Text": "Paris is big."},
    {"$type": "AnnotationContent", "Kind": {"Label": "urlcitation"}, "Label": "Paris",
     "ReferenceId": "https://x.org"},
]}]
_DOTNET_SPAN = [
    f"messages[0].items[0].citations[0].{field}: dropped: .NET Semantic Kernel cannot carry a "
    f"citation's {field}"
    for field in ("source_index", "source_start", "source_end", "source_unit")
]


@pytest.mark.parametrize(
    ("writer", "title", "written", "others"),
    [
        (anthropic, "Anthropic Messages", _ANTHROPIC_WRITTEN, []),
        (sk_dotnet, ".NET Semantic Kernel", _DOTNET_WRITTEN, _DOTNET_SPAN),
    ],
)
def test_anthropic_and_dotnet_report_an_unknown_citation_key(
    writer: Any, title: str, written: Any, others: list[str]
) -> None:
    # Their citation writers are their own, not report_citation_losses: they report it too.
    history = from_json(_NEWER_CITATION)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = writer.to_payload(history)
    assert payload == written
    assert [str(note.message) for note in caught] == [
        f"messages[0].items[0].citations[0].future_key: dropped: {title} cannot carry the "
        "citation field 'future_key' (unknown to this version)",
        *others,
    ]
    with pytest.raises(UnsupportedContentError) as raised:
        writer.to_payload(history, on_unsupported="error")
    assert raised.value.path == "messages[0].items[0].citations[0].future_key"
