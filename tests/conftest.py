"""Shared pytest set-up: hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` runs more examples and prints a reproduction blob on failure.
"""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from semantic_chat import jsoncodec

settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=200, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _restore_json_backend() -> Iterator[None]:
    """Put back the JSON backend a test switched, so no test depends on another's choice."""
    saved = jsoncodec.BACKEND
    yield
    jsoncodec.use_backend(saved)
