"""The Spanish and German lexicon's cases, one data module per retuning round: ``STILL_RISK``
(phrasings that must fire) and ``EXCLUDED`` (everyday words that must not), per language. A new
round adds a module here and names it in ``ROUNDS``; the tests are in
``tests/safety/test_language_lexicon_cases.py``."""

from __future__ import annotations

from tests.safety.lexicon_cases import after_v2, after_v5, after_v6, after_v7, after_v8

ROUNDS = {
    "after held-out v2": after_v2,
    "after held-out v5": after_v5,
    "after held-out v6": after_v6,
    "after held-out v7": after_v7,
    "after held-out v8": after_v8,
}
