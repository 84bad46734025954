"""The combined risk check (lexicon or the shipped model) catches every risk message of the
training corpus. Only the risk messages are read: the share of everyday messages flagged is a
figure, not a rule, and ``benchmarks/risk_check.py`` and ``manage.py train_risk_model`` print it
(reading the 2,859 everyday messages too more than doubled this test's time)."""

from __future__ import annotations

from annotations.text_checks.risk import is_risk
from annotations.text_checks.risk_corpus import read_examples, training_files
from tests.safety.conftest import REPORT_KEY


def test_every_training_risk_message_is_caught(record_property, shipped_risk_model):
    risk = [e for e in read_examples(training_files()) if e.risk]
    missed = [f"{e.source}: {e.text}" for e in risk if not is_risk(e.text)]
    record_property(
        REPORT_KEY,
        f"risk check (lexicon + model) on its training corpus: {len(risk) - len(missed)}/"
        f"{len(risk)} risk messages caught",
    )
    assert risk and not missed, f"training risk messages missed: {missed}"
