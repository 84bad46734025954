"""The ``delta`` event built by ``delta_event`` (orjson, sent for every token) is byte for byte
the event the stream's definition builds (``DELTA.encode``: the data serializer and
``json.dumps``), whatever the text holds."""

import random

import pytest

from annotations.participant_api.sse import delta_event
from annotations.participant_api.stream_events import DELTA
from attune_collect.llm import TokenDelta

TRICKY = [
    "",
    " word",
    'a "quote"',
    "back\\slash",
    "line\nbreak\r\ttab",
    "\x00\x01\x1f\x7f",
    "é中文",
    "\u2028\u2029",
    "\U0001f600 emoji",
    "\ufeffbom",
    "</script>",
    "&<>'",
]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_texts(text):
    assert delta_event(text) == DELTA.encode(TokenDelta(text))


def test_random_texts():
    rng = random.Random(16)
    alphabet = [chr(code) for code in range(0x300)] + ["\u2028", "\U0001f600", "中"]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert delta_event(text) == DELTA.encode(TokenDelta(text))
