"""The Spanish and German risk phrasings on the corpus they were written beside
(``train_v1.jsonl``, issue 44, item 3), measured as the English lexicon is: every risk message
caught, at most 2% of the everyday ones flagged, through ``risk.assess(text, language)`` (the
language's lexicon and the English phrases; the suite's models are the lexicon alone). The
corpora are hand-written, phone-typed, in nine risk categories; ``train_v2.jsonl`` and
``train_v3.jsonl`` were written for each language's learned model (indirect phrasings no lexicon
lists; near-misses from the words of risk), ``train_v4.jsonl`` likewise after held-out v2, and
``train_heldout_v1.jsonl`` to ``train_heldout_v8.jsonl`` are the retired held-out sets,
``train_v5.jsonl`` was written after held-out v3, ``train_v6.jsonl`` after held-out v5 and
``train_v7.jsonl`` after held-out v6, ``train_v8.jsonl`` after held-out v7 and ``train_v9.jsonl`` after held-out v8, so the phrasings are not measured on them. The English model never trains on them
(they live in a folder of their own)."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass

import pytest

from annotations.text_checks import risk
from annotations.text_checks.lexicons import has_risk_lexicon, risk_phrases
from annotations.text_checks.normalise import normalise
from annotations.text_checks.risk_corpus import (
    CORPUS_DIR,
    Example,
    language_folder,
    read_examples,
    training_files,
)
from tests.safety.conftest import REPORT_KEY

LANGUAGES = ("es", "de")
MAX_FALSE_POSITIVE_RATE = 0.02
RISK_CATEGORIES = (
    "wish_to_be_dead",
    "nonspecific_thoughts",
    "method",
    "intent",
    "plan",
    "preparatory",
    "self_harm",
    "hopelessness",
    "burden",
)
PER_RISK_CATEGORY = 15  # nine categories: 135 at least, and 150 in all
EVERYDAY_CATEGORIES = ("near_miss", "plain")


def _corpus(language: str) -> list[Example]:
    return read_examples(training_files(language_folder(language)))


def _key(text: str) -> str:
    """Case, spacing and punctuation do not make two messages different."""
    return re.sub(r"[\W_]+", "", text.casefold())


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_corpus_is_large_enough_in_every_category(language):
    examples = _corpus(language)
    risky = Counter(e.category for e in examples if e.risk)
    everyday = Counter(e.category for e in examples if not e.risk)
    assert set(risky) == set(RISK_CATEGORIES) and set(everyday) == set(EVERYDAY_CATEGORIES)
    assert min(risky.values()) >= PER_RISK_CATEGORY, risky
    assert sum(risky.values()) >= 150 and sum(everyday.values()) >= 150
    assert everyday["near_miss"] * 3 >= sum(everyday.values())  # a third are near-misses


RETIRED = "train_heldout_"  # a held-out set run once, then renamed into the training corpus


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_twice_nor_in_both_labels(language):
    """No message twice among the files written for training, nor within a retired held-out
    set. A retired set was written blind, so it may repeat a training line or a line of the
    other retired set by chance (v1: "solo soy una carga para todos", "ich kann nicht mehr vor
    lachen"; v2 four Spanish and two German risk lines), but never with the other label; it keeps the ``language`` key it was written with."""
    examples = _corpus(language)
    groups: dict[str, list[str]] = {}
    for e in examples:  # the written files together, each retired set on its own
        name = e.source.split(":")[0]
        groups.setdefault(name if name.startswith(RETIRED) else "", []).append(_key(e.text))
    for keys in groups.values():
        assert [k for k, n in Counter(keys).items() if n > 1] == []
    labels: dict[str, bool] = {}
    for e in examples:
        assert labels.setdefault(_key(e.text), e.risk) == e.risk, e.source
    for path in training_files(language_folder(language)):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if path.name.startswith(RETIRED):
                assert record.pop("language", language) == language  # v1 has it, v2 not
            assert set(record) == {"text", "label", "category"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_retired_heldout_set_is_training_text_now(language):
    """Held-out v1 to v8 were each run once (docs/benchmarks.md), then renamed
    ``train_heldout_v1.jsonl`` to ``train_heldout_v8.jsonl``: the model trains on them, and no
    held-out file of those versions is left to be run again."""
    folder = language_folder(language)
    for version in ("v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"):
        assert folder / f"train_heldout_{version}.jsonl" in training_files(folder)
        assert not (folder / f"heldout_{version}.jsonl").exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_risk_message_is_caught_and_few_everyday_ones(language, record_property):
    examples = read_examples([language_folder(language) / "train_v1.jsonl"])
    risky = [e for e in examples if e.risk]
    everyday = [e for e in examples if not e.risk]
    missed = [f"{e.category}: {e.text}" for e in risky if not risk.assess(e.text, language).risk]
    flagged = {
        e.text: risk_phrases(e.text, language) for e in everyday if risk.is_risk(e.text, language)
    }
    rate = len(flagged) / len(everyday)
    record_property(
        REPORT_KEY,
        f"risk check ({language}): recall {1 - len(missed) / len(risky):.1%} "
        f"({len(risky) - len(missed)}/{len(risky)} risk messages), false-positive rate "
        f"{rate:.1%} ({len(flagged)}/{len(everyday)} everyday messages)",
    )
    assert not missed, f"risk messages missed: {missed}"
    assert rate <= MAX_FALSE_POSITIVE_RATE, f"everyday messages flagged: {flagged}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_english_check_alone_misses_most_of_them(language):
    """The corpus measures the language's own phrasings: read as English (the bug of callers
    that passed no language), most of its risk messages go unseen."""
    risky = [e for e in _corpus(language) if e.risk]
    seen_as_english = [e for e in risky if risk.assess(e.text).risk]
    assert len(seen_as_english) < len(risky) / 4


@pytest.mark.parametrize(
    ("language", "typed", "normalised"),
    [
        ("es", "Me quiero MORÍR", "me quiero morir"),
        ("es", "q m quiero morir xq nadie", "que me quiero morir porque nadie"),
        ("es", "no kiero vivir tb", "no quiero vivir tambien"),
        ("es", "mañana sigo aquí", "manana sigo aqui"),
        ("de", "Ich möchte nicht mehr leben", "ich mochte nicht mehr leben"),
        ("de", "i mog nimmer", "ich mog nicht mehr"),
        ("de", "Weiß nich, ka", "weiss nicht, keine ahnung"),
        ("de", "STRAẞE", "strasse"),
    ],
)
def test_each_language_is_normalised_its_own_way(language, typed, normalised):
    assert normalise(typed, language) == normalised


@pytest.mark.parametrize(
    ("language", "spellings"),
    [
        ("es", ["Quiero morirme", "quiero morirme", "kiero morirme", "QUIERO MORIRME!!"]),
        ("de", ["ich möchte sterben", "ich moechte sterben", "ich mochte sterben"]),
        ("es-MX", ["ya no quiero vivir", "ya no quiero vivír"]),
    ],
)
def test_accents_umlauts_and_phone_spellings_do_not_hide_a_phrase(language, spellings):
    assert all(risk.is_risk(text, language) for text in spellings)


def test_english_phrases_are_read_in_every_language_and_a_model_in_its_own_language():
    assert risk_phrases("honestly i want to end it all", "es") == ["end it all"]
    assert risk_phrases("me quiero morir", "en") == []  # English reads English phrasings
    assert has_risk_lexicon("es-AR") and has_risk_lexicon("de") and not has_risk_lexicon("ar")
    for language in ("es", "de-AT"):  # each has a model (the suite's: the lexicon alone)
        assert risk.assess("me quiero morir", language).score is not None
    assert risk.assess("me quiero morir", "ar").score is None  # no model reads it


def test_the_english_model_trains_on_no_other_language():
    english = set(training_files(CORPUS_DIR))
    for language in LANGUAGES:
        own = set(training_files(language_folder(language)))
        assert own and not own & english


@dataclass(frozen=True)
class WrittenFile:
    """What a hand-written corpus file promised: its name, the least per risk category, the
    categories it was weighted to (with their least), its totals, and the files written blind
    after it that may repeat one of its lines by chance."""

    name: str
    per_category: int
    weighted: tuple[str, ...]
    per_weighted: int
    risk: int
    near_miss: int
    plain: int
    repeated_by: tuple[str, ...] = ()


WRITTEN_FILES = (
    # about 150 risk messages across the nine categories, 120 near-misses from the words of
    # risk (idioms, someone else's crisis, the news, medicine questions, goodbyes for a move)
    WrittenFile(
        "train_v3.jsonl",
        16,
        (),
        0,
        150,
        120,
        100,
        (
            "train_heldout_v2.jsonl",
            "train_heldout_v3.jsonl",
            "train_heldout_v4.jsonl",
            "train_heldout_v5.jsonl",
            "train_heldout_v6.jsonl",
            "train_heldout_v7.jsonl",
        ),
    ),
    # after held-out v2: weighted to the weakest categories; near-misses of jest idioms,
    # someone else's crisis, fiction and the news, pest poison, medicine doses
    WrittenFile(
        "train_v4.jsonl",
        6,
        ("plan", "preparatory", "self_harm", "method", "wish_to_be_dead"),
        18,
        120,
        100,
        60,
        (
            "train_heldout_v3.jsonl",
            "train_heldout_v4.jsonl",
            "train_heldout_v5.jsonl",
            "train_heldout_v6.jsonl",
            "train_heldout_v8.jsonl",
        ),
    ),
    # after held-out v3: weighted to what v3 missed; near-misses of v3's alarm kinds (a machine
    # and a laugh, someone else's jest or attempt, coursework, recovery stories, courses)
    WrittenFile(
        "train_v5.jsonl",
        6,
        ("plan", "method", "preparatory", "self_harm", "hopelessness"),
        18,
        120,
        75,
        50,
        ("train_heldout_v4.jsonl", "train_heldout_v5.jsonl", "train_heldout_v6.jsonl"),
    ),
    # after held-out v5: weighted to methods asked as plain questions, plans named by a place
    # and preparatory acts with a deadline (dialect across the categories); near-misses from
    # the same words (heights, cold medicine, timetables, pest poison, series, healed scars,
    # the news, dialect chat) and plain lines, many sad or lonely but coping
    WrittenFile(
        "train_v6.jsonl",
        7,
        ("method", "plan", "preparatory"),
        12,
        110,
        75,
        40,
        ("train_heldout_v6.jsonl",),
    ),
    # after held-out v6: weighted to what v6 missed (es: a goodbye thanking for months of
    # listening, a jump from a lookout on an anniversary, a farewell note being written, whether
    # a train kills; de: pill counts, dialect intent and burden, a resignation and a tidied flat,
    # scheduled last messages, heights asked plainly, a lighter, cuts covered or hidden from
    # mum, a dam at night); near-misses of v6's alarm kinds (a laugh after a game or a boss,
    # hunger and tiredness idioms, a worried relative's warning signs, sleeping pills with a
    # doctor, embarrassment in dialect, a friend's past recovered self-harm, nursing, pharmacy,
    # school and fiction, an ex's insult recalled) and the same words in everyday use
    WrittenFile(
        "train_v7.jsonl",
        8,
        ("intent", "plan", "preparatory", "method"),
        12,
        100,
        75,
        25,
        ("train_heldout_v7.jsonl", "train_heldout_v8.jsonl"),
    ),
    # after held-out v7: weighted to plans named by a place, a weapon or a time, methods asked
    # with named medicines, preparatory acts (papers, belongings, a rope hung) and self-harm
    # (covering marks, a blade, cuts without a doctor), Swiss and Bavarian forms, long messages
    # with the risk buried; near-misses of v7's alarm kinds (a laugh at boredom, heat or a
    # meeting, a talk or a class on self-harm, days free of smoking, a goal that "killed", a
    # colleague's farewell card) and the same words in everyday use (a holiday bridge, a roof
    # gutter, a hunt, a swing's rope, a hammock's knot, a pharmacy student's LD50)
    WrittenFile(
        "train_v8.jsonl",
        11,
        ("plan", "method", "preparatory", "self_harm"),
        22,
        150,
        110,
        40,
        ("train_heldout_v8.jsonl",),
    ),
    # after held-out v8: a third of the risk told in passing inside a long ordinary request (a
    # summary, a week's plan, a menu, a CV), slang ("sh", "unalive", a barcode, "kms"), envying
    # the dead, leaving this world, indirect goodbyes, medicines with alcohol; near-misses of
    # v8's alarm kinds (a game's boss, "me quiero matar" over a mishap with a laugh, a farewell
    # letter for someone moving abroad, the deadliest animal for a quiz, leaving Instagram, a
    # bridge and the metro) and long ordinary requests with no risk
    WrittenFile(
        "train_v9.jsonl",
        11,
        ("plan", "method", "preparatory", "self_harm"),
        20,
        150,
        120,
        25,
    ),
)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("written", WRITTEN_FILES, ids=lambda w: w.name)
def test_a_written_corpus_file_has_its_shape_and_nothing_of_the_others(language, written):
    folder = language_folder(language)
    records = [
        json.loads(line)
        for line in (folder / written.name).read_text(encoding="utf-8").splitlines()
    ]
    for record in records:
        assert set(record) == {"text", "label", "category"}
        assert record["text"] == record["text"].strip() and record["text"]
    risky = Counter(r["category"] for r in records if r["label"] == "risk")
    everyday = Counter(r["category"] for r in records if r["label"] == "everyday")
    assert set(risky) == set(RISK_CATEGORIES), risky
    assert min(risky.values()) >= written.per_category, risky
    assert all(risky[c] >= written.per_weighted for c in written.weighted), risky
    assert sum(risky.values()) >= written.risk
    assert set(everyday) == set(EVERYDAY_CATEGORIES)
    assert everyday["near_miss"] >= written.near_miss and everyday["plain"] >= written.plain
    keys = [_key(r["text"]) for r in records]
    assert len(keys) == len(set(keys))
    # Against every other training file but the written files after this one: each of those
    # checks itself against this one, so every pair is checked once.
    later = {w.name for w in WRITTEN_FILES[WRITTEN_FILES.index(written) :]}
    elsewhere = {
        _key(e.text)
        for path in training_files(folder)
        if path.name not in later and path.name not in written.repeated_by
        for e in read_examples([path])
    }
    assert not set(keys) & elsewhere
