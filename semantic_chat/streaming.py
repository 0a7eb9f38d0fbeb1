"""Streaming chunks and how they add up into one message.

A provider streams an answer as chunks; each `StreamingChatMessageContent` holds fragments:
`StreamingTextContent`, `StreamingRefusalContent`, `StreamingReasoningContent` (text and
signature fragments) and `StreamingFunctionCallContent` (``index``, ``id``, ``name`` and an
``arguments`` fragment). Chunks add with ``+`` and `StreamingChatMessageContent.accumulate`:

- chunks of different ``choice_index`` refuse to merge; a chunk without a role takes the
  other's role, and two different roles refuse to merge (`StreamMergeError`);
- adjacent text fragments join into one item, and so do refusal and reasoning fragments,
  unless both carry a block ``index`` and the indexes differ (Anthropic streams several text
  and thinking blocks, each its own item); a text fragment's citations add to its item's;
- tool-call fragments join by ``index`` first, then by ``id`` (an index given as ``"0"`` is
  ``0``); a fragment whose ``id`` differs from the id of the call its index points to starts
  a new call, which that index points to from then on (Ollama numbers every parallel call
  ``0``); a fragment with neither continues the last call; different calls stay apart, in
  the order they were first seen; ``arguments`` text fragments join, and a mapping is the
  call's arguments whole (a complete call as its provider parses it): it replaces the text
  so far, and text after it continues its JSON text;
- ``usage``, ``finish_reason``, ``id``, ``model_id`` and ``name``: the last value given wins
  (a stream parser that gets usage deltas sums them itself); ``metadata`` merges, later keys
  winning, but a format may register how its own key adds up (`register_metadata_merge`:
  OpenAI Chat's ``logprobs`` token lists join in order).

`StreamingChatMessageContent.accumulate` builds each item's text from a list of fragments
joined once, so merging n chunks costs O(total length); ``a + b`` copies both sides, so a long
``sum()`` is quadratic: use ``accumulate`` for whole streams.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

import attrs

from .contents import (
    Citation,
    FunctionCallContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
)
from .contents.metadata import peek_metadata
from .errors import SemanticChatError, StreamMergeError
from .labels import AuthorRole, ContentType
from .message import ChatMessageContent
from .validation import check_int

__all__ = [
    "StreamingChatMessageContent",
    "StreamingFunctionCallContent",
    "StreamingReasoningContent",
    "StreamingRefusalContent",
    "StreamingTextContent",
    "accumulate_choices",
    "parse_partial_json",
]


def _block_index(value: Any) -> int | None:
    """Check a fragment's block index (the field's converter, on building and on setting)."""
    return None if value is None else check_int(value, "index", "an int or None")


def _block_index_field() -> Any:
    """The ``index`` field of a text, refusal or reasoning fragment."""
    return attrs.field(default=None, alias="index", kw_only=True, converter=_block_index)


class _BlockIndexed:
    """The ``index`` property of the fragments that carry a content block index."""

    __slots__ = ()
    _index: int | None

    @property
    def index(self) -> int | None:
        """The content block this fragment belongs to, or ``None`` (one per message)."""
        return self._index

    @index.setter
    def index(self, value: int | None) -> None:
        setattr(self, "_index", value)  # noqa: B010 - the class's __setattr__ runs the converter


@attrs.define(slots=True, weakref_slot=False)
class StreamingTextContent(_BlockIndexed, TextContent):
    """A fragment of text (or of its citations) from a stream.

    ``index`` is the content block it belongs to, for providers that stream several text
    blocks (Anthropic): fragments of different blocks stay different items when merged.
    """

    content_type: ClassVar[ContentType] = ContentType.STREAMING_TEXT

    _index: int | None = _block_index_field()


@attrs.define(slots=True, weakref_slot=False)
class StreamingRefusalContent(_BlockIndexed, RefusalContent):
    """A fragment of a refusal from a stream; ``index`` as for `StreamingTextContent`."""

    content_type: ClassVar[ContentType] = ContentType.STREAMING_REFUSAL

    _index: int | None = _block_index_field()


@attrs.define(slots=True, weakref_slot=False)
class StreamingReasoningContent(_BlockIndexed, ReasoningContent):
    """A fragment of reasoning (text, or a piece of its signature) from a stream.

    ``index`` as for `StreamingTextContent`: Anthropic streams each thinking block apart.
    """

    content_type: ClassVar[ContentType] = ContentType.STREAMING_REASONING

    _index: int | None = _block_index_field()


@attrs.define(slots=True, weakref_slot=False)
class StreamingFunctionCallContent(FunctionCallContent):
    """A fragment of a function call: some of its name or arguments, with its index or id."""

    content_type: ClassVar[ContentType] = ContentType.STREAMING_FUNCTION_CALL

    def __attrs_post_init__(self) -> None:
        # Providers send the index as 0 or "0"; keep one spelling so fragments compare.
        object.__setattr__(self, "_index", _call_index(self._index))
        super().__attrs_post_init__()

    def partial_arguments(self) -> dict[str, Any]:
        """Parse the arguments received so far, as far as they go.

        ``'{"city": "Par'`` gives ``{"city": "Par"}``, so a UI can show arguments as they
        arrive. Incomplete keys and literals are left out; an empty dict when nothing parses.
        """
        arguments = self.arguments
        if arguments is None or not isinstance(arguments, str):
            return dict(arguments or {})
        parsed = parse_partial_json(arguments)
        return parsed if isinstance(parsed, dict) else {}


def _optional_role(value: AuthorRole | str | None) -> AuthorRole | None:
    if value is None or type(value) is AuthorRole:
        return value
    try:
        return AuthorRole(value)
    except SemanticChatError as error:  # named as the message's field, not the label class
        raise error.with_path("role") from None


def _fragment(text: str, path: str) -> StreamingTextContent:
    """A text fragment of a chunk, with a refusal located at ``path``."""
    try:
        return StreamingTextContent(text)
    except SemanticChatError as error:
        raise error.at(path) from None


@attrs.define(slots=True, weakref_slot=False, init=False, on_setattr=attrs.setters.NO_OP)
class StreamingChatMessageContent(ChatMessageContent):  # type: ignore[override]
    """One chunk of a streamed answer: fragments of one choice's message.

    A plain string given as ``content`` becomes a `StreamingTextContent` fragment.
    """

    message_type: ClassVar[str] = "streaming"

    _role: AuthorRole | None = attrs.field(  # type: ignore[assignment]
        alias="role", default=None, converter=_optional_role
    )

    _choice_index: int = attrs.field(alias="choice_index", default=0)

    def __init__(
        self,
        role: AuthorRole | str | None = None,
        content: Any = None,
        *,
        choice_index: int = 0,
        **fields: Any,
    ) -> None:
        # Plain strings in a chunk are text fragments, so that they join when chunks add.
        if isinstance(content, str):
            content = _fragment(content, "content")
        elif isinstance(content, (list, tuple)):
            content = [
                _fragment(c, f"content[{index}]") if isinstance(c, str) else c
                for index, c in enumerate(content)
            ]
        super().__init__(AuthorRole.ASSISTANT, content, **fields)
        self._role = _optional_role(role)
        self._choice_index = check_int(choice_index, "choice_index")

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        object.__setattr__(self, "_choice_index", check_int(self._choice_index, "choice_index"))

    @property
    def choice_index(self) -> int:
        """Which of the answer's choices this chunk belongs to."""
        return self._choice_index

    @choice_index.setter
    def choice_index(self, value: int) -> None:
        self._choice_index = check_int(value, "choice_index")

    @property  # type: ignore[override]
    def role(self) -> AuthorRole | None:
        """Who is writing; ``None`` in chunks after the first, which don't repeat it."""
        return self._role

    @role.setter
    def role(self, value: AuthorRole | str | None) -> None:
        self._role = _optional_role(value)


    def __add__(self, other: StreamingChatMessageContent) -> StreamingChatMessageContent:
        if not isinstance(other, StreamingChatMessageContent):
            return NotImplemented
        return _Accumulator(self).add(self).add(other).result()

    def __radd__(self, other: object) -> StreamingChatMessageContent:
        if other == 0:  # sum() starts from 0
            return self
        return NotImplemented

    @classmethod
    def accumulate(
        cls, chunks: Iterable[StreamingChatMessageContent]
    ) -> StreamingChatMessageContent:
        """Merge a whole stream of chunks into one, in time linear in the stream's length.

        Raises:
            StreamMergeError: chunks of different choices or roles; or no chunks at all.
        """
        accumulator: _Accumulator | None = None
        for chunk in chunks:
            if accumulator is None:
                accumulator = _Accumulator(chunk)
            accumulator.add(chunk)
        if accumulator is None:
            raise StreamMergeError("no chunks to accumulate")
        return accumulator.result()

    def to_message(self) -> ChatMessageContent:
        """Return the finished message, with each streaming item as its plain kind.

        A call's stream ``index`` is dropped: the order of the calls carries it.
        """
        return ChatMessageContent(
            self.role if self.role is not None else AuthorRole.ASSISTANT,
            items=[_plain(item) for item in self.items],
            name=self.name,
            id=self.id,
            finish_reason=self.finish_reason,
            usage=self.usage,
            model_id=self.model_id,
            metadata=self._metadata,
            inner_content=self.inner_content,
        )


_METADATA_MERGES: dict[str, Callable[[Any, Any], Any]] = {}


def register_metadata_merge(key: str, merge: Callable[[Any, Any], Any]) -> None:
    """Say how chunks' metadata under ``key`` (a format's own key) adds up, instead of replacing.

    ``merge(merged, value)`` gets what it returned for the chunks before (``None`` at first,
    so it may extend it in place: it must not change ``value``) and returns the new value.
    It must be associative, so that ``+`` and `StreamingChatMessageContent.accumulate` agree.
    """
    _METADATA_MERGES[key] = merge


_JOINED_FRAGMENTS = (StreamingTextContent, StreamingRefusalContent, StreamingReasoningContent)


class _Builder:
    """Gathers the fragments of one item; joined once at the end."""

    __slots__ = (
        "arguments", "citations", "encrypted", "id", "index", "item", "metadata", "name",
        "provider", "signature", "text", "whole",
    )

    def __init__(self, item: KernelContent) -> None:
        self.item = item
        self.text: list[str] = []
        self.citations: list[Citation] = []
        self.signature: list[str] = []
        self.name: list[str] = []
        self.arguments: list[str] = []
        self.whole: Mapping[str, Any] | None = None  # a call's arguments given as a mapping
        self.id: str | None = None
        self.index: int | None = None
        self.encrypted: str | None = None
        self.provider: str | None = getattr(item, "provider", None)  # reasoning's: first given
        self.metadata: dict[str, Any] = {}

    def build(self) -> KernelContent:
        item = self.item
        metadata = self.metadata or None
        if isinstance(item, StreamingFunctionCallContent):
            return StreamingFunctionCallContent(
                id=self.id,
                name="".join(self.name),
                arguments="".join(self.arguments) if self.whole is None else self.whole,
                index=self.index,
                metadata=metadata,
            )
        if isinstance(item, StreamingReasoningContent):
            signature = "".join(self.signature) if self.signature else None
            return StreamingReasoningContent(
                "".join(self.text),
                signature=signature,
                encrypted=self.encrypted,
                provider=self.provider,
                metadata=metadata,
                index=self.index,
            )
        if isinstance(item, RefusalContent):
            return StreamingRefusalContent("".join(self.text), metadata=metadata, index=self.index)
        return StreamingTextContent(
            "".join(self.text), citations=tuple(self.citations), metadata=metadata, index=self.index
        )


class _Accumulator:
    """Merges chunks of one choice into one chunk."""

    def __init__(self, first: StreamingChatMessageContent) -> None:
        self.choice_index = first.choice_index
        self.role: AuthorRole | None = None
        self.entries: list[_Builder | KernelContent] = []
        self.calls_by_index: dict[int, _Builder] = {}
        self.fragments_by_index: dict[tuple[type, int], _Builder] = {}
        self.calls_by_id: dict[str, _Builder] = {}
        self.last_call: _Builder | None = None
        self.fields: dict[str, Any] = {}
        self.metadata: dict[str, Any] = {}

    def add(self, chunk: StreamingChatMessageContent) -> _Accumulator:
        if chunk.choice_index != self.choice_index:
            raise StreamMergeError(
                f"cannot merge chunks of choices {self.choice_index} and {chunk.choice_index}",
                path="choice_index",
            )
        if chunk.role is not None:
            if self.role is not None and chunk.role != self.role:
                raise StreamMergeError(
                    f"cannot merge chunks with roles {self.role!s} and {chunk.role!s}", path="role"
                )
            self.role = chunk.role
        for item in chunk.items:
            self._add_item(item)
        for key in ("name", "id", "finish_reason", "usage", "model_id", "inner_content"):
            value = getattr(chunk, key)
            if value is not None:
                self.fields[key] = value
        metadata = peek_metadata(chunk)
        if metadata:
            self._merge_metadata(metadata)
        return self

    def _merge_metadata(self, metadata: Mapping[str, Any]) -> None:
        """Merge a chunk's metadata: later keys win, but a key with a registered merge merges."""
        for key, value in metadata.items():
            merge = _METADATA_MERGES.get(key)
            self.metadata[key] = value if merge is None else merge(self.metadata.get(key), value)

    def _add_item(self, item: KernelContent) -> None:
        if isinstance(item, StreamingFunctionCallContent):
            self._add_call(item)
            return
        if isinstance(item, _JOINED_FRAGMENTS):
            last = self.entries[-1] if self.entries else None
            index = item.index
            earlier = None if index is None else self.fragments_by_index.get((type(item), index))
            if earlier is not None:  # its block streamed before other items: it goes on
                last = earlier
            elif not (
                isinstance(last, _Builder)
                and type(last.item) is type(item)
                and (index is None or last.index is None or index == last.index)
            ):
                last = _Builder(item)
                self.entries.append(last)
            if index is not None and earlier is None:  # found by its index: registered so
                last.index = index
                self.fragments_by_index[type(item), index] = last
            last.text.append(item.text)
            if isinstance(item, StreamingTextContent) and item.citations:
                last.citations.extend(item.citations)
            if isinstance(item, StreamingReasoningContent):
                if item.signature is not None:
                    last.signature.append(item.signature)
                if item.encrypted is not None:
                    last.encrypted = item.encrypted
                if last.provider is None:  # a later fragment may name it (as the signature)
                    last.provider = item.provider
            last.metadata.update(peek_metadata(item))
            return
        self.entries.append(item)

    def _add_call(self, fragment: StreamingFunctionCallContent) -> None:
        index = _call_index(fragment.index)
        target = None
        if index is not None:
            target = self.calls_by_index.get(index)
            if target is not None and _other_call(target.id, fragment.id):
                target = None
        if target is None and fragment.id is not None:
            target = self.calls_by_id.get(fragment.id)
            if target is not None and index is not None and target.index not in (None, index):
                target = None
        if target is None and index is None and fragment.id is None:
            target = self.last_call
        started = target is None
        if target is None:
            target = _Builder(fragment)
            self.entries.append(target)
        if index is not None and (started or target.index is None):
            target.index = index
            self.calls_by_index[index] = target
        if fragment.id is not None and target.id is None:
            target.id = fragment.id
            self.calls_by_id[fragment.id] = target
        if fragment.name:
            target.name.append(fragment.name)
        _add_arguments(target, fragment.arguments)
        target.metadata.update(peek_metadata(fragment))
        self.last_call = target

    def result(self) -> StreamingChatMessageContent:
        items = [entry.build() if isinstance(entry, _Builder) else entry for entry in self.entries]
        merged = StreamingChatMessageContent(
            self.role, items=items, choice_index=self.choice_index, metadata=self.metadata
        )
        for key, value in self.fields.items():
            setattr(merged, key, value)
        return merged


def accumulate_choices(
    chunks: Iterable[StreamingChatMessageContent],
) -> list[StreamingChatMessageContent]:
    """Merge a stream that interleaves several choices: one merged chunk per choice, in order.

    Raises:
        StreamMergeError: two chunks of one choice have different roles.
    """
    accumulators: dict[int, _Accumulator] = {}
    for chunk in chunks:
        accumulator = accumulators.get(chunk.choice_index)
        if accumulator is None:
            accumulator = accumulators[chunk.choice_index] = _Accumulator(chunk)
        accumulator.add(chunk)
    return [accumulators[index].result() for index in sorted(accumulators)]


def _add_arguments(target: _Builder, arguments: str | Mapping[str, Any] | None) -> None:
    """Add a fragment's arguments to its call: text joins; a mapping is the arguments whole.

    A mapping replaces the text so far (a complete call, as its provider parses it); text
    after it continues its JSON text.
    """
    if isinstance(arguments, str):
        if arguments:
            if target.whole is not None:
                target.arguments.append(json.dumps(dict(target.whole)))
                target.whole = None
            target.arguments.append(arguments)
    elif arguments is not None:
        target.whole = arguments
        target.arguments.clear()


def _other_call(held: str | None, given: str | None) -> bool:
    """Whether a fragment's id names another call than the one its index points to.

    Ollama numbers every parallel call ``0``: its calls differ by id only. A call without an
    id yet takes the id given (OpenAI Responses names a call after its argument deltas).
    """
    return held is not None and given is not None and given != held


def _call_index(index: object) -> int | None:
    """Read a call's stream index; providers send ``0`` or ``"0"``."""
    if index is None:
        return None
    if (isinstance(index, int) and not isinstance(index, bool)) or (
        isinstance(index, str) and index.strip().isascii() and index.strip().isdigit()
    ):  # isdigit alone takes "²", which int() refuses
        return int(index)
    raise StreamMergeError(f"a tool call index must be a whole number, got {index!r}", path="index")


def _plain(item: KernelContent) -> KernelContent:
    if isinstance(item, StreamingFunctionCallContent):
        return FunctionCallContent(
            item.id, item.name, item.arguments, metadata=item._metadata,
            inner_content=item.inner_content,
        )
    if isinstance(item, StreamingReasoningContent):
        return ReasoningContent(
            item.text, signature=item.signature, encrypted=item.encrypted,
            provider=item.provider, metadata=item._metadata, inner_content=item.inner_content,
        )
    if isinstance(item, StreamingRefusalContent):
        return RefusalContent(item.text, metadata=item._metadata, inner_content=item.inner_content)
    if isinstance(item, StreamingTextContent):
        return TextContent(
            item.text, citations=item.citations, metadata=item._metadata,
            inner_content=item.inner_content,
        )
    return item


def parse_partial_json(text: str) -> Any:
    """Parse the longest prefix of a JSON text that can be completed, completing it.

    Open strings are closed and open objects and arrays are ended; a trailing partial key,
    number or literal is left out. Returns ``None`` when no prefix parses.
    """
    try:
        return json.loads(text)
    except ValueError:
        pass
    states = _scan_states(text)
    for cut in range(len(text), 0, -1):
        state = states[cut]
        if state is None:
            continue
        in_string, stack = state
        candidate = text[:cut] + ('"' if in_string else "") + "".join(
            "}" if opener == "{" else "]" for opener in reversed(stack)
        )
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    return None


def _scan_states(text: str) -> list[tuple[bool, str] | None]:
    """For each prefix length, whether it ends inside a string and which brackets are open.

    ``None`` marks a prefix that ends just after a backslash inside a string, which no
    closing quote can complete.
    """
    states: list[tuple[bool, str] | None] = [(False, "")]
    in_string = escaped = False
    stack = ""
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            stack += char
        elif char in "}]" and stack:
            stack = stack[:-1]
        states.append(None if escaped else (in_string, stack))
    return states

