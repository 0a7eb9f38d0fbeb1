"""Google Gemini: ``contents`` and ``system_instruction``, requests, responses and streams."""
