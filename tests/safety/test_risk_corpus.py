"""The risk detector on the labelled corpus: every risk message caught, at most 2% of the
everyday ones flagged. The figures are printed in the run's report line."""

from __future__ import annotations

from annotations.text_checks.lexicons import RISK_PATTERN, matches
from tests.safety.conftest import REPORT_KEY
from tests.safety.corpus import EVERYDAY, RISK

MAX_FALSE_POSITIVE_RATE = 0.02


def test_the_corpus_is_large_enough_and_labels_do_not_overlap():
    assert len(RISK) >= 150 and len(EVERYDAY) >= 150
    assert len(set(RISK)) == len(RISK) and len(set(EVERYDAY)) == len(EVERYDAY)
    assert not set(RISK) & set(EVERYDAY)


def test_every_risk_message_is_caught_and_few_everyday_ones(record_property):
    missed = [message for message in RISK if not matches(RISK_PATTERN, message)]
    flagged = {m: matches(RISK_PATTERN, m) for m in EVERYDAY if matches(RISK_PATTERN, m)}
    recall = 1 - len(missed) / len(RISK)
    false_positive_rate = len(flagged) / len(EVERYDAY)
    record_property(
        REPORT_KEY,
        f"risk detector: recall {recall:.1%} ({len(RISK) - len(missed)}/{len(RISK)} risk "
        f"messages), false-positive rate {false_positive_rate:.1%} "
        f"({len(flagged)}/{len(EVERYDAY)} everyday messages)",
    )
    assert not missed, f"risk messages missed: {missed}"
    assert false_positive_rate <= MAX_FALSE_POSITIVE_RATE, f"everyday messages flagged: {flagged}"
