"""U+2028 and U+2029 travel escaped in SSE data: JSON allows them raw (``ensure_ascii=False``,
orjson), but some event-stream parsers and JavaScript tools split lines on them, which would
cut a ``data:`` line in two. Escaped as ``\\u2028``/``\\u2029``, the JSON parses to the same
text (issue 36)."""

import json

import pytest

from annotations.participant_api.sse import delta_event, sse_event

TEXTS = ["\u2028", "a\u2029b", "line\u2028sep and para\u2029sep", "\u2028\u2029\u2028"]
RAW = ("\u2028".encode(), "\u2029".encode())


def _data(event: bytes) -> object:
    head, data_line, end = event.decode().split("\n", 2)
    assert head.startswith("event: ") and end == "\n"
    return json.loads(data_line.removeprefix("data: "))


@pytest.mark.parametrize("text", TEXTS)
def test_a_token_s_separators_are_escaped_and_parse_back_the_same(text):
    event = delta_event(text)
    assert not any(raw in event for raw in RAW)
    assert _data(event) == {"text": text}


@pytest.mark.parametrize("text", TEXTS)
def test_any_event_s_separators_are_escaped_and_parse_back_the_same(text):
    data = {"message": text, "nested": {"list": [text, "plain é"]}}
    event = sse_event("error", data)
    assert not any(raw in event for raw in RAW)
    assert _data(event) == data
