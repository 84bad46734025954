"""Signals a release build sends, for code that must observe a build at a known point.

``build_chunk_written`` is sent after every chunk of conversations is in the build's temporary
folder and its progress (and lease) is recorded: the build is then under way, under its claim,
and a worker killed from here on leaves a build the sweep sends again. No receiver is connected
in production; the tests of a killed worker hold a build here, so the worker is killed
mid-build by construction rather than by timing (``tests/build_hold.py``, through files, so it
runs on SQLite too).
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent with sender=Release and keyword arguments ``release`` (the row, as claimed by this
# attempt) and ``done`` (the conversations written so far by this attempt).
build_chunk_written = Signal()
