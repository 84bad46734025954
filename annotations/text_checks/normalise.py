"""Text normalisation before the word lists match: what a phone, a paste or a hurried typist
does to a phrase must not hide it.

Every language gets the same first steps (NFKC, straight quotes and hyphens, no invisible
characters, case folded, whitespace collapsed). Then its own: English spells out phone
contractions ("dont", "im"); Spanish and German drop accents and umlauts (a phone without the
layout types "morir" for "morír", "mochte" or "moechte" for "möchte": the German patterns accept
both, ``lexicons_de.py``) and spell out the chat abbreviations of each ("q", "xq", "tb"; "ka",
"bzw", "nich"), so the patterns are written once, for the spelled-out words.

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
# Spanish chat abbreviations and phone spellings (after accents are dropped): "q"/"k" for
# "que", "xq"/"pq" for "porque", "tb" for "tambien", "toy" for "estoy", "kiero" for "quiero".
_PHONE_SPELLINGS_ES = {
    "q": "que",
    "qe": "que",
    "k": "que",
    "ke": "que",
    "xq": "porque",
    "pq": "porque",
    "xk": "porque",
    "pk": "porque",
    "porq": "porque",
    "porke": "porque",
    "tb": "tambien",
    "tmb": "tambien",
    "tbn": "tambien",
    "toy": "estoy",
    "kiero": "quiero",
    "qiero": "quiero",
    "kero": "quiero",
    "kisiera": "quisiera",
    "qisiera": "quisiera",
    "nd": "nada",
    "nda": "nada",
    "ns": "no se",
    "d": "de",
    "x": "por",
    "bn": "bien",
    "mjr": "mejor",
    "vdd": "verdad",
    "xa": "para",
    "pa": "para",
    "m": "me",
    "t": "te",
    "aki": "aqui",
    "tqm": "te quiero mucho",
}
# German chat abbreviations and dialect spellings (after umlauts are dropped and "ß" folded
# to "ss"): "ka" for "keine ahnung", "nich"/"ned"/"net" for "nicht", "nimmer" for "nicht mehr".
_PHONE_SPELLINGS_DE = {
    "ka": "keine ahnung",
    "kp": "kein plan",
    "bzw": "beziehungsweise",
    "vllt": "vielleicht",
    "vlt": "vielleicht",
    "iwie": "irgendwie",
    "iwann": "irgendwann",
    "nich": "nicht",
    "nid": "nicht",
    "ned": "nicht",
    "net": "nicht",
    "nimmer": "nicht mehr",
    "nimma": "nicht mehr",
    "nix": "nichts",
    "i": "ich",
    "mi": "mich",
    "is": "ist",
    "hab": "habe",
    "grad": "gerade",
    "gibts": "gibt es",
    "wills": "will es",
    "bins": "bin es",
    "n": "ein",
    "nen": "einen",
    "nem": "einem",
    "ner": "einer",
    "mim": "mit dem",
    "weis": "weiss",
    "dat": "das",
    "wat": "was",
    "bissl": "bisschen",
    "bisl": "bisschen",
}


def _spelling(words: dict[str, str]) -> tuple[re.Pattern[str], dict[str, str]]:
    # Longest first: "porq" before "pq"; a word is only replaced whole ("\b").
    ordered = sorted(words, key=len, reverse=True)
    return re.compile(r"(?<!['\w])(?:" + "|".join(map(re.escape, ordered)) + r")(?!['\w])"), words


_SPELLING_WORD = re.compile(r"\b(?:" + "|".join(map(re.escape, _PHONE_SPELLINGS)) + r")\b")
_SPELLINGS = {"es": _spelling(_PHONE_SPELLINGS_ES), "de": _spelling(_PHONE_SPELLINGS_DE)}
_WHITESPACE = re.compile(r"\s+")


def primary_language(language: str) -> str:
    """The language's primary subtag: "es-MX" and "es_mx" are "es"; "" is English."""
    return (language or "en").replace("_", "-").split("-")[0].strip().lower() or "en"


def _without_marks(text: str) -> str:
    """Accents, tildes and umlauts dropped ("á" "ñ" "ü" to "a" "n" "u"), other letters kept."""
    decomposed = unicodedata.normalize("NFD", text)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", kept)


def normalise(text: str, language: str = "en") -> str:
    """NFKC, straight quotes and hyphens, no invisible characters, case folded, whitespace
    collapsed to single spaces; then the language's own steps: phone spellings spelled out
    (English), accents and umlauts dropped and chat abbreviations spelled out (Spanish,
    German). Any other language gets the common steps alone."""
    text = unicodedata.normalize("NFKC", text or "").translate(_TRANSLATION).casefold()
    text = _WHITESPACE.sub(" ", text).strip()
    primary = primary_language(language)
    if primary == "en":
        return _SPELLING_WORD.sub(lambda m: _PHONE_SPELLINGS[m.group(0)], text)
    if primary in _SPELLINGS:
        pattern, words = _SPELLINGS[primary]
        return pattern.sub(lambda m: words[m.group(0)], _without_marks(text))
    return text
