"""Report line of the risk corpus: the figures a test records (``record_property``) are printed
at the end of the run. ``user_properties`` travel with the test report, so the line also
appears under pytest-xdist, where the test runs in a worker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPORT_KEY = "risk_detector_figures"
_lines: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        _lines.extend(value for key, value in report.user_properties if key == REPORT_KEY)


def pytest_terminal_summary(terminalreporter) -> None:
    for line in dict.fromkeys(_lines):
        terminalreporter.write_line(line)


# A tiny corpus for the learned check's tests: risk messages the lexicon misses (the model must
# learn them) and everyday ones built from the same words. Training on it takes well under a
# second, so tests train their own model instead of depending on the shipped one's thresholds.
TINY_RISK = (
    ("i'm so tired of existing", "wish_to_be_dead"),
    ("i hope i just don't wake up tomorrow morning", "wish_to_be_dead"),
    ("everyone would be happier if i wasn't around", "burden"),
    ("they'd all be better off if i vanished for good", "burden"),
    ("i wrote letters to my family to read after i'm gone", "preparatory"),
    ("i gave away my guitar and my cat because i won't need them", "preparatory"),
    ("i looked up how many of my tablets it would take", "method"),
    ("after friday nobody will have to deal with me again", "intent"),
    ("i burn my arm with a lighter to feel something", "self_harm"),
    ("nothing is ever going to get better for me, there's no way out", "hopelessness"),
    ("i just want everything to stop forever", "wish_to_be_dead"),
    ("i've picked the bridge and the night", "plan"),
)
TINY_EVERYDAY = (
    ("i'm so tired after this week", "near_miss"),
    ("i hope i wake up early tomorrow for the train", "near_miss"),
    ("everyone was happier once the rain stopped", "near_miss"),
    ("i wrote letters to my family from the holiday", "near_miss"),
    ("i gave away my old clothes to the charity shop", "near_miss"),
    ("i looked up how many ipads the shop had left", "near_miss"),
    ("after friday i'm away on holiday for a week", "near_miss"),
    ("i burnt the toast again this morning", "near_miss"),
    ("what should i cook for dinner tonight", "plain"),
    ("my sister got a new puppy and it's adorable", "plain"),
    ("the football match was great last night", "plain"),
    ("can you recommend a good book about history", "plain"),
)


def write_corpus(folder: Path, name: str = "train_tiny.jsonl") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    rows = [{"text": t, "label": "risk", "category": c} for t, c in TINY_RISK] + [
        {"text": t, "label": "everyday", "category": c} for t, c in TINY_EVERYDAY
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def tiny_artefact(tmp_path_factory) -> dict:
    """The artefact of a model trained on the tiny corpus (once per test session)."""
    from annotations.text_checks.risk_training import train

    return train([write_corpus(tmp_path_factory.mktemp("risk_corpus"))])


@pytest.fixture
def use_risk_artefact(tmp_path, monkeypatch):
    """``use_risk_artefact(artefact)``: the risk check reads this artefact for the test."""
    from annotations.text_checks import risk

    def use(artefact: dict) -> Path:
        path = tmp_path / f"risk_model_{len(list(tmp_path.glob('risk_model_*')))}.json"
        path.write_text(json.dumps(artefact), encoding="utf-8")
        monkeypatch.setattr(risk, "ARTEFACT", path)
        return path

    return use


@pytest.fixture
def tiny_model(tiny_artefact, use_risk_artefact) -> dict:
    """The risk check reads the tiny model for the test; returns its artefact."""
    use_risk_artefact(tiny_artefact)
    return tiny_artefact


@pytest.fixture
def shipped_risk_model(monkeypatch) -> None:
    """The risk check reads the packaged artefacts, English's, Spanish's and German's (the
    suite's default is the lexicon alone: tests/conftest.py)."""
    from annotations.text_checks import risk

    monkeypatch.setattr(risk, "ARTEFACT", risk.PACKAGED_ARTEFACT)
    packaged = {language: risk.packaged_artefact(language) for language in ("es", "de")}
    monkeypatch.setattr(risk, "ARTEFACTS", packaged)
