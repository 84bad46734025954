"""The platform's one risk check on a participant's message: the live chat
(``services/safety.py``: the lexicon, ``assess_phrases``, in the web process at once; the whole
check, ``assess``, in a worker where a model reads the language), the QA scan (``qa/flags/risk_signal.py``, which also scans imported
conversations) and the benchmark call it and nothing else, so they always agree.

Two signals, either fires:
* the lexicon of the message's language (``lexicons.risk_phrases``: English, Spanish and German
  phrasings, each over its own normalisation, and the English phrases in every language):
  precise and explainable, any hit is risk;
* a learned model: the message's all-MiniLM-L6-v2 sentence embedding (``risk_encoder.py``: ONNX
  Runtime, int8, the graph built at load from the installed package's weights) scored by an RBF
  support vector machine, plus a logistic regression over its words (TF-IDF of word unigrams and
  bigrams), both trained on ``risk_corpus/`` (``manage.py train_risk_model``), their sum
  calibrated to a probability. It reaches what no pattern lists: passive wishes, preparatory acts, indirect
  statements, self-harm in other words.

Each language a model reads has its artefact: ``risk_model.json`` for English,
``risk_model.<language>.json`` beside it for another (``risk_model.es.json``,
``risk_model.de.json``: the same MiniLM encoder and word model, trained on that language's
corpus, ``manage.py train_risk_model --language es``, the word model over the text normalised
for it, plus a third model over the same text's character n-grams within words, ``CharModel``,
whose weighted decision joins the sum, and a long message read whole and in windows of
sentences, ``Parts``); a message is read by the model of its participant's primary language ("es-MX" is
"es"). An artefact holds the classifier (scaler, float16 support vectors, their coefficients,
the word model's terms with their idf and coefficients, the two models' weights, the
calibration) and two thresholds (``risk_training.py`` says how they are
chosen). WordLlama's cheap static embedding (``risk_embedding.py``) finds the nearest training
risk message: the near-copy rule and the neighbour QA is shown. At or above ``flag``, or when the
message is a near copy of a training risk message, the model is sure; between ``check_in`` and
``flag`` it still fires (QA gets a flag, the reviewer looks: ``check_in`` is the level QA
sees) but the assessment is ``borderline``: the participant is not shown crisis resources on a guess, and the study's
contacts are not e-mailed (``TurnSignal.objects.risk()`` leaves borderline signals out).
Inference is ONNX Runtime and numpy (no scikit-learn, no PyTorch). An artefact whose thresholds no score
reaches (the test suite's lexicon-only one) never loads the encoder nor embeds a message. The model loads once per process, on first use or
at start (``warm``), behind a lock. Models read English, Spanish and German (each language's
figures, out of fold and held out, are in docs/benchmarks.md; in Spanish and German the model
alone is never sure, its artefact's ``flag`` out of reach: ``risk_training.BORDERLINE_ONLY``): a language without an artefact
keeps its lexicon (or, without one, the English phrases alone; a study's moderation model is
then its only other reader). Callers pass the participant's language (``language_in``).

Pure: no Django.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from annotations.text_checks.lexicons import risk_phrases
from annotations.text_checks.normalise import normalise, primary_language
from annotations.text_checks.risk_embedding import Embedder, load_embedder
from annotations.text_checks.risk_encoder import Encoder, load_encoder

_HERE = Path(__file__).resolve().parent
PACKAGED_ARTEFACT = _HERE / "risk_model.json"
ENVIRONMENT = "ATTUNE_RISK_ARTEFACT"


def packaged_artefact(language: str) -> Path:
    """Where the packaged artefact of ``language`` lives (English's ``risk_model.json``, any
    other's ``risk_model.<language>.json``), whether or not it exists."""
    primary = primary_language(language)
    return PACKAGED_ARTEFACT if primary == "en" else _HERE / f"risk_model.{primary}.json"


def environment_name(language: str) -> str:
    """The variable naming another artefact for ``language``: ATTUNE_RISK_ARTEFACT for English,
    ATTUNE_RISK_ARTEFACT_ES for Spanish, and so on."""
    primary = primary_language(language)
    return ENVIRONMENT if primary == "en" else f"{ENVIRONMENT}_{primary.upper()}"


def _other_artefacts() -> dict[str, Path]:
    """The artefacts of languages other than English, by primary language: the packaged ones,
    each replaced by the file its variable names (a variable may add a language too)."""
    found = {path.name.split(".")[1]: path for path in _HERE.glob("risk_model.*.json")}
    for name, value in os.environ.items():
        language = re.fullmatch(ENVIRONMENT + r"_([A-Z]{2,3})", name)
        if language and value.strip():
            found[language.group(1).lower()] = Path(value.strip())
    return found


# The artefacts the check reads: the packaged ones, unless ATTUNE_RISK_ARTEFACT (English) or
# ATTUNE_RISK_ARTEFACT_<LANGUAGE> names another (a lab's model trained on its own corpus; the
# test suite's lexicon-only ones). Read from the environment, not Django's settings: this module
# is pure, and the web and worker processes a deployment or a test starts inherit it.
ARTEFACT = Path(os.environ.get(ENVIRONMENT, "").strip() or PACKAGED_ARTEFACT)
ARTEFACTS: dict[str, Path] = _other_artefacts()
LEXICON, MODEL = "lexicon", "model"


@dataclass(frozen=True)
class RiskAssessment:
    risk: bool
    signal: str | None  # LEXICON (a phrase matched), MODEL (only the model fired) or None
    phrases: tuple[str, ...]  # the lexicon's matched phrases
    score: float | None  # the model's probability; None where no model reads the language
    borderline: bool  # fired by the model alone, below the flag threshold
    neighbour: str | None = None  # the nearest training risk message (when risk)
    category: str | None = None  # its category: a cheap guess at the kind of risk

    def evidence(self) -> dict[str, Any]:
        """What a signal or a QA flag records: the phrases, and what the model saw."""
        evidence: dict[str, Any] = {"phrases": list(self.phrases), "signal": self.signal}
        if self.score is not None:
            evidence.update(
                score=round(self.score, 3),
                borderline=self.borderline,
                neighbour=self.neighbour,
                category=self.category,
            )
        return evidence


@dataclass(frozen=True)
class Thresholds:
    flag: float
    check_in: float
    neighbour_similarity: float = 1.0  # a near copy of a training risk message is risk


@dataclass(frozen=True)
class Firing:
    score: float
    fired: bool
    sure: bool
    neighbour: str | None
    category: str | None


class WordModel:
    """The artefact's logistic regression over the TF-IDF of a message's word n-grams, computed
    as scikit-learn's ``TfidfVectorizer`` (sublinear term frequency, smoothed idf, unit length)
    and ``LogisticRegression.decision_function`` do; terms the training corpus never had count
    for nothing."""

    def __init__(self, spec: dict[str, Any], language: str = "en") -> None:
        self.language = language  # the normalisation the training read (its artefact's)
        self.pattern = re.compile(spec.get("token_pattern", ""))  # a word model's
        self.smallest, self.largest = (int(n) for n in spec["ngrams"])
        self.sublinear = bool(spec["sublinear_tf"])
        terms = spec["terms"].split("\t") if spec["terms"] else []
        idf = np.frombuffer(base64.b64decode(spec["idf"]), dtype=np.float32)
        coef = np.frombuffer(base64.b64decode(spec["coef"]), dtype=np.float32)
        if not len(terms) == idf.size == coef.size:
            raise ValueError("the word model's terms, idf and coefficients differ in number")
        self.terms: dict[str, tuple[float, float]] = {
            term: (float(i), float(c)) for term, i, c in zip(terms, idf, coef, strict=True)
        }
        self.intercept = float(spec["intercept"])
        self.weight = float(spec["weight"])

    def grams(self, text: str) -> list[str]:
        """The message's word n-grams, as the vectorizer reads them."""
        # The training's text_model_input: normalised, then lower-cased as str.lower does.
        tokens = self.pattern.findall(normalise(text, self.language).lower())
        return [
            " ".join(tokens[i : i + n])
            for n in range(self.smallest, self.largest + 1)
            for i in range(len(tokens) - n + 1)
        ]

    def decision(self, text: str) -> float:
        counts: dict[str, int] = {}
        for gram in self.grams(text):
            if gram in self.terms:
                counts[gram] = counts.get(gram, 0) + 1
        weighted, norm = 0.0, 0.0
        for gram, count in counts.items():
            idf, coef = self.terms[gram]
            value = (1.0 + math.log(count) if self.sublinear else float(count)) * idf
            weighted += value * coef
            norm += value * value
        return (weighted / math.sqrt(norm) if norm > 0 else 0.0) + self.intercept


class CharModel(WordModel):
    """The artefact's logistic regression over the TF-IDF of a message's character n-grams
    within words (scikit-learn's ``analyzer="char_wb"``: each word padded with a space, every
    n-gram of it from the smallest to the largest length, a word shorter than n counted once),
    over the same normalised, lower-cased text as the word model (Spanish and German)."""

    def grams(self, text: str) -> list[str]:
        grams: list[str] = []
        for word in normalise(text, self.language).lower().split():
            padded = f" {word} "
            for n in range(self.smallest, self.largest + 1):
                offset = 0
                grams.append(padded[offset : offset + n])
                while offset + n < len(padded):
                    offset += 1
                    grams.append(padded[offset : offset + n])
                if offset == 0:  # the padded word is shorter than n: counted once
                    break
        return grams


class Classifier:
    """The artefact's RBF support vector machine over the standardised MiniLM embedding, plus
    its word model (an artefact without one, format 2, has the machine alone), the weighted sum
    calibrated (Platt) to a probability."""

    def __init__(self, spec: dict[str, Any], language: str = "en") -> None:
        self.mean = np.asarray(spec["mean"], dtype=np.float32)
        self.scale = np.asarray(spec["scale"], dtype=np.float32)
        shape = tuple(spec["support_shape"])
        raw = base64.b64decode(spec["support_vectors"])
        self.support = np.frombuffer(raw, dtype=np.float16).reshape(shape).astype(np.float32)
        self.support_norms = (self.support**2).sum(axis=1)
        self.dual_coef = np.asarray(spec["dual_coef"], dtype=np.float32)
        self.gamma = float(spec["gamma"])
        self.intercept = float(spec["intercept"])
        self.weight = float(spec.get("weight", 1.0))
        self.words = WordModel(spec["text"], language) if spec.get("text") else None
        self.chars = CharModel(spec["chars"], language) if spec.get("chars") else None
        self.slope = float(spec["calibration"]["slope"])
        self.offset = float(spec["calibration"]["intercept"])
        self.parts = parts_of(spec.get("parts"))  # how a long message is read (None: whole)

    def score(self, vector: np.ndarray, text: str) -> float:
        return self.probability(self.decision(vector, text))

    def probability(self, combined: float) -> float:
        logit = self.slope * combined + self.offset
        return float(1.0 / (1.0 + np.exp(-logit)))

    def decision(self, vector: np.ndarray, text: str) -> float:
        """The models' weighted sum, before calibration."""
        x = (vector - self.mean) / self.scale
        distances = self.support_norms - 2.0 * (self.support @ x) + float(x @ x)
        decision = float(np.exp(-self.gamma * np.maximum(distances, 0.0)) @ self.dual_coef)
        combined = self.weight * (decision + self.intercept)
        if self.words is not None:
            combined += self.words.weight * self.words.decision(text)
        if self.chars is not None:
            combined += self.chars.weight * self.chars.decision(text)
        return combined


def thresholds_of(artefact: dict[str, Any]) -> Thresholds:
    given = artefact["thresholds"]
    return Thresholds(
        flag=float(given["flag"]),
        check_in=float(given["check_in"]),
        neighbour_similarity=float(given.get("neighbour_similarity", 1.0)),
    )


def _silent(thresholds: Thresholds) -> bool:
    # Scores lie strictly below 1 and cosines at most 1: such thresholds never fire.
    return thresholds.check_in >= 1.0 and thresholds.neighbour_similarity > 1


class RiskModel:
    """The artefact's classifier over the MiniLM embedding, and the training risk messages
    (embedded with WordLlama at load) for the near-copy rule and the neighbour QA sees."""

    def __init__(self, artefact: dict[str, Any], embedder: Embedder | None) -> None:
        self.language: str = artefact["language"]
        self.thresholds = thresholds_of(artefact)
        self.silent = _silent(self.thresholds)
        self._classifier = (
            None if self.silent else Classifier(artefact["classifier"], self.language)
        )
        self._encoder: Encoder | None = None if self.silent else load_encoder()
        self._embedder = embedder
        neighbours = artefact.get("neighbours", []) if embedder is not None else []
        self._neighbour_texts = [n["text"] for n in neighbours]
        self._neighbour_categories = [n["category"] for n in neighbours]
        self._neighbour_vectors = (
            embedder.embed(self._neighbour_texts) if embedder is not None else None
        )

    def score(self, text: str) -> float:
        """The classifier's probability that ``text`` is risk (0 for an empty message); for a
        long message, where the artefact reads one in parts, the highest of the whole's and
        each part's (``Parts``)."""
        if self._encoder is None or self._classifier is None or not normalise(text):
            return 0.0
        classifier, encoder, parts = self._classifier, self._encoder, self._classifier.parts
        combined = classifier.decision(encoder.embed_one(text), text)
        if parts is not None:
            for part in parts.of(text):
                part_decision = classifier.decision(encoder.embed_one(part), part) - parts.margin
                combined = max(combined, part_decision)
        return classifier.probability(combined)

    def nearest_to(self, text: str) -> tuple[float, str | None, str | None]:
        """The cosine similarity, text and category of the nearest training risk message
        (WordLlama's unit vectors)."""
        if self._embedder is None or not self._neighbour_texts:
            return 0.0, None, None
        return self.nearest(self._embedder.embed([text])[0])

    def nearest(self, vector: np.ndarray) -> tuple[float, str | None, str | None]:
        """The cosine similarity, text and category of the nearest training risk message
        (the embeddings are unit vectors)."""
        if not self._neighbour_texts or not vector.any():
            return 0.0, None, None
        similarities = self._neighbour_vectors @ vector
        best = int(np.argmax(similarities))
        return (
            float(similarities[best]),
            self._neighbour_texts[best],
            self._neighbour_categories[best],
        )

    def fires(self, text: str) -> Firing:
        """The score, whether the model fires (at the check-in threshold, or as a near copy of
        a training risk message), whether it is sure (at the flag threshold, or a copy), and
        the nearest training risk message (computed once: it decides the copy rule too)."""
        if self.silent:
            return Firing(0.0, False, False, None, None)
        score = self.score(text)
        similarity, neighbour, category = self.nearest_to(text)
        sure = similarity >= self.thresholds.neighbour_similarity or score >= self.thresholds.flag
        fired = sure or score >= self.thresholds.check_in
        return Firing(score, fired, sure, neighbour, category)


# A long message is read whole and part by part (Spanish and German: ``risk_training.PARTS``):
# risk told in one sentence of a long ordinary request is diluted in the whole message's score.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?;\u2026])\s+|\s*\n+\s*")


@dataclass(frozen=True)
class Parts:
    """How an artefact reads a long message (its classifier's ``parts``): a message of more than
    ``words`` words (or, if ``sentences`` is not 0, of at least that many sentences) is also
    scored sentence by sentence (each ``window`` consecutive sentences; a sentence longer than
    ``longest`` words in windows of that many words, overlapping by half), and its score is the
    highest of the whole's and the parts', each part's decision less ``margin`` (a part is a
    short text, read without the request around it: the margin keeps ordinary long requests
    where they were)."""

    words: int
    sentences: int = 0
    window: int = 1
    longest: int = 30
    margin: float = 0.0

    def of(self, text: str) -> list[str]:
        """The parts ``text`` is scored in besides the whole ([] for a short message)."""
        sentences = [s for s in (p.strip() for p in _SENTENCE_BREAK.split(text)) if s]
        many = self.sentences > 0 and len(sentences) >= self.sentences
        if len(text.split()) <= self.words and not many:
            return []
        parts: list[str] = []
        for start in range(max(len(sentences) - self.window + 1, 1)):
            tokens = " ".join(sentences[start : start + self.window]).split()
            if len(tokens) <= self.longest:
                parts.append(" ".join(tokens))
                continue
            step = max(self.longest // 2, 1)
            for first in range(0, len(tokens) - step, step):
                parts.append(" ".join(tokens[first : first + self.longest]))
        whole = " ".join(text.split())
        return [p for p in dict.fromkeys(parts) if p != whole and normalise(p)]

    def spec(self) -> dict[str, Any]:
        return {
            "words": self.words,
            "sentences": self.sentences,
            "window": self.window,
            "longest": self.longest,
            "margin": float(f"{self.margin:.7g}"),
        }


def parts_of(spec: dict[str, Any] | None) -> Parts | None:
    """An artefact's reading of long messages (None: the whole message alone, as English's)."""
    if not spec:
        return None
    counts = {key: int(value) for key, value in spec.items() if key != "margin"}
    return Parts(**counts, margin=float(spec.get("margin", 0.0)))


_lock = threading.Lock()
_models: dict[Path, RiskModel] = {}


def _once[T](cache: dict[Path, T], path: Path, build: Callable[[dict[str, Any]], T]) -> T:
    """``build(artefact)`` for the artefact at ``path``, once per process (thread-safe)."""
    value = cache.get(path)
    if value is None:
        with _lock:
            value = cache.get(path)
            if value is None:
                value = cache[path] = build(json.loads(path.read_text(encoding="utf-8")))
    return value


def load_model(path: Path | None = None) -> RiskModel:
    """The artefact's model (``ARTEFACT`` unless another is named), loaded once per process
    (thread-safe)."""
    return _once(_models, path or ARTEFACT, _build_model)


def _build_model(artefact: dict[str, Any]) -> RiskModel:
    embedder = load_embedder() if artefact.get("neighbours") else None
    return RiskModel(artefact, embedder)


def artefact_path(language: str) -> Path | None:
    """The artefact that reads ``language`` ("en", "es-MX"), or None where none does."""
    primary = primary_language(language)
    return ARTEFACT if primary == "en" else ARTEFACTS.get(primary)


def _artefact_paths() -> list[Path]:
    return list(dict.fromkeys([ARTEFACT, *ARTEFACTS.values()]))


def warm() -> None:
    """Load every language's model now (process start), so the first message each reads does
    not wait (they share one encoder)."""
    for path in _artefact_paths():
        load_model(path)


def warm_headers() -> None:
    """Read every artefact's header now (the web process's start): never a model."""
    for path in _artefact_paths():
        artefact_header(path)


@dataclass(frozen=True)
class ArtefactHeader:
    """What an artefact says without its model: the language it reads, and whether it can fire."""

    language: str
    silent: bool


_headers: dict[Path, ArtefactHeader] = {}


def artefact_header(path: Path | None = None) -> ArtefactHeader:
    """The artefact's header, read once per process (thread-safe) without loading the model:
    the web process asks only this (the model's read is a worker's), and so never holds the
    encoder's 235 MB."""
    return _once(
        _headers,
        path or ARTEFACT,
        lambda artefact: ArtefactHeader(artefact["language"], _silent(thresholds_of(artefact))),
    )


def has_model_for(language: str) -> bool:
    """Whether an artefact's model is for ``language`` ("en", "en-GB", "es-MX"), loading
    nothing: the language has an artefact, and the artefact says it reads that language."""
    path = artefact_path(language)
    return path is not None and artefact_header(path).language == primary_language(language)


def model_for(language: str) -> RiskModel | None:
    """The model reading ``language`` ("en", "en-GB", "es-MX"), or None (the lexicon alone); a
    language no artefact is for loads nothing."""
    path = artefact_path(language)
    return load_model(path) if path is not None and has_model_for(language) else None


def model_reads(language: str) -> bool:
    """Whether a learned model reads ``language`` and can fire (the test suite's lexicon-only
    artefacts never do): the live chat then owes each message a model read by a worker."""
    path = artefact_path(language)
    return has_model_for(language) and path is not None and not artefact_header(path).silent


def assess_phrases(text: str, language: str = "en") -> RiskAssessment:
    """The lexicon's part of ``assess`` alone (no model score): what the web process reads
    before the reply; the model's part is a worker's (``services/safety.py``)."""
    phrases = tuple(risk_phrases(text, language))
    signal = LEXICON if phrases else None
    return RiskAssessment(bool(phrases), signal, phrases, score=None, borderline=False)


def assess(text: str, language: str = "en") -> RiskAssessment:
    """What the check says about ``text`` written in ``language`` (the participant's: a
    Spanish message read as English would meet only the English phrases)."""
    model = model_for(language)
    if model is None:
        return assess_phrases(text, language)
    phrases = tuple(risk_phrases(text, language))
    firing = model.fires(text)
    borderline = not phrases and firing.fired and not firing.sure
    risk = bool(phrases) or firing.fired
    signal = LEXICON if phrases else MODEL if firing.fired else None
    neighbour, category = (firing.neighbour, firing.category) if risk else (None, None)
    return RiskAssessment(risk, signal, phrases, firing.score, borderline, neighbour, category)


def is_risk(text: str, language: str = "en") -> bool:
    if risk_phrases(text, language):
        return True  # the lexicon decides alone: no need for the model
    model = model_for(language)
    return model is not None and model.fires(text).fired
