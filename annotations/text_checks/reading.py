"""Whose crisis a risk phrase is, read from the sentence and the message around it.

One reader for every language (``someone_elses``); each language gives its words as data (a
``Reading``: ``lexicons.py`` for English, ``lexicons_es.py`` and ``lexicons_de.py``). A pattern's
fixed-width lookbehinds see a word or two before a phrase; the reader sees the whole sentence:
the relative who is its subject ("my son", "mi prima", "meine beste freundin"), whether the
participant comes back in as "i" ("mi amiga se autolesiona y yo también"), someone else quoted
saying it ("mein bruder sagt immer kms"), and, where a language gives them, a topic anywhere in
the message (a nursing shift, a school lesson, a short story), a past told as over ("vor 3
jahren ..., heute gehts ihr super") and a laugh at a game or a boss ("el boss de dark souls me
mató 40 veces ... jaja").

English gives the sentence readings alone (its phrases carry their topics, recoveries and jests
beside them), so its behaviour is the one it had before the reader was shared. Pure: no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SENTENCE_END = r"[.!?;\n]"
_CLAUSE_END = r"[,.!?;\n]"


@dataclass(frozen=True)
class Reading:
    """A language's words for whose crisis a phrase is (patterns over its normalised text)."""

    # Someone else as the sentence's subject, matched from the sentence's start up to the
    # phrase: English asks for it first ("my son ...", "she ..."); a language with a freer word
    # order lets the pattern skip ahead to the last one ("heute kam ein patient nach ...").
    subject: re.Pattern[str]
    # The participant between that subject and the phrase: "my mum found MY notes".
    first_person: re.Pattern[str]
    # The phrases another person's act or state can fill: self-harm, suicide, an overdose,
    # goodbye notes; never a first-person phrase ("kill myself", "me quiero matar").
    theirs: re.Pattern[str]
    # The other person finds, knows or hides the participant's: "my kids will find the notes".
    finds_out: re.Pattern[str]
    # The participant speaking as "i" later in the clause: "... and i think about it too".
    speaks: re.Pattern[str]
    # A verb of speech ("says", "dice", "sagt") and what may stand between it and a quoted
    # phrase (``quoted``: to whom, then a quote mark) or a bare one (``bare``: for
    # ``bare_phrases``, "kms", with the language's "always", "siempre", "immer").
    speech: re.Pattern[str]
    quoted: re.Pattern[str]
    bare: re.Pattern[str]
    bare_phrases: re.Pattern[str]
    # Whole-message readings; None where the language's phrases carry them beside each one.
    # A topic anywhere in the message (a course, a story, a shift on the ward), for a phrase of
    # ``theirs`` with no first person in its clause.
    topic: re.Pattern[str] | None = None
    # A past told as over ("damals", "hace años" ... "heute gehts ihr super", "ya lo superé"),
    # unless it is back (``relapse``), for the phrases a past can hold (``recoverable``:
    # thoughts, self-harm, words once said to the participant; never a method or a plan).
    past: re.Pattern[str] | None = None
    over: re.Pattern[str] | None = None
    relapse: re.Pattern[str] | None = None
    recoverable: re.Pattern[str] | None = None
    # A laugh anywhere in the message and an everyday cause (a game, a boss, a machine, an
    # exam) in the phrase's own sentence, unless the participant says it is meant (``earnest``):
    # a boss named in another sentence does not make a plan said of oneself a joke.
    laugh: re.Pattern[str] | None = None
    trivial: re.Pattern[str] | None = None
    earnest: re.Pattern[str] | None = None
    # A talk, a lesson or an essay on it, named in the phrase's clause right before it ("una
    # charla sobre bullying y autolesiones", "ein referat über suizid"): a topic for a phrase of
    # ``theirs`` even when the participant gives the talk ("soy profe y tengo que dar ...").
    topic_before: re.Pattern[str] | None = None


def someone_elses(reading: Reading, text: str, start: int, end: int, phrase: str) -> bool:
    """Whether the risk phrase at ``start:end`` of the normalised ``text`` is not the
    participant's own crisis: someone else's, a topic, a past told as over, or a jest."""
    sentence = re.split(_SENTENCE_END, text[:start])[-1]
    rest = re.split(_CLAUSE_END, text[end:])[0]
    rest_is_mine = reading.speaks.search(rest) is not None
    subject = reading.subject.match(sentence)
    if subject is not None and _theirs_by_subject(
        reading, sentence[subject.end() :], phrase, rest_is_mine
    ):
        return True
    return (
        _a_topic(reading, text, start, phrase, rest)
        or _topic_before(reading, text, start, phrase)
        or _past_and_over(reading, text, phrase)
        or _in_jest(reading, text, start, end)
    )


def _theirs_by_subject(reading: Reading, between: str, phrase: str, rest_is_mine: bool) -> bool:
    # "my friend used to self harm", "mi prima se autolesiona": the other's act, with no "i",
    # "me" or "my" between the subject and the phrase, nothing the other finds or knows, and no
    # "i" later in the clause ("my cousin overdosed and i think about it too")
    if (
        reading.theirs.search(phrase)
        and not reading.first_person.search(between)
        and not reading.finds_out.search(between)
        and not rest_is_mine
    ):
        return True
    # The participant's own words unless quoted as another's: the verb of speech, then a quote
    # mark (or nothing, for "kms"), then the phrase; "my husband says i'm a burden" stays.
    for speech in reading.speech.finditer(between):
        before, after = between[: speech.start()], between[speech.end() :]
        if reading.first_person.search(before):
            return False
        if reading.quoted.fullmatch(after) or (
            reading.bare_phrases.fullmatch(phrase)
            and reading.bare.fullmatch(after)
            and not rest_is_mine
        ):
            return True
    return False


def _a_topic(reading: Reading, text: str, start: int, phrase: str, rest: str) -> bool:
    if reading.topic is None or not reading.theirs.search(phrase):
        return False
    # the phrase's own clause, up to a colon too ("für mein studium: warum ... überdosis")
    clause = re.split(r"[,.:!?;\n]", text[:start])[-1] + " " + re.split(r"[,.:!?;\n]", rest)[0]
    return bool(reading.topic.search(text)) and not reading.first_person.search(clause)


def _topic_before(reading: Reading, text: str, start: int, phrase: str) -> bool:
    if reading.topic_before is None or not reading.theirs.search(phrase):
        return False
    clause = re.split(r"[,.:!?;\n]", text[:start])[-1]
    return reading.topic_before.search(clause) is not None


def _past_and_over(reading: Reading, text: str, phrase: str) -> bool:
    if None in (reading.past, reading.over, reading.relapse, reading.recoverable):
        return False
    assert reading.past and reading.over and reading.relapse and reading.recoverable
    return bool(
        reading.recoverable.search(phrase)
        and reading.past.search(text)
        and reading.over.search(text)
        and not reading.relapse.search(text)
    )


def _in_jest(reading: Reading, text: str, start: int, end: int) -> bool:
    if reading.laugh is None or reading.trivial is None or reading.earnest is None:
        return False
    # the everyday cause in the phrase's own sentence: "si el wifi se cae otra vez me tiro del
    # balcon jaja", not "esta noche me tomo todo. el jefe ni se va a enterar jaja"
    sentence = re.split(_SENTENCE_END, text[:start])[-1] + text[start:end]
    sentence += re.split(_SENTENCE_END, text[end:])[0]
    return bool(
        reading.laugh.search(text)
        and reading.trivial.search(sentence)
        and not reading.earnest.search(text)
    )
