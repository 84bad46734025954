"""Text normalisation before the word lists match: what a phone, a paste or a hurried typist
does to a phrase must not hide it.

Pure (no Django): the live chat check and the QA scan both call it through ``lexicons.matches``.
"""

from __future__ import annotations

import re
import unicodedata

# Apostrophes and quotes a phone keyboard or a word processor types instead of ASCII ones.
_APOSTROPHES = dict.fromkeys(
    map(ord, "\u2018\u2019\u201a\u201b\u2032\u00b4\u0060\u02bc\u02b9\uff07"), "'"
)
_QUOTES = dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"), '"')
# Hyphens and dashes NFKC leaves alone ("self‑harm" with a non-breaking hyphen).
_HYPHENS = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63"), "-")
# Invisible characters: zero-width space/joiners, word joiner, BOM, soft hyphen, LTR/RTL marks.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f\u180e"))
_TRANSLATION = {**_APOSTROPHES, **_QUOTES, **_HYPHENS, **_INVISIBLE}

# Contractions typed without the apostrophe, as phones leave them ("dont", "im", "cant").
# Only words that are not ordinary English words without it ("well", "were", "its", "id"
# and "wed" stay as typed).
_PHONE_SPELLINGS = {
    "im": "i'm",
    "ive": "i've",
    "youre": "you're",
    "theyd": "they'd",
    "theyre": "they're",
    "theres": "there's",
    "thats": "that's",
    "whats": "what's",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "cant": "can't",
    "cannot": "can't",
    "wont": "won't",
    "isnt": "isn't",
    "wasnt": "wasn't",
    "arent": "aren't",
    "werent": "weren't",
    "couldnt": "couldn't",
    "wouldnt": "wouldn't",
    "shouldnt": "shouldn't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "hadnt": "hadn't",
    "idk": "i don't know",
    "wanna": "want to",
    "wana": "want to",
    "gonna": "going to",
    "gotta": "got to",
    "u": "you",
    "ur": "your",
    "tho": "though",
    "coz": "because",
    "cuz": "because",
}
_SPELLING_WORD = re.compile(r"\b(?:" + "|".join(map(re.escape, _PHONE_SPELLINGS)) + r")\b")
_WHITESPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """NFKC, straight quotes and hyphens, no invisible characters, case folded, phone
    spellings spelled out, whitespace collapsed to single spaces."""
    text = unicodedata.normalize("NFKC", text or "").translate(_TRANSLATION).casefold()
    text = _WHITESPACE.sub(" ", text).strip()
    return _SPELLING_WORD.sub(lambda m: _PHONE_SPELLINGS[m.group(0)], text)
