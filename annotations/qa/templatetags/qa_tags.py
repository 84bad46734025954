"""``{% qa_cell cell can_correct long %}``: one answer, its correction, and the pencil to correct it.

A tag in Python rather than an included template: the conversation page shows a few hundred
answers, and an include per answer was most of the page's rendering time.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.defaultfilters import linebreaksbr
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

from annotations.qa.detail import Cell

register = template.Library()


def _show(value: Any, long: bool) -> SafeString:
    text = "–" if value is None else str(value)
    return linebreaksbr(text, autoescape=True) if long else conditional_escape(text)


@register.simple_tag
def qa_cell(cell: Cell, can_correct: bool = False, long: bool = False) -> SafeString:
    if cell.correction is not None:
        inner = format_html(
            '<del title="The participant\'s answer">{}</del> <ins title="Corrected ({})">{}</ins>',
            _show(cell.value, long),
            cell.correction.get_reason_display(),
            _show(cell.correction.corrected_value, long),
        )
    else:
        inner = _show(cell.value, long)
    button = ""
    if can_correct:
        shown = "" if cell.shown is None else cell.shown
        button = format_html(
            '<button type="button" class="qa-correct" data-path="{0}" data-value="{1}" '
            'title="Correct: {0}" aria-label="Correct {0}">✎</button>',
            cell.path,
            shown,
        )
    corrected = " qa-corrected" if cell.correction is not None else ""
    return format_html('<span class="qa-cell{}">{}{}</span>', corrected, inner, button)
