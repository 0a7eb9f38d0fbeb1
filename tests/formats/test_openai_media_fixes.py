"""OpenAI Chat and Responses media fixes: file names, image and file types, located base64.

Each test reproduces a defect found by hand (/tmp/hunt_media) and asserts the fixed output.
"""

from __future__ import annotations

import base64
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import ChatHistory, FileContent, ImageContent
from semantic_chat.errors import FormatError, UnsupportedContentError
from semantic_chat.formats import (
    ConversionWarning,
    anthropic,
    convert,
    openai_chat,
    openai_responses,
    validate,
)

PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
PDF64 = base64.b64encode(PDF).decode()
PNG64 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)
REFUSED_IMAGE_TYPES = ["image/bmp", "image/heic", "image/svg+xml", "image/tiff"]
WRITERS = [pytest.param(openai_chat, id="chat"), pytest.param(openai_responses, id="responses")]


def _user(*items: object) -> ChatHistory:
    history = ChatHistory()
    history.add_user_message(["look", *items])
    return history


def _media_part(payload: list[dict]) -> dict:
    """The written part of the item after the text of `_user`'s message."""
    return payload[0]["content"][1]


def _no_warnings(call):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    assert [str(w.message) for w in caught] == []
    return result


# --- 1. file data is written with a filename ------------------------------------------------


def _anthropic_document(**extra: str) -> list[dict]:
    source = {"type": "base64", "media_type": "application/pdf", "data": PDF64}
    return [{"role": "user", "content": [
        {"type": "document", "source": source, **extra}, {"type": "text", "text": "Summarize"}]}]


def test_an_untitled_anthropic_document_reaches_chat_as_file_pdf():
    out = _no_warnings(lambda: convert(_anthropic_document(), source="anthropic",
                                       target="openai-chat"))
    assert out[0]["content"][0] == {"type": "file", "file": {
        "file_data": f"data:application/pdf;base64,{PDF64}", "filename": "file.pdf"}}


def test_an_untitled_anthropic_document_reaches_responses_as_file_pdf():
    out = _no_warnings(lambda: convert(_anthropic_document(), source="anthropic",
                                       target="openai-responses"))
    assert out[0]["content"][0] == {
        "type": "input_file", "file_data": f"data:application/pdf;base64,{PDF64}",
        "filename": "file.pdf"}


def test_a_document_title_is_the_filename():
    messages = _anthropic_document(title="report.pdf")
    chat = convert(messages, source="anthropic", target="openai-chat")
    responses = convert(messages, source="anthropic", target="openai-responses")
    assert chat[0]["content"][0]["file"]["filename"] == "report.pdf"
    assert responses[0]["content"][0]["filename"] == "report.pdf"


@pytest.mark.parametrize(("mime_type", "filename"), [
    ("application/pdf", "file.pdf"),
    ("text/plain", "file.txt"),
    ("text/markdown; charset=utf-8", "file.md"),
    ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "file.docx"),
    ("application/x-made-up", "file"),
])
def test_responses_makes_a_filename_from_the_media_type(mime_type, filename):
    payload = openai_responses.to_payload(_user(FileContent(data=b"x", mime_type=mime_type)))
    assert _media_part(payload)["filename"] == filename


def test_a_file_by_id_or_url_gets_no_made_up_filename():
    items = [FileContent(file_id="file-1"), FileContent(uri="https://x.test/a")]
    chat = openai_chat.to_payload(_user(items[0]))
    responses = openai_responses.to_payload(_user(*items))
    assert _media_part(chat) == {"type": "file", "file": {"file_id": "file-1"}}
    assert responses[0]["content"][1:] == [
        {"type": "input_file", "file_id": "file-1"},
        {"type": "input_file", "file_url": "https://x.test/a"},
    ]


def test_a_chat_payload_without_filename_is_written_back_with_one():
    sent = [{"role": "user", "content": [{"type": "file", "file": {
        "file_data": f"data:application/pdf;base64,{PDF64}"}}]}]
    assert openai_chat.to_payload(openai_chat.from_payload(sent))[0]["content"][0]["file"] == {
        "file_data": f"data:application/pdf;base64,{PDF64}", "filename": "file.pdf"}


_NAMES = st.from_regex(r"[a-z0-9_]{1,8}\.(pdf|txt)", fullmatch=True)


@given(st.binary(max_size=40), _NAMES)
def test_chat_file_data_with_a_filename_round_trips_exactly(data, filename):
    body = {"file_data": "data:application/pdf;base64," + base64.b64encode(data).decode(),
            "filename": filename}
    sent = [{"role": "user", "content": [{"type": "file", "file": body}]}]
    assert openai_chat.to_payload(openai_chat.from_payload(sent)) == sent


@given(st.binary(max_size=40), _NAMES, st.sampled_from(["application/pdf", "text/plain"]))
def test_responses_file_data_with_a_filename_round_trips_exactly(data, filename, mime_type):
    part = {"type": "input_file", "filename": filename,
            "file_data": f"data:{mime_type};base64," + base64.b64encode(data).decode()}
    sent = [{"role": "user", "content": [part]}]
    assert openai_responses.to_payload(openai_responses.from_payload(sent)) == sent


# --- 2. image types OpenAI does not take are refused ----------------------------------------


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("mime_type", REFUSED_IMAGE_TYPES)
def test_an_image_type_openai_does_not_take_is_refused(writer, mime_type):
    history = _user(ImageContent(data=b"\x00\x01", mime_type=mime_type))
    name = "OpenAI Chat Completions" if writer is openai_chat else "OpenAI Responses"
    with pytest.raises(UnsupportedContentError) as caught:
        writer.to_payload(history, on_unsupported="error")
    assert str(caught.value) == (
        f"messages[0].items[1]: {name} cannot carry image content of type {mime_type} "
        "(JPEG, PNG, GIF or WebP only) (pass on_unsupported='warn' to leave it out)")
    assert caught.value.path == "messages[0].items[1]"


@pytest.mark.parametrize("writer", WRITERS)
def test_a_refused_image_type_is_left_out_with_a_warning(writer):
    history = _user(ImageContent(data=b"BM" + bytes(40), mime_type="image/bmp"))
    name = "OpenAI Chat Completions" if writer is openai_chat else "OpenAI Responses"
    with pytest.warns(ConversionWarning) as caught:
        payload = writer.to_payload(history, on_unsupported="warn")
    assert payload == [{"role": "user", "content": "look"}]
    assert [str(w.message) for w in caught] == [
        f"messages[0].items[1]: dropped: {name} cannot carry image content of type image/bmp "
        "(JPEG, PNG, GIF or WebP only)"]


def test_the_chat_quick_writer_leaves_a_refused_image_to_the_general_writer():
    history = _user(ImageContent(data=b"\x00", mime_type="image/tiff"))
    assert openai_chat.writing._write_plain_message(history.messages[0]) is None


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("mime_type", ["image/jpg", "IMAGE/PNG", "image/webp", "image/gif"])
def test_accepted_image_types_and_aliases_are_written_as_held(writer, mime_type):
    history = _user(ImageContent(data=b"\x00\x01", mime_type=mime_type))
    part = _media_part(writer.to_payload(history, on_unsupported="error"))
    url = part["image_url"]["url"] if writer is openai_chat else part["image_url"]
    assert url == f"data:{mime_type};base64,AAE="


_ACCEPTED = ["image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp", "Image/PNG"]


@pytest.mark.parametrize("writer", WRITERS)
@given(mime_type=st.sampled_from(_ACCEPTED + REFUSED_IMAGE_TYPES + ["image/avif"]),
       data=st.binary(min_size=1, max_size=30))
def test_an_image_is_written_and_read_back_or_refused_by_its_type(writer, mime_type, data):
    history = _user(ImageContent(data=data, mime_type=mime_type))
    if mime_type in _ACCEPTED:
        payload = writer.to_payload(history, on_unsupported="error")
        assert writer.to_payload(writer.from_payload(payload)) == payload
        assert writer.from_payload(payload).messages[0].items[1].data == data
    else:
        with pytest.raises(UnsupportedContentError) as caught:
            writer.to_payload(history, on_unsupported="error")
        assert caught.value.path == "messages[0].items[1]"


# --- 3. Chat takes file data as PDF only ----------------------------------------------------


@pytest.mark.parametrize("mime_type", ["text/plain", "image/png", "audio/wav"])
def test_chat_refuses_file_data_that_is_not_pdf(mime_type):
    history = _user(FileContent(data=b"x", mime_type=mime_type, filename="a.bin"))
    with pytest.raises(UnsupportedContentError) as caught:
        openai_chat.to_payload(history, on_unsupported="error")
    assert str(caught.value) == (
        f"messages[0].items[1]: OpenAI Chat Completions cannot carry file content of type "
        f"{mime_type} as file data (PDF only) (pass on_unsupported='warn' to leave it out)")


def test_chat_leaves_out_non_pdf_file_data_with_a_warning_and_keeps_a_file_id():
    history = _user(FileContent(data=b"x", mime_type="text/plain"),
                    FileContent(file_id="file-9", filename="notes.txt"))
    with pytest.warns(ConversionWarning) as caught:
        payload = openai_chat.to_payload(history, on_unsupported="warn")
    assert payload[0]["content"] == [
        {"type": "text", "text": "look"},
        {"type": "file", "file": {"file_id": "file-9", "filename": "notes.txt"}}]
    assert [str(w.message) for w in caught] == [
        "messages[0].items[1]: dropped: OpenAI Chat Completions cannot carry file content of "
        "type text/plain as file data (PDF only)"]


@given(st.sampled_from(["application/pdf", "APPLICATION/PDF", "text/plain", "text/csv",
                        "image/png", "audio/wav", "application/json"]), st.binary(max_size=20))
def test_chat_writes_file_data_of_pdf_only_and_responses_of_any_type(mime_type, data):
    history = _user(FileContent(data=data, mime_type=mime_type, filename="f"))
    responses = openai_responses.to_payload(history, on_unsupported="error")
    assert _media_part(responses)["file_data"].startswith(f"data:{mime_type};")
    if mime_type.lower() == "application/pdf":
        chat = openai_chat.to_payload(history, on_unsupported="error")
        assert openai_chat.from_payload(chat).messages[0].items[1].data == data
    else:
        with pytest.raises(UnsupportedContentError):
            openai_chat.to_payload(history, on_unsupported="error")


# --- 4. bad base64 is located ---------------------------------------------------------------

_BAD = "invalid base64 at character 6: 6 base64 characters is not a multiple of 4 (missing '=' padding?)"


@pytest.mark.parametrize(("part", "where"), [
    ({"type": "input_audio", "input_audio": {"data": "UklGRg", "format": "wav"}},
     "input_audio.data"),
    ({"type": "file", "file": {"file_data": "UklGRg", "filename": "a.pdf"}}, "file.file_data"),
])
def test_chat_locates_bad_base64_in_audio_and_raw_file_data(part, where):
    messages = [{"role": "user", "content": "hi"}, {"role": "user", "content": [part]}]
    with pytest.raises(FormatError) as caught:
        openai_chat.from_payload(messages)
    assert str(caught.value) == f"messages[1].content[0].{where}: {_BAD}"
    problems = validate(messages, "openai-chat")
    assert [(p.path, p.message) for p in problems] == [(f"messages[1].content[0].{where}", _BAD)]


def test_responses_locates_bad_base64_in_audio():
    items = [{"role": "user", "content": [
        {"type": "input_audio", "input_audio": {"data": "UklGRg", "format": "wav"}}]}]
    with pytest.raises(FormatError) as caught:
        openai_responses.from_payload(items)
    assert str(caught.value) == f"input[0].content[0].input_audio.data: {_BAD}"


# --- 5. line breaks in a data URI's base64 are read as the constructor reads them ---------

WRAPPED = "data:image/png;base64," + PNG64[:20] + "\n" + PNG64[20:]


def test_the_readers_take_a_wrapped_data_uri_as_image_content_does():
    expected = ImageContent(uri=WRAPPED)
    chat = openai_chat.from_payload(
        [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": WRAPPED}}]}])
    responses = openai_responses.from_payload(
        [{"role": "user", "content": [{"type": "input_image", "image_url": WRAPPED,
                                       "detail": "auto"}]}])
    for history in (chat, responses):
        (item,) = history.messages[0].items
        assert (item.mime_type, item.data) == ("image/png", expected.data)
        assert item.data == base64.b64decode(PNG64)


def test_a_wrapped_file_data_uri_is_read_and_a_broken_one_still_located():
    wrapped = "data:application/pdf;base64," + PDF64[:8] + "\r\n" + PDF64[8:]
    read = openai_responses.from_payload([{"role": "user", "content": [
        {"type": "input_file", "file_data": wrapped, "filename": "a.pdf"}]}])
    assert read.messages[0].items[0].data == PDF
    with pytest.raises(FormatError) as caught:
        openai_chat.from_payload([{"role": "user", "content": [
            {"type": "file", "file": {"file_data": "data:application/pdf;base64,ab\ncd*",
                                      "filename": "a.pdf"}}]}])
    assert caught.value.path == "messages[0].content[0].file.file_data"


def test_anthropic_reads_what_chat_wrote_from_a_wrapped_uri():
    chat = openai_chat.from_payload(
        [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": WRAPPED}}]}])
    written = anthropic.to_payload(chat)["messages"][0]["content"][0]
    assert written == {"type": "image", "source": {
        "type": "base64", "media_type": "image/png", "data": PNG64}}
