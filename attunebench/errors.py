"""The one base of the errors the AttuneBench format and engine raise on bad input.

A ``ValueError``, so the callers' ``except ValueError`` keeps catching each of them; a caller
that means "anything AttuneBench refused" catches ``AttuneBenchError``. Each subclass says
which input was wrong (a conversation file, an instrument, a profile, a schema'd answer, a
data folder, a leaderboard entry, an "other" text), most with the ``field`` it names.
(``asking.FatalModelError`` is no bad input but a model that cannot answer: not one of them.)
"""

from __future__ import annotations


class AttuneBenchError(ValueError):
    """Input that the AttuneBench format or engine refuses; the message says why."""
