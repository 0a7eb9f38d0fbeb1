"""Shared pytest set-up: hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` runs more examples and prints a reproduction blob on failure.
"""

import os

from hypothesis import settings

settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=200, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
