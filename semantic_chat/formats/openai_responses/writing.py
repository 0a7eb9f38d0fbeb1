"""Writing histories as OpenAI Responses payloads."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...contents import (
    FileContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    ReasoningContent,
    RefusalContent,
    TextContent,
    UnknownContent,
)
from ...errors import FormatError
from ...message import ChatMessageContent
from ..openai_chat.shared import file_name
from ..wire import (
    OnUnsupported,
    arguments_text,
    compact_json,
    data_url,
    error_output,
    get_hints,
    image_type_refused,
    lost_history_keys,
    lost_metadata,
    lost_subclass_fields,
    policy,
    report_metadata,
    stored_items,
    unfetchable_uri,
    unsupported,
    unsupported_field,
)
from .citations import write_annotations
from .reading import reasoning_text_of
from .shared import (
    CHAT_HINTS,
    FORMAT,
    HINTS,
    OPAQUE_PROVIDER,
    ROLES,
    codecs,
    default_is_string,
)

__all__ = [
    "to_payload",
    "to_request",
]


def to_payload(
    history: Iterable[ChatMessageContent], *, on_unsupported: OnUnsupported | None = None
) -> list[dict[str, Any]]:
    """Write a history as a Responses ``input`` list.

    An assistant message becomes its items in order: consecutive text and refusal items as one
    ``message`` item, function calls as ``function_call`` items, reasoning as ``reasoning``
    items. Function results become ``function_call_output`` items, an error result's output
    starting with ``Error: ``. What the format cannot carry is refused or left out as
    ``on_unsupported`` says (by default: items refused; a message's ``name`` and metadata left
    out with a `ConversionWarning`); ids, usage, finish reasons and model ids, which input
    items never carry, are left out without a word.

    Raises:
        UnsupportedContentError: an item the format cannot carry (reasoning from another
            provider, audio output, a plugin type with no encoder ...), named by message and
            item index, unless ``on_unsupported`` is ``"warn"`` or ``"drop"``; with
            ``"error"``, also a field it cannot carry (``messages[1].name``).
        FormatError: a role the format does not have.
        InvalidValueError: ``on_unsupported`` is not one of its values.
    """
    on_unsupported = policy(on_unsupported)
    lost_history_keys(history, FORMAT, on_unsupported)
    payload: list[dict[str, Any]] = []
    custom_ids: set[str] = set()  # the call ids of custom calls: their results are custom too
    for index, message in enumerate(history):
        _Writer(message, f"messages[{index}]", payload, on_unsupported, custom_ids).write()
    return payload


def to_request(
    history: Iterable[ChatMessageContent], *, on_unsupported: OnUnsupported | None = None
) -> dict[str, Any]:
    """Write a history as the ``instructions`` and ``input`` of a ``responses.create`` call.

    A leading system message read from ``instructions`` goes back there; a history read from a
    string input is written as that string.
    """
    messages = list(history)
    request: dict[str, Any] = {}
    if messages and get_hints(messages[0], HINTS).get("instructions"):
        request["instructions"] = messages[0].text
        messages = messages[1:]
    if len(messages) == 1 and get_hints(messages[0], HINTS).get("string_input"):
        request["input"] = messages[0].text
    else:
        request["input"] = to_payload(messages, on_unsupported=on_unsupported)
    return request


class _Writer:
    """Writes one message as one or more input items."""

    def __init__(
        self,
        message: ChatMessageContent,
        path: str,
        payload: list[dict[str, Any]],
        on_unsupported: OnUnsupported | None,
        custom_ids: set[str],
    ) -> None:
        self.message = message
        self.custom_ids = custom_ids
        self.role = str(message.role)
        self.path = path
        self.payload = payload
        self.on_unsupported = on_unsupported
        self.run: list[tuple[int, KernelContent]] = []
        self.run_is_output = False

    def write(self) -> None:
        if self.role not in ROLES:
            raise FormatError(f"{FORMAT} has no role {self.role!r}", path=f"{self.path}.role")
        items = stored_items(self.message, self.path)
        self._report_fields(items)
        if not items:
            if self.role in ("system", "developer") and not get_hints(self.message, HINTS):
                return  # an instruction of nothing (Anthropic's "system": []) says nothing
            envelope = get_hints(self.message, HINTS).get("message", {})
            self._emit_message([], envelope)
            return
        for index, item in items:
            where = f"{self.path}.items[{index}]"
            if isinstance(item, (TextContent, RefusalContent)) or self._is_part(item):
                if self.role == "tool":
                    unsupported(self.on_unsupported, FORMAT, where, item, "in a tool message")
                    continue
                if get_hints(item, HINTS).get("message") is not None:
                    self._flush()
                self.run.append((index, item))
                continue
            # An item of its own ends the message before it; one left out does not, so the
            # parts around it stay one message.
            if isinstance(item, FunctionCallContent):
                if item.id is None:
                    unsupported(self.on_unsupported, FORMAT, where, item, "without a call id")
                else:
                    self._flush()
                    written = _write_call(item, where)
                    if written["type"] == "custom_tool_call":
                        self.custom_ids.add(item.id)
                    self.payload.append(written)
            elif isinstance(item, FunctionResultContent):
                if item.call_id is None:
                    unsupported(self.on_unsupported, FORMAT, where, item, "without a call id")
                else:
                    self._flush()
                    self.payload.append(self._write_result(item, where))
            elif isinstance(item, ReasoningContent):
                self._write_reasoning(item, where)
            elif isinstance(item, UnknownContent) and get_hints(item, HINTS).get("item"):
                self._flush()
                self.payload.append({"type": item.type, **item.fields})
            else:
                why = f"in {_a(self.role)} message"
                unsupported(self.on_unsupported, FORMAT, where, item, why)
        self._flush()

    def _report_fields(self, items: list[tuple[int, KernelContent]]) -> None:
        """Report the message's ``name``, a subclass's own fields, metadata no hints hold."""
        if self.message.name is not None:
            what = f"the name of {_a(self.role)} message"
            unsupported_field(self.on_unsupported, FORMAT, f"{self.path}.name", what)
        report_metadata(self.message, items, self.path, FORMAT, self.on_unsupported, codecs=codecs)

    def _is_part(self, item: KernelContent) -> bool:
        return isinstance(item, (ImageContent, FileContent)) or (
            codecs.encoder_for(item) is not None
        )

    def _flush(self) -> None:
        if not self.run:
            return
        run, self.run = self.run, []
        envelope = get_hints(run[0][1], HINTS).get("message", {})
        self.run_is_output = "id" in envelope.get("fields", {})
        parts = []
        output_run = self.run_is_output and self.role == "assistant"
        if (
            self.role == "assistant"
            and not output_run
            and not envelope.get("parts")
            and not any(codecs.encoder_for(item) is not None for _, item in run)
        ):  # a plugin's part decides its message's shape: as its encoder says
            self._flush_assistant(run, envelope)
            return
        for index, item in run:
            part = self._write_part(item, f"{self.path}.items[{index}]", output_run)
            if part is not None:
                parts.append(part)
        self._emit_message(parts, envelope)

    def _flush_assistant(
        self, run: list[tuple[int, KernelContent]], envelope: dict[str, Any]
    ) -> None:
        """An assistant's parts outside an output message item: a message of each text.

        The API takes only ``output_text`` and ``refusal`` parts from the assistant, and an
        input message (the SDK's ``EasyInputMessageParam``) only input parts, so a string
        content is what both accept: each text is a message of its own, which keeps it
        exact (Anthropic's writer joins them into one turn again). Images and files are
        refused there, as the API refuses them.
        """
        for index, item in run:
            where = f"{self.path}.items[{index}]"
            if isinstance(item, (ImageContent, FileContent)):
                why = "in an assistant message (the API takes text only from the assistant)"
                unsupported(self.on_unsupported, FORMAT, where, item, why)
                continue
            part = self._write_part(item, where)
            if part is not None:
                self._emit_message([part], envelope)
                envelope = {}  # what the message was read with goes on its first item

    def _emit_message(self, parts: list[dict[str, Any]], envelope: dict[str, Any]) -> None:
        written: dict[str, Any] = {"role": self.role}
        if default_is_string(parts) and not envelope.get("parts"):
            written["content"] = parts[0]["text"]
        else:
            written["content"] = parts
        written.update(envelope.get("fields", {}))
        self.payload.append(written)

    def _write_part(
        self, item: KernelContent, path: str, output_run: bool = False
    ) -> dict[str, Any] | None:
        """One content part; ``output_run``: inside an output message item (read with its id)."""
        hints = get_hints(item, HINTS)
        fields = hints.get("fields", {})
        part: dict[str, Any]
        encoded = codecs.encode(item, path)
        if encoded is not None:
            return encoded
        if isinstance(item, TextContent):
            part = self._write_text(item, path, hints, output_run)
            if item.citations and "annotations" in fields:  # set since read: they win
                fields = {key: value for key, value in fields.items() if key != "annotations"}
        elif isinstance(item, RefusalContent):
            if not self.run_is_output:
                unsupported(
                    self.on_unsupported, FORMAT, path, item,
                    "outside an output message item (one read with its id)",
                )
                return None
            part = {"type": "refusal", "refusal": item.text}
        elif isinstance(item, ImageContent):
            part = {"type": "input_image"}
            if item.file_id is not None:
                part["file_id"] = item.file_id
            else:
                why = image_type_refused(item)
                if why is not None:
                    unsupported(self.on_unsupported, FORMAT, path, item, why)
                    return None
                if item.uri is None:
                    part["image_url"] = data_url(item)
                elif self._fetchable(item, path):
                    part["image_url"] = item.uri
                else:
                    return None
            if not hints.get("no_detail"):
                # The API requires a detail; "auto" is what it assumes, so None means "auto".
                part["detail"] = item.detail if item.detail is not None else "auto"
        elif isinstance(item, FileContent):
            part = {"type": "input_file"}
            if item.file_id is not None:
                part["file_id"] = item.file_id
            elif item.uri is not None:
                if not self._fetchable(item, path):
                    return None
                part["file_url"] = item.uri
            else:
                part["file_data"] = data_url(item)
            # The API refuses file data without a filename: `file_name` makes one if need be.
            filename = file_name(item) if "file_data" in part else item.filename
            if filename is not None:
                part["filename"] = filename
        else:
            unsupported(self.on_unsupported, FORMAT, path, item, f"in {_a(self.role)} message")
            return None
        part.update(fields)
        return part

    def _fetchable(self, item: ImageContent | FileContent, path: str) -> bool:
        """Whether the API can fetch the item's URI; if not, the item is refused at ``path``.

        The API downloads ``image_url`` and ``file_url`` over http(s) only, as Anthropic's
        does: a ``gs://`` URI (Gemini's Cloud Storage) or a YouTube page (a web page, which
        Gemini alone reads as a video) is no file it can fetch.
        """
        why = unfetchable_uri(item.uri or "")
        if why is None:
            return True
        unsupported(self.on_unsupported, FORMAT, path, item, why)
        return False

    def _write_text(
        self, item: TextContent, path: str, hints: dict[str, Any], output_run: bool
    ) -> dict[str, Any]:
        """An ``output_text`` part with its citations as annotations, or an ``input_text``.

        Only ``output_text`` (in an output message item) has annotations: the citations of a
        text written as ``input_text`` are reported as a field loss.
        """
        citations = item.citations
        if not (hints.get("output") or output_run):
            if citations:
                what = (
                    "citations outside an output message item (one read with its id): "
                    "only output_text has annotations"
                )
                unsupported_field(self.on_unsupported, FORMAT, f"{path}.citations", what)
            return {"type": "input_text", "text": item.text}
        part: dict[str, Any] = {"type": "output_text", "text": item.text}
        if citations or not hints.get("no_annotations"):
            part["annotations"] = write_annotations(
                citations, item.text, path, self.on_unsupported
            )
        return part

    def _write_result(self, item: FunctionResultContent, path: str) -> dict[str, Any]:
        result = item.result
        output: str | list[dict[str, Any]]
        if isinstance(result, str):
            output = result
        elif isinstance(result, list) and result and all(
            isinstance(element, KernelContent) for element in result
        ):
            output = []
            for index, element in enumerate(result):
                where = f"{path}.result[{index}]"
                lost_metadata(element, where, FORMAT, self.on_unsupported)
                lost_subclass_fields(element, where, FORMAT, self.on_unsupported, codecs)
                part = self._write_part(element, where)
                if part is not None:
                    output.append(part)
        elif result is None:  # no output (an Anthropic result of no content), not "null"
            output = ""
        else:
            output = compact_json(result, f"{path}.result")
        if item.is_error:
            output = error_output(output, "input_text")
        custom = get_hints(item, HINTS).get("custom") or item.call_id in self.custom_ids
        written: dict[str, Any] = {
            "type": "custom_tool_call_output" if custom else "function_call_output",
            "call_id": item.call_id,
            "output": output,
        }
        written.update(get_hints(item, HINTS).get("fields", {}))
        return written

    def _write_reasoning(self, item: ReasoningContent, path: str) -> None:
        hints = get_hints(item, HINTS)
        fields = hints.get("fields", {})
        if item.provider not in (None, OPAQUE_PROVIDER):
            why = f"from {item.provider} (its opaque data is only valid there)"
            unsupported(self.on_unsupported, FORMAT, path, item, why)
            return
        if "id" not in fields:
            why = "without the id of an OpenAI reasoning item"
            unsupported(self.on_unsupported, FORMAT, path, item, why)
            return
        summary = hints.get("summary")
        if summary is None:
            summary = [{"type": "summary_text", "text": item.text}] if item.text else []
        written: dict[str, Any] = {"type": "reasoning", "summary": summary}
        if item.encrypted is not None:
            written["encrypted_content"] = item.encrypted
        written.update(fields)
        if hints.get("content") and reasoning_text_of(written) != item.text:
            # the text was the content's, and it changed since: the content is the text now
            written["content"] = [{"type": "reasoning_text", "text": item.text}]
        self._flush()
        self.payload.append(written)


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aio" else f"a {word}"


def _write_call(item: FunctionCallContent, path: str) -> dict[str, Any]:
    """A ``function_call`` item, or a ``custom_tool_call`` for a call marked custom.

    Both OpenAI readers mark a custom call; its arguments text is the tool's ``input``.
    """
    custom = bool(get_hints(item, CHAT_HINTS).get("custom"))
    written: dict[str, Any] = {
        "type": "custom_tool_call" if custom else "function_call",
        "call_id": item.id,
        "name": item.name,
        "input" if custom else "arguments": arguments_text(item, path),
    }
    written.update(get_hints(item, HINTS).get("fields", {}))
    return written
