"""A learned risk model per language (issue 44, item 3): Spanish and German have artefacts of
their own (``risk_model.es.json``, ``risk_model.de.json``), trained on their corpora, and a
message is read by the model of its participant's primary language; a language without an
artefact keeps its lexicon alone. The suite's default models are the lexicon alone in every
language (tests/risk_artefact.py): the tests that read a shipped model ask for it."""

from __future__ import annotations

import json

import pytest

from annotations.text_checks import risk
from annotations.text_checks.lexicons import risk_phrases
from annotations.text_checks.risk_corpus import (
    corpus_hash,
    file_hashes,
    language_folder,
    read_examples,
    training_files,
)
from annotations.text_checks.risk_encoder import DIMENSIONS as ENCODER_DIMENSIONS
from annotations.text_checks.risk_encoder import MAX_TOKENS, PACKAGE, encoder_version
from annotations.text_checks.risk_training import (
    CHAR_NGRAMS,
    CHAR_WEIGHTS,
    TEXT_C,
    _char_spec,
    _text_spec,
    text_model_input,
)
from tests.safety.word_models import fit_word_model

LANGUAGES = ("es", "de")
# Training risk messages no phrase of the language (nor English) lists: only the model reads
# them (the test checks that no phrase does). And everyday messages built from the same
# words, which the model must leave alone.
MODEL_ONLY = {
    "es": "ya le encontré casa nueva a mi perro, así no se queda solo cuando yo falte",
    "de": "hab für meinen kater ein neues zuhause gesucht, damit er versorgt ist wenn ich weg bin. "
    "für immer weg",
}
EVERYDAY = {
    "es": "me voy de vacaciones y le dejé el gato a mi vecina",
    "de": "ich fahr in urlaub und hab die katze der nachbarin gegeben",
}


def _artefact(language: str) -> dict:
    return json.loads(risk.packaged_artefact(language).read_text(encoding="utf-8"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_artefact_was_trained_on_the_languages_corpus_as_it_is(language):
    artefact = _artefact(language)
    files = training_files(language_folder(language))
    assert artefact["language"] == language
    assert artefact["corpus"]["files"] == file_hashes(files), (
        f"the {language} corpus changed since its model was trained: run "
        f"manage.py train_risk_model --language {language}"
    )
    assert artefact["corpus"]["sha256"] == corpus_hash(files)
    assert artefact["encoder"] == {
        "package": PACKAGE,
        "version": encoder_version(),
        "dimensions": ENCODER_DIMENSIONS,
        "max_tokens": MAX_TOKENS,
    }
    assert 0 <= artefact["thresholds"]["check_in"] <= artefact["thresholds"]["flag"] <= 1
    assert not [name for name in artefact["corpus"]["files"] if name.startswith("heldout_")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_model_catches_an_indirect_message_no_phrase_lists(language, shipped_risk_model):
    texts = {e.text: e for e in read_examples(training_files(language_folder(language)))}
    assert texts[MODEL_ONLY[language]].risk and not texts[EVERYDAY[language]].risk
    assert risk_phrases(MODEL_ONLY[language], language) == []

    caught = risk.assess(MODEL_ONLY[language], language)
    assert caught.risk and caught.signal == risk.MODEL and caught.score is not None
    assert risk.is_risk(MODEL_ONLY[language], language)

    everyday = risk.assess(EVERYDAY[language], language)
    assert not everyday.risk and everyday.score is not None
    assert not risk.is_risk(EVERYDAY[language], language)
    # Read as English, the same message meets the English model (not the language's).
    assert risk.model_for("en") is not risk.model_for(language)


# Messages in no training file and listed by no phrase, which the model fires on: with it alone
# firing, the check is borderline (risk_training.BORDERLINE_ONLY), never sure.
MODEL_ALONE = {
    "es": "no le veo sentido a seguir, de verdad",
    "de": "hab meine sachen verschenkt, ich brauch sie bald nicht mehr",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_model_alone_is_never_sure_in_the_language(language, shipped_risk_model):
    thresholds = risk.thresholds_of(_artefact(language))
    assert thresholds.check_in < 1.0 <= thresholds.flag  # no score reaches flag
    text = MODEL_ALONE[language]
    assert risk_phrases(text, language) == []
    assert text not in {e.text for e in read_examples(training_files(language_folder(language)))}
    firing = risk.model_for(language).fires(text)
    assert firing.fired and not firing.sure
    assessment = risk.assess(text, language)
    assert assessment.risk and assessment.borderline and assessment.signal == risk.MODEL


def test_a_regional_tag_reads_its_languages_model(shipped_risk_model):
    for tag, language in (("es-MX", "es"), ("es_AR", "es"), ("de-AT", "de"), ("de-CH", "de")):
        model = risk.model_for(tag)
        assert model is not None and model.language == language
        assert model is risk.model_for(language)  # loaded once
        assert risk.has_model_for(tag) and risk.model_reads(tag)


def test_a_language_without_an_artefact_keeps_its_lexicon_alone(shipped_risk_model):
    for language in ("fr", "ar", "pt-BR"):
        assert risk.model_for(language) is None and not risk.has_model_for(language)
        assert not risk.model_reads(language)
        alone = risk.assess("honestly i want to end it all", language)
        assert alone.risk and alone.score is None and alone.phrases == ("end it all",)


def test_the_suites_models_are_the_lexicon_alone_in_every_language():
    """tests/risk_artefact.py names a lexicon-only artefact for each packaged one, so no test
    loads the encoder unless it asks for a model."""
    for language in ("en", *LANGUAGES):
        path = risk.artefact_path(language)
        assert path is not None and path != risk.packaged_artefact(language)
        assert risk.has_model_for(language) and not risk.model_reads(language)
        assert risk.artefact_header(path).silent


def test_a_variable_names_another_languages_artefact(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTUNE_RISK_ARTEFACT_FR", str(tmp_path / "french.json"))
    monkeypatch.setenv("ATTUNE_RISK_ARTEFACT_DE", "  ")  # empty: the packaged one
    monkeypatch.delenv("ATTUNE_RISK_ARTEFACT_ES")  # the suite's (tests/risk_artefact.py)
    found = risk._other_artefacts()
    assert found["fr"] == tmp_path / "french.json"
    assert found["de"] == risk.packaged_artefact("de")
    assert found["es"] == risk.packaged_artefact("es")
    assert risk.environment_name("es-MX") == "ATTUNE_RISK_ARTEFACT_ES"
    assert risk.environment_name("en-GB") == "ATTUNE_RISK_ARTEFACT"


def test_the_word_model_reads_the_text_normalised_for_its_language():
    """Spanish chat spellings ("q", "kiero") and accents count as the words the training saw."""
    texts = ["ya no quiero seguir así", "quiero una pizza", "que ganas de playa", "me voy ya"]
    inputs = [text_model_input(t, "es") for t in texts]
    vectorizer, model = fit_word_model(inputs, [1, 0, 0, 1])
    words = risk.WordModel(_text_spec(vectorizer, model, weight=1.0), "es")
    typed = "Ya no KIERO seguir asi"
    expected = model.decision_function(vectorizer.transform([text_model_input(typed, "es")]))[0]
    assert words.decision(typed) == pytest.approx(expected, abs=1e-5)
    assert words.decision(typed) == pytest.approx(words.decision("ya no quiero seguir así"))
    # Read with English normalisation, "kiero" is a word the training never saw.
    english = risk.WordModel(_text_spec(vectorizer, model, weight=1.0))
    assert english.decision(typed) != pytest.approx(words.decision(typed))


def test_the_character_model_computes_what_scikit_learn_does():
    """risk.CharModel reads a message's character n-grams within words as the training's
    TfidfVectorizer(analyzer="char_wb") does: short words, repeated spaces, accents and chat
    spellings folded by the normalisation, n-grams the training never saw."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    texts = [
        "ya no quiero seguir así",
        "me quiero matar",
        "quiero una pizza",
        "que ganas de playa",
        "me muero de risa",
        "a ver si y o",
    ]
    inputs = [text_model_input(t, "es") for t in texts]
    vectorizer = TfidfVectorizer(
        analyzer="char_wb", ngram_range=CHAR_NGRAMS, sublinear_tf=True, lowercase=False
    )
    model = LogisticRegression(C=TEXT_C, max_iter=5000)
    model.fit(vectorizer.fit_transform(inputs), [1, 1, 0, 0, 0, 0])
    chars = risk.CharModel(_char_spec(vectorizer, model, weight=1.0), "es")
    for typed in ["Ya no KIERO seguir asi", "mataria  a   y   o", "x", "matarme ya", "zzz qqq"]:
        expected = model.decision_function(vectorizer.transform([text_model_input(typed, "es")]))
        assert chars.decision(typed) == pytest.approx(expected[0], abs=1e-5), typed


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_languages_artefact_reads_characters_as_well_as_words(language):
    classifier = _artefact(language)["classifier"]
    assert language in CHAR_WEIGHTS
    assert classifier["chars"]["kind"] == "tfidf_char_wb_logistic"
    assert classifier["chars"]["ngrams"] == list(CHAR_NGRAMS)
    assert (
        "chars" not in json.loads(risk.PACKAGED_ARTEFACT.read_text(encoding="utf-8"))["classifier"]
    )  # English reads words and MiniLM alone


def test_a_message_is_owed_a_workers_read_where_its_languages_model_can_fire(shipped_risk_model):
    from django.utils import timezone

    from annotations.services import safety

    now = timezone.now()
    for language in ("en", "es-MX", "de"):
        assert safety.model_read_due(language, now) is not None
    assert safety.model_read_due("fr", now) is None  # the lexicon alone decides, at once


def test_the_suites_lexicon_only_models_owe_no_read():
    from django.utils import timezone

    from annotations.services import safety

    assert safety.model_read_due("es", timezone.now()) is None


def test_the_web_process_reads_every_languages_header_and_no_model(shipped_risk_model, monkeypatch):
    def no_model(*args, **kwargs):
        raise AssertionError("the web process loaded a model")

    monkeypatch.setattr(risk, "load_model", no_model)
    monkeypatch.setattr(risk, "load_encoder", no_model)
    risk.warm_headers()
    for language in ("en", *LANGUAGES):
        path = risk.artefact_path(language)
        assert path is not None and risk.artefact_header(path).language == language
        assert risk.has_model_for(language) and risk.model_reads(language)
