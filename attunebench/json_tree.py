"""One walk over parsed JSON for what no database column takes and no honest input needs: a NUL
character or a lone surrogate in a value or a key, and nesting past a depth. Used by the file reader and by the
participant API, so both name the place the same way (``a.b[2].c``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

NUL = "\x00"
# JSON's "\ud83d" escape without its pair parses to a lone surrogate: a str no UTF-8 encoder
# accepts, so it would fail only when the database encodes it, after other rows were written.
_SURROGATE = re.compile("[\ud800-\udfff]")

# Where a value stands: None for the document itself, else (where its parent stands, its key
# or list index). Spelled out (``dotted_path``) only for the value with a problem: a document
# that passes, as nearly all do, formats no path for its hundreds of values.
Place = tuple["Place", str | int] | None


def json_tree_problem(data: Any, max_depth: int) -> tuple[str, str] | None:
    """The first (path, problem) found, or None. Iterative: a hostile document must not
    exhaust the interpreter's stack."""
    stack: list[tuple[Any, Place, int]] = [(data, None, 0)]
    while stack:
        value, place, depth = stack.pop()
        if depth > max_depth:
            return _spelled(place), f"nested more than {max_depth} levels deep"
        if isinstance(value, str):
            if problem := _text_problem(value):
                return _spelled(place), problem
        elif isinstance(value, dict):
            for key, item in value.items():
                name = str(key)
                if problem := _text_problem(name):
                    return _spelled(place), f"a key {problem}"
                stack.append((item, (place, name), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, (place, i), depth + 1) for i, item in enumerate(value))
    return None


def _text_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored, or None (phrased to follow "a key" or a path)."""
    if NUL in text:
        return "contains the NUL character (\\u0000), which is not allowed"
    if match := _SURROGATE.search(text):
        return f"contains a lone surrogate (\\u{ord(match.group()):04x}), which is not text"
    return None


def dotted_path(steps: Iterable[str | int]) -> str:
    """``a.b[2].c`` from the steps ``a``, ``b``, ``2``, ``c``, outermost first (an int is a
    list index, a str a key)."""
    path = ""
    for step in steps:
        if isinstance(step, int):
            path += f"[{step}]"
        elif path:
            path += f".{step}"
        else:
            path = step
    return path


def _spelled(place: Place) -> str:
    steps: list[str | int] = []
    while place is not None:
        place, step = place
        steps.append(step)
    return dotted_path(reversed(steps))
