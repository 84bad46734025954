"""The admin's report page shows each axis with the decimals report.html uses (the composite
with 2, as the spec rounds it), so two composites report.html tells apart never look equal."""

from attunebench.report import formatting
from evaluation.report_files import _cell


def _record(axis: str, mean: float, low: float, high: float) -> dict[str, str]:
    return {f"{axis}_mean": str(mean), f"{axis}_ci_low": str(low), f"{axis}_ci_high": str(high)}


def test_composites_that_differ_at_two_decimals_differ_on_the_admin_page():
    first = _cell(_record("composite", 52.14, 51.02, 53.31), "composite")
    second = _cell(_record("composite", 52.06, 50.96, 53.20), "composite")
    assert (first, second) == ("52.14 [51.02, 53.31]", "52.06 [50.96, 53.20]")
    assert first == formatting.estimate("composite", 52.14, 51.02, 53.31)


def test_every_axis_uses_the_report_decimals():
    cell = _cell(_record("emotion_recognition", 0.61234, 0.5, 0.7), "emotion_recognition")
    assert (
        cell
        == formatting.estimate("emotion_recognition", 0.61234, 0.5, 0.7)
        == "0.612 [0.500, 0.700]"
    )
    assert _cell({}, "composite") == "–"
