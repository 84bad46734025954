"""Parse-failure rates per model, mode and call type (format section 5: shown in every report,
so that a model's format failures are never read as failures of emotional intelligence)."""

from __future__ import annotations

from typing import cast

import pandas as pd

from attunebench.stats.contract import PARSE_PREFIX
from attunebench.stats.results import ParseFailureRate


def parse_failure_rates(frame: pd.DataFrame) -> tuple[ParseFailureRate, ...]:
    call_types = sorted(
        c[len(PARSE_PREFIX) : -len("_calls")]
        for c in frame.columns
        if c.startswith(PARSE_PREFIX) and c.endswith("_calls")
    )
    call_types = [c for c in call_types if f"{PARSE_PREFIX}{c}_failures" in frame.columns]
    if not call_types:
        return ()
    columns = [f"{PARSE_PREFIX}{c}_{kind}" for c in call_types for kind in ("calls", "failures")]
    totals = frame.groupby(["model", "mode"], sort=True)[columns].sum()
    rates = []
    for key, row in totals.iterrows():
        # A (model, mode) MultiIndex: every key is a pair (pandas types it as any Hashable).
        model, mode = cast(tuple[object, object], key)
        for call_type in call_types:
            calls = int(row[f"{PARSE_PREFIX}{call_type}_calls"])
            failures = int(row[f"{PARSE_PREFIX}{call_type}_failures"])
            rates.append(
                ParseFailureRate(
                    model=str(model),
                    mode=str(mode),
                    call_type=call_type,
                    calls=calls,
                    failures=failures,
                    rate=failures / calls if calls else None,
                )
            )
    return tuple(rates)
