"""KernelContent and the registry of content classes: built-ins, plugins, clashes, redefinitions."""

import re
from typing import ClassVar

import attrs
import pytest

from semantic_chat import (
    CONTENT_TYPES,
    AudioContent,
    BinaryContent,
    ChatMessageContent,
    ContentType,
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    RegistrationError,
    TextContent,
    UnknownContent,
)

BUILT_IN = {
    "text": TextContent,
    "refusal": RefusalContent,
    "binary": BinaryContent,
    "image": ImageContent,
    "audio": AudioContent,
    "file": FileContent,
    "function_call": FunctionCallContent,
    "function_result": FunctionResultContent,
    "reasoning": ReasoningContent,
    "unknown": UnknownContent,
}

PNG = b"\x89PNG\r\n\x1a\n" + bytes(16)


def _library_classes() -> dict[str, type]:
    # Streaming item classes (semantic_chat.streaming) register too once that module exists.
    return {
        str(label): cls
        for label, cls in CONTENT_TYPES.items()
        if cls.__module__.startswith("semantic_chat.")
        and not cls.__module__.startswith("semantic_chat.streaming")
    }


@pytest.fixture
def video_content():
    """A plugin content class, removed from the registry afterwards."""

    @attrs.define(slots=True, weakref_slot=False)
    class VideoContent(BinaryContent):
        content_type: ClassVar[ContentType] = ContentType("video")

        fps: float | None = None

    yield VideoContent
    CONTENT_TYPES.unregister("video")


@pytest.fixture
def scratch_label():
    """A label for classes made in a test; whatever claims it is unregistered afterwards."""
    yield "scratch"
    CONTENT_TYPES.unregister("scratch")


# --- the built-in kinds ---------------------------------------------------------------------


def test_every_built_in_kind_is_registered_under_its_label():
    assert _library_classes() == BUILT_IN


@pytest.mark.parametrize(("label", "cls"), BUILT_IN.items())
def test_content_type_class_attribute_is_the_registered_label(label, cls):
    assert type(cls.content_type) is ContentType
    assert cls.content_type == label
    assert CONTENT_TYPES[cls.content_type] is cls


@pytest.mark.parametrize(("label", "cls"), BUILT_IN.items())
def test_registry_lookup_ignores_case(label, cls):
    assert CONTENT_TYPES.get_class(label.upper()) is cls


def test_registry_lookup_of_unknown_label_is_none():
    assert CONTENT_TYPES.get_class("hologram") is None


def test_registry_getitem_of_unknown_label_raises_key_error():
    with pytest.raises(KeyError):
        CONTENT_TYPES["hologram"]


def test_base_class_is_not_registered():
    assert KernelContent not in CONTENT_TYPES.values()


def test_registry_repr_lists_labels_and_classes():
    text = repr(CONTENT_TYPES)
    assert text.startswith("TypeRegistry(content type: ")
    assert "text=TextContent" in text
    assert "function_call=FunctionCallContent" in text


# --- plugin classes -------------------------------------------------------------------------


def test_plugin_class_registers_at_creation(video_content):
    assert CONTENT_TYPES["video"] is video_content
    assert CONTENT_TYPES.get_class("VIDEO") is video_content


def test_plugin_label_given_as_str_becomes_content_type(scratch_label):
    @attrs.define
    class Scratch(KernelContent):
        content_type: ClassVar[ContentType] = "Scratch"  # type: ignore[assignment]

    assert type(Scratch.content_type) is ContentType
    assert Scratch.content_type.label == "scratch"
    assert CONTENT_TYPES["scratch"] is Scratch


def test_plugin_instance_has_base_and_own_fields(video_content):
    clip = video_content(uri="https://example.com/a.mp4", mime_type="video/mp4", fps=24.0)
    assert (clip.uri, clip.mime_type, clip.fps, clip.data) == (
        "https://example.com/a.mp4",
        "video/mp4",
        24.0,
        None,
    )
    assert isinstance(clip, BinaryContent)
    assert isinstance(clip, KernelContent)


def test_plugin_match_args_include_its_field(video_content):
    assert video_content.__match_args__ == ("data", "mime_type", "uri", "file_id", "fps")


def test_plugin_class_keeps_binary_rules(video_content):
    with pytest.raises(ValueError, match="needs exactly one of data, uri and file_id, got none"):
        video_content(fps=30.0)


def test_plugin_items_found_by_of_type_and_first(video_content):
    clip = video_content(file_id="file-1", fps=30.0)
    message = ChatMessageContent("user", ["look", clip, ImageContent(data=PNG)])
    assert message.items.of_type(video_content) == [clip]
    assert message.items.first(video_content) is clip
    assert message.items.of_type(BinaryContent) == [clip, ImageContent(data=PNG)]
    assert message.images == [ImageContent(data=PNG)]


def test_plugin_items_match_by_class_pattern(video_content):
    clip = video_content(file_id="file-1", fps=30.0)
    match clip:
        case ImageContent():
            found = "image"
        case video_content(fps=fps, file_id=file_id):
            found = f"video {file_id} at {fps}"
        case _:
            found = "other"
    assert found == "video file-1 at 30.0"


def test_plugin_items_match_positionally(video_content):
    clip = video_content(None, "video/mp4", "https://example.com/v", None, 25.0)
    match clip:
        case video_content(None, mime, uri, None, fps):
            found = (mime, uri, fps)
        case _:
            found = None
    assert found == ("video/mp4", "https://example.com/v", 25.0)


# --- clashes and redefinitions --------------------------------------------------------------


def test_second_class_claiming_a_taken_label_is_refused():
    with pytest.raises(RegistrationError) as excinfo:

        @attrs.define
        class Impostor(KernelContent):
            content_type: ClassVar[ContentType] = ContentType.TEXT

            text: str = ""

    message = str(excinfo.value)
    assert re.fullmatch(
        r".*Impostor: content type 'text' is already registered to "
        r"semantic_chat\.contents\.text\.TextContent; "
        r"test_content_base\..*Impostor must declare a label of its own",
        message,
    )
    assert excinfo.value.path.endswith("Impostor")


def test_registration_error_is_a_type_error():
    with pytest.raises(TypeError, match="already registered"):

        @attrs.define
        class Impostor(KernelContent):
            content_type: ClassVar[ContentType] = ContentType("IMAGE")


def test_refused_class_leaves_the_registry_unchanged():
    with pytest.raises(RegistrationError):

        @attrs.define
        class Impostor(KernelContent):
            content_type: ClassVar[ContentType] = ContentType.TEXT

    assert CONTENT_TYPES["text"] is TextContent


def test_clash_with_a_plugin_names_both_classes(video_content):
    with pytest.raises(RegistrationError, match=r"VideoContent; .*OtherVideo must declare"):

        @attrs.define
        class OtherVideo(BinaryContent):
            content_type: ClassVar[ContentType] = ContentType("video")


def test_subclass_without_its_own_content_type_is_refused():
    with pytest.raises(RegistrationError) as excinfo:

        @attrs.define
        class Photo(ImageContent):
            caption: str | None = None

    assert str(excinfo.value).endswith(
        "Photo must declare its own content_type "
        "(it would inherit ContentType('image') and be read back as its base class)"
    )
    assert CONTENT_TYPES["image"] is ImageContent


def test_direct_subclass_of_base_without_content_type_is_refused():
    with pytest.raises(RegistrationError, match="must declare its own content_type"):

        @attrs.define
        class Nothing(KernelContent):
            pass


def test_plain_subclass_without_attrs_is_not_registered():
    class Plain(TextContent):
        pass

    assert Plain not in CONTENT_TYPES.values()
    assert CONTENT_TYPES["text"] is TextContent


def _define_gadget(label):
    @attrs.define
    class Gadget(KernelContent):
        content_type: ClassVar[ContentType] = ContentType(label)

        size: int = 0

    return Gadget


def test_redefining_the_same_class_replaces_it(scratch_label):
    first = _define_gadget(scratch_label)
    second = _define_gadget(scratch_label)
    assert first is not second
    assert CONTENT_TYPES[scratch_label] is second


def test_redefinition_in_a_loop_replaces_it(scratch_label):
    defined = []
    for _ in range(3):

        @attrs.define
        class Cell(KernelContent):
            content_type: ClassVar[ContentType] = ContentType("scratch")

        defined.append(Cell)
    assert CONTENT_TYPES["scratch"] is defined[-1]
    assert len(set(defined)) == 3


def test_different_class_under_the_label_of_a_redefinable_one_is_refused(scratch_label):
    _define_gadget(scratch_label)
    with pytest.raises(RegistrationError, match=r"already registered to .*Gadget"):

        @attrs.define
        class Gizmo(KernelContent):
            content_type: ClassVar[ContentType] = ContentType("scratch")


# --- metadata and inner_content -------------------------------------------------------------


def test_metadata_defaults_to_a_new_empty_dict():
    first, second = TextContent("a"), TextContent("a")
    assert first.metadata == {}
    assert first.metadata is not second.metadata


def test_metadata_is_part_of_equality():
    assert TextContent("a", metadata={"k": 1}) != TextContent("a")
    assert TextContent("a", metadata={"k": 1}) == TextContent("a", metadata={"k": 1})


def test_metadata_is_in_repr():
    assert repr(TextContent("a", metadata={"k": 1})) == "TextContent(text='a', metadata={'k': 1})"


def test_inner_content_is_not_part_of_equality():
    assert TextContent("a", inner_content={"raw": 1}) == TextContent("a", inner_content=object())


def test_inner_content_is_not_in_repr():
    assert repr(TextContent("a", inner_content="RAW")) == "TextContent(text='a')"


def test_inner_content_is_kept():
    raw = object()
    assert TextContent("a", inner_content=raw).inner_content is raw


def test_metadata_and_inner_content_are_keyword_only():
    with pytest.raises(TypeError):
        TextContent("a", {"k": 1})  # type: ignore[misc]


def test_items_of_different_kinds_with_equal_fields_are_unequal():
    assert TextContent("no") != RefusalContent("no")
    assert ImageContent(uri="https://x/a") != BinaryContent(uri="https://x/a")


def test_items_are_not_hashable():
    with pytest.raises(TypeError):
        hash(TextContent("a"))


@pytest.mark.parametrize(
    ("cls", "match_args"),
    [
        (TextContent, ("text",)),
        (RefusalContent, ("text",)),
        (BinaryContent, ("data", "mime_type", "uri", "file_id")),
        (ImageContent, ("data", "mime_type", "uri", "file_id", "detail")),
        (AudioContent, ("data", "mime_type", "uri", "file_id")),
        (FileContent, ("data", "mime_type", "uri", "file_id", "filename")),
        (FunctionCallContent, ("id", "name", "arguments", "index")),
        (FunctionResultContent, ("call_id", "result", "name", "is_error")),
        (ReasoningContent, ("text", "signature", "encrypted", "provider")),
        (UnknownContent, ("type", "fields")),
    ],
)
def test_match_args(cls, match_args):
    assert cls.__match_args__ == match_args
