"""Plain-text tables for the end-of-command summaries (no dependency, fixed-width columns)."""

from __future__ import annotations

from collections.abc import Sequence

Cell = str | int | float | None


def format_cell(value: Cell, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def format_table(headers: Sequence[str], rows: Sequence[Sequence[Cell]], digits: int = 3) -> str:
    """Left-aligned text columns, right-aligned numbers, a rule under the header."""
    cells = [[format_cell(value, digits) for value in row] for row in rows]
    numeric = [
        all(isinstance(row[index], int | float) or row[index] is None for row in rows)
        for index in range(len(headers))
    ]
    widths = [
        max([len(header), *(len(row[index]) for row in cells)])
        for index, header in enumerate(headers)
    ]

    def line(values: Sequence[str]) -> str:
        parts = [
            value.rjust(width) if is_number else value.ljust(width)
            for value, width, is_number in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in cells)])
