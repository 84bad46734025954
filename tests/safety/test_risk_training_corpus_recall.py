"""The combined risk check (lexicon or the shipped model) catches every risk message of the
training corpus; the share of its everyday messages flagged is printed in the run's report."""

from __future__ import annotations

from annotations.text_checks.risk import is_risk
from annotations.text_checks.risk_corpus import read_examples, training_files
from tests.safety.conftest import REPORT_KEY


def test_every_training_risk_message_is_caught(record_property, shipped_risk_model):
    examples = read_examples(training_files())
    risk = [e for e in examples if e.risk]
    everyday = [e for e in examples if not e.risk]
    missed = [f"{e.source}: {e.text}" for e in risk if not is_risk(e.text)]
    flagged = [e for e in everyday if is_risk(e.text)]
    record_property(
        REPORT_KEY,
        f"risk check (lexicon + model) on its training corpus: {len(risk) - len(missed)}/"
        f"{len(risk)} risk messages caught, {len(flagged)}/{len(everyday)} everyday flagged",
    )
    assert risk and not missed, f"training risk messages missed: {missed}"
