"""The progress line: calls done of planned, cached and failed counts, calls per second, cost
so far and time left; redrawn in place on a terminal, plain lines otherwise."""

import io

from attunebench.executor import CallEvent
from attunebench.progress import ProgressBar, format_duration


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_line_shows_rate_cost_and_time_left():
    clock, stream = Clock(), Terminal()
    bar = ProgressBar(100, stream=stream, clock=clock)
    for index in range(40):
        clock.now = index * 0.05
        bar.on_call(CallEvent("m", cached=index < 10, ok=index != 5, cost_usd=0.01))
    clock.now = 2.0
    line = bar.line()
    assert "40/100 calls (10 cached) (1 failed)" in line
    assert "20.0/s" in line and "$0.4000" in line and "0:02 elapsed, 0:03 left" in line
    assert stream.getvalue().startswith("\r[")
    bar.close()
    assert stream.getvalue().endswith("\n")


def test_plain_lines_when_not_a_terminal_and_plans_grow_with_reasks():
    clock, stream = Clock(), io.StringIO()
    bar = ProgressBar(2, stream=stream, clock=clock, plain_interval_s=10)
    for _ in range(3):
        bar.on_call(CallEvent("m", cached=False, ok=True, cost_usd=0.0))
    bar.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and "\r" not in stream.getvalue()
    assert "3/3 calls" in lines[-1]
    assert format_duration(3725) == "1:02:05"
