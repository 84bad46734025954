"""One walk over parsed JSON for what no database column takes and no honest input needs: a NUL
character in a value or a key, and nesting past a depth. Used by the file reader and by the
participant API, so both name the place the same way (``a.b[2].c``)."""

from __future__ import annotations

from typing import Any

NUL = "\x00"


def json_tree_problem(data: Any, max_depth: int) -> tuple[str, str] | None:
    """The first (path, problem) found, or None. Iterative: a hostile document must not
    exhaust the interpreter's stack."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > max_depth:
            return where, f"nested more than {max_depth} levels deep"
        if isinstance(value, str):
            if NUL in value:
                return where, "contains the NUL character (\\u0000), which is not allowed"
        elif isinstance(value, dict):
            for key, item in value.items():
                if NUL in str(key):
                    return where, "a key contains the NUL character (\\u0000), which is not allowed"
                stack.append((item, f"{where}.{key}" if where else str(key), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))
    return None
