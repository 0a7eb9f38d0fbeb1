"""Gemini writer: media types by their registered names, images and URIs Gemini takes only.

1. A media type was sent as spelled: ``image/jpg`` (a ``data:image/jpg`` URI), ``IMAGE/JPEG``,
   ``audio/x-wav``, ``audio/wav;rate=8000``; Gemini answers 400 ``Unsupported MIME type:
   image/jpg``. An image's or audio's type is now sent by its registered name (raw audio keeps
   its ``rate``; ``audio/mp3``, a name Gemini documents, stays); the item keeps its own.
2. Images of types Gemini does not take (``image/bmp``, ``image/svg+xml``, ``image/tiff``,
   ``image/gif``) were sent; they are refused under the loss policy, at their place.
3. Any URI was sent as ``file_data.file_uri`` (a relative path, ``file://``, ``ftp://``, an
   empty one); only http(s) URLs and ``gs://`` URIs are written, the others refused.
"""

from __future__ import annotations

import base64
import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantic_chat import (
    AudioContent,
    ChatHistory,
    ChatMessageContent,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
)
from semantic_chat.errors import UnsupportedContentError
from semantic_chat.formats import gemini
from semantic_chat.formats.gemini import writing
from semantic_chat.formats.gemini.shared import SENT_AS_SPELLED, sent_mime_type
from semantic_chat.formats.wire import ConversionWarning, collect_losses

_JPEG = base64.b64decode("/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDA==")
_JPEG_B64 = base64.b64encode(_JPEG).decode()
_DATA = b"\x00\x01\x02"
_DATA_B64 = "AAEC"
_LEAVE_OUT = "(pass on_unsupported='warn' to leave it out)"

# A type as given -> as Gemini must get it (None: refused, for an image).
_SENT: dict[str, str | None] = {
    "image/jpg": "image/jpeg",
    "IMAGE/JPEG": "image/jpeg",
    "image/jpeg": "image/jpeg",
    "image/png": "image/png",
    "Image/WebP": "image/webp",
    "image/heic": "image/heic",
    "image/heif": "image/heif",
    "image/png;name=a": "image/png",
    "image/bmp": None,
    "image/svg+xml": None,
    "image/tiff": None,
    "image/gif": None,
    "audio/x-wav": "audio/wav",
    "audio/wav;rate=8000": "audio/wav",
    "audio/wav": "audio/wav",
    "audio/mp3": "audio/mp3",
    "audio/mpeg3": "audio/mpeg",
    "AUDIO/OGG": "audio/ogg",
    "audio/pcm;rate=16000": "audio/pcm;rate=16000",
    "audio/L16;rate=8000": "audio/l16;rate=8000",
}
_REFUSED_IMAGE = "Gemini cannot carry image content of type {} (PNG, JPEG, WebP, HEIC or HEIF only)"
# A URI as given -> whether Gemini takes it.
_URIS: dict[str, bool] = {
    "https://example.com/a": True,
    "HTTP://example.com/a": True,
    "gs://bucket/a": True,
    "https://generativelanguage.googleapis.com/v1beta/files/abc123": True,
    "photo.png": False,
    "file:///home/me/photo.png": False,
    "ftp://x/a.png": False,
    "": False,
}


def _user(*items: Any) -> ChatHistory:
    history = ChatHistory()
    history.add_user_message(["x", *items])
    return history


def _media(item: Any) -> ImageContent | AudioContent:
    return ImageContent(**item) if item["mime_type"][:5].lower() == "image" else AudioContent(
        **item)


def _both(history: Any, **options: Any) -> list[dict[str, Any]]:
    """The user content's parts, from the quick writer; the general one must agree."""
    quick = gemini.to_payload(history, **options)
    general = writing._to_payload(history, options.get("on_unsupported"), writing._KEYS["snake"],
                                  False)
    assert quick == general
    parts: list[dict[str, Any]] = quick["contents"][0]["parts"]
    return parts


def _noted(history: Any, **options: Any) -> tuple[dict[str, Any], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = gemini.to_payload(history, **options)
    return payload, [str(note.message) for note in caught if note.category is ConversionWarning]


# --- 1. registered names --------------------------------------------------------------------


def test_a_data_uri_of_image_jpg_is_sent_as_image_jpeg():
    image = ImageContent.from_data_uri(f"data:image/jpg;base64,{_JPEG_B64}")
    assert _both(_user(image), on_unsupported="error") == [
        {"text": "x"}, {"inline_data": {"mime_type": "image/jpeg", "data": _JPEG_B64}}]
    assert image.mime_type == "image/jpg"  # the item keeps what it was given


@pytest.mark.parametrize(("given", "sent"), [
    ("IMAGE/JPEG", "image/jpeg"),
    ("audio/x-wav", "audio/wav"),
    ("audio/wav;rate=8000", "audio/wav"),
    ("audio/pcm;rate=16000", "audio/pcm;rate=16000"),  # raw audio: its rate is its format
    ("audio/mp3", "audio/mp3"),  # Gemini's own documented name
    ("audio/mpeg", "audio/mpeg"),
])
def test_an_image_or_clip_is_sent_by_its_registered_name(given, sent):
    item = _media({"data": _DATA, "mime_type": given})
    assert _both(_user(item), on_unsupported="error")[1] == {
        "inline_data": {"mime_type": sent, "data": _DATA_B64}}
    assert item.mime_type == given


def test_the_registered_name_is_written_by_uri_in_camel_case_and_in_a_result():
    call = FunctionCallContent(id="c1", name="snap", arguments={})
    result = FunctionResultContent(
        call_id="c1", result=[ImageContent(data=_DATA, mime_type="image/jpg")])
    history = ChatHistory([
        ChatMessageContent("user", items=[ImageContent(uri="gs://b/a", mime_type="IMAGE/JPG")]),
        ChatMessageContent("assistant", items=[call]),
        ChatMessageContent("tool", items=[result]),
    ])
    assert gemini.to_payload(history, on_unsupported="error", spelling="camel")["contents"] == [
        {"role": "user", "parts": [{"fileData": {"fileUri": "gs://b/a", "mimeType": "image/jpeg"}}]},
        {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "snap", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {
            "id": "c1", "name": "snap", "response": {},
            "parts": [{"inlineData": {"mimeType": "image/jpeg", "data": _DATA_B64}}]}}]},
    ]


def test_a_document_type_is_written_as_given():
    document = FileContent(data=b"hi", mime_type="text/plain;charset=utf-8")
    assert _both(_user(document), on_unsupported="error")[1] == {
        "inline_data": {"mime_type": "text/plain;charset=utf-8", "data": "aGk="}}


def test_a_payload_read_with_an_odd_spelling_is_written_with_the_name_then_stays():
    read = gemini.from_payload({"contents": [{"role": "user", "parts": [
        {"inline_data": {"mime_type": "IMAGE/PNG", "data": _DATA_B64}},
        {"file_data": {"file_uri": "gs://b/c", "mime_type": "audio/x-wav"}}]}]})
    once = gemini.to_payload(read, on_unsupported="error")
    assert once == {"contents": [{"role": "user", "parts": [
        {"inline_data": {"mime_type": "image/png", "data": _DATA_B64}},
        {"file_data": {"file_uri": "gs://b/c", "mime_type": "audio/wav"}}]}]}
    assert gemini.to_payload(gemini.from_payload(once)) == once


def test_the_quick_check_holds_only_types_sent_as_spelled():
    assert {sent_mime_type(each) for each in SENT_AS_SPELLED} == SENT_AS_SPELLED


# --- 2. image types Gemini does not take --------------------------------------------------


@pytest.mark.parametrize("mime_type", ["image/bmp", "image/svg+xml", "image/tiff", "image/gif"])
def test_an_image_of_a_type_gemini_does_not_take_is_refused_at_its_place(mime_type):
    with pytest.raises(UnsupportedContentError) as caught:
        gemini.to_payload(_user(ImageContent(data=_DATA, mime_type=mime_type)))
    assert str(caught.value) == (
        f"messages[0].items[1]: {_REFUSED_IMAGE.format(mime_type)} {_LEAVE_OUT}")


def test_a_refused_image_is_left_out_with_a_warning_when_asked():
    history = _user(ImageContent(data=_DATA, mime_type="Image/BMP"),
                    ImageContent(uri="https://x.test/a.gif"))
    payload, notes = _noted(history, on_unsupported="warn")
    assert payload == {"contents": [{"role": "user", "parts": [{"text": "x"}]}]}
    assert notes == [
        f"messages[0].items[1]: dropped: {_REFUSED_IMAGE.format('image/bmp')}",
        f"messages[0].items[2]: dropped: {_REFUSED_IMAGE.format('image/gif')}",
    ]


def test_a_file_holding_an_image_of_another_type_and_one_in_a_result_are_refused():
    result = FunctionResultContent(
        call_id="c1", name="snap", result=[ImageContent(data=_DATA, mime_type="image/tiff")])
    history = ChatHistory([ChatMessageContent("tool", items=[result])])
    with pytest.raises(UnsupportedContentError) as caught:
        gemini.to_payload(history)
    assert str(caught.value) == (
        f"messages[0].items[0].result[0]: {_REFUSED_IMAGE.format('image/tiff')} {_LEAVE_OUT}")
    with pytest.raises(UnsupportedContentError) as caught:
        gemini.to_payload(_user(FileContent(data=_DATA, mime_type="image/bmp")))
    assert str(caught.value) == (
        "messages[0].items[1]: Gemini cannot carry file content of type image/bmp "
        f"(PNG, JPEG, WebP, HEIC or HEIF only) {_LEAVE_OUT}")


# --- 3. URIs Gemini reaches -----------------------------------------------------------------


@pytest.mark.parametrize(("uri", "why"), [
    ("photo.png", "by a URI other than http(s) or gs://"),
    ("file:///home/me/photo.png", "by a URI other than http(s) or gs://"),
    ("ftp://x/a.png", "by a URI other than http(s) or gs://"),
    ("", "by an empty URI"),
])
def test_a_uri_gemini_cannot_reach_is_refused_at_its_place(uri, why):
    with pytest.raises(UnsupportedContentError) as caught:
        gemini.to_payload(_user(ImageContent(uri=uri)))
    assert str(caught.value) == (
        f"messages[0].items[1]: Gemini cannot carry image content {why} {_LEAVE_OUT}")
    payload, notes = _noted(_user(FileContent(uri=uri)), on_unsupported="warn")
    assert payload == {"contents": [{"role": "user", "parts": [{"text": "x"}]}]}
    assert notes == [f"messages[0].items[1]: dropped: Gemini cannot carry file content {why}"]


@pytest.mark.parametrize("uri", [uri for uri, taken in _URIS.items() if taken])
def test_http_s_and_gs_uris_are_written(uri):
    assert _both(_user(AudioContent(uri=uri, mime_type="audio/x-wav")),
                 on_unsupported="error")[1] == {
        "file_data": {"file_uri": uri, "mime_type": "audio/wav"}}


# --- properties -----------------------------------------------------------------------------


@st.composite
def _generated(draw: st.DrawFn) -> tuple[Any, str | None, str | None]:
    """An image or clip of a drawn type, by bytes or URI; what Gemini must get of it."""
    mime_type = draw(st.sampled_from(sorted(_SENT)))
    sent = _SENT[mime_type]
    if draw(st.booleans()):
        data = draw(st.binary(max_size=12))
        if draw(st.booleans()):
            item = _media({"data": data, "mime_type": mime_type})
        else:  # base64 text, as a reader makes it
            cls = ImageContent if mime_type[:5].lower() == "image" else AudioContent
            item = cls.from_base64(base64.b64encode(data).decode(), mime_type=mime_type)
        return item, sent, None
    uri = draw(st.sampled_from(sorted(_URIS)))
    item = _media({"uri": uri, "mime_type": mime_type})
    return item, (sent if _URIS[uri] else None), uri


@given(st.lists(_generated(), min_size=1, max_size=4), st.sampled_from(["snake", "camel"]))
def test_media_are_sent_by_name_or_refused_and_both_writers_agree(media, spelling):
    history = _user(*(item for item, _, _ in media))
    keys = writing._KEYS[spelling]
    with collect_losses() as general_lost:
        general = writing._to_payload(history, None, keys, False)
    with collect_losses() as quick_lost:
        quick = writing._to_payload(history, None, keys, True)
    assert (quick, quick_lost) == (general, general_lost)
    parts = general["contents"][0]["parts"][1:]
    kept = [(sent, uri) for _, sent, uri in media if sent is not None]
    assert [part.get(keys.inline_data, part.get(keys.file_data))[keys.mime_type]
            for part in parts] == [sent for sent, _ in kept]
    assert [part[keys.file_data][keys.file_uri] for part in parts if keys.file_data in part] == [
        uri for _, uri in kept if uri is not None]
    assert [where for where, _, _ in general_lost] == [
        f"messages[0].items[{index}]" for index, (_, sent, _) in enumerate(media, 1)
        if sent is None]
    # what was written is what Gemini takes: read back and written again, it stays
    assert gemini.to_payload(gemini.from_payload(general), spelling=spelling) == general
