"""The example conversation that ships with the package, built from code so it is reproducible.

It holds one of each common kind: a system prompt, a user's text with an image and an audio
clip (both made from numpy arrays), the model's reasoning and a tool call, the tool's result,
and the model's answer.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .contents import AudioContent, FunctionCallContent, ImageContent, ReasoningContent
from .history import ChatHistory
from .labels import FinishReason
from .usage import Usage

__all__ = ["example_history", "example_image", "example_tone"]


def example_image(width: int = 64, height: int = 48) -> NDArray[np.uint8]:
    """A small RGB gradient with a dark square in the middle, as a ``uint8`` (H, W, 3) array."""
    rows = np.linspace(0, 255, height, dtype=np.float64)[:, None]
    columns = np.linspace(0, 255, width, dtype=np.float64)[None, :]
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[..., 0] = columns.astype(np.uint8)
    image[..., 1] = rows.astype(np.uint8)
    image[..., 2] = ((rows + columns) / 2).astype(np.uint8)
    image[height // 3 : 2 * height // 3, width // 3 : 2 * width // 3] = 20
    return image


def example_tone(seconds: float = 0.5, sample_rate: int = 16_000) -> NDArray[np.float64]:
    """A 440 Hz sine at half volume, as float samples in [-1, 1]."""
    time = np.arange(int(seconds * sample_rate)) / sample_rate
    return 0.5 * np.sin(2 * np.pi * 440.0 * time)


def example_history() -> ChatHistory:
    """Build the bundled example conversation; the same objects every time."""
    history = ChatHistory(system_message="You are a helpful assistant that can read the weather.")
    history.add_user_message(
        [
            "What is in this picture, and what does the clip sound like? "
            "Also, what's the weather in Paris?",
            ImageContent.from_array(example_image(), detail="low"),
            AudioContent.from_array(example_tone(), 16_000),
        ],
        name="ada",
    )
    history.add_assistant_message(
        items=[
            ReasoningContent(
                "The image is a gradient with a dark square; the clip is a pure tone. "
                "I need the weather tool for Paris.",
            ),
            FunctionCallContent(
                "call_weather_1", "get_weather", '{"city": "Paris", "unit": "celsius"}'
            ),
        ],
        finish_reason=FinishReason.TOOL_CALLS,
        model_id="example-model",
        usage=Usage(412, 38, 450, cached_tokens=0, reasoning_tokens=21),
    )
    history.add_tool_message(
        {"city": "Paris", "temperature": 18.5, "unit": "celsius", "sky": "clear"},
        call_id="call_weather_1",
        name="get_weather",
    )
    history.add_assistant_message(
        "The picture is a colour gradient with a dark square in the middle, and the clip is "
        "a steady 440 Hz tone (the note A). In Paris it is 18.5 °C under a clear sky.",
        finish_reason=FinishReason.STOP,
        model_id="example-model",
        usage=Usage(470, 52, 522, cached_tokens=384),
    )
    return history
