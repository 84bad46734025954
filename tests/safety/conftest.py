"""Report line of the risk corpus: the figures a test records (``record_property``) are printed
at the end of the run. ``user_properties`` travel with the test report, so the line also
appears under pytest-xdist, where the test runs in a worker."""

from __future__ import annotations

import pytest

REPORT_KEY = "risk_detector_figures"
_lines: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        _lines.extend(value for key, value in report.user_properties if key == REPORT_KEY)


def pytest_terminal_summary(terminalreporter) -> None:
    for line in dict.fromkeys(_lines):
        terminalreporter.write_line(line)
