"""The risk check of a test run: the lexicon alone, unless a test asks for a model.

Called by tests/settings.py: pytest-django loads the settings before any conftest, and Django's
start-up (an app's ``ready`` registering its sweep steps) may import the risk check, which
reads ATTUNE_RISK_ARTEFACT when it is imported.
"""

from __future__ import annotations


def use_lexicon_only_risk_artefact() -> None:
    """The suite's risk check is the lexicon alone, except where a test asks for a model.

    The shipped model's borderline band flags a share of ordinary messages by design (a
    reviewer glances at them), so a factory's filler text could raise a risk flag in a test of
    the QA queue or the chat schema, and retraining would change which. Tests of the risk check
    (tests/safety/) choose their model (``tiny_model``, ``shipped_risk_model``). Set in the
    environment before any model loads, so the servers and workers tests start read it too."""
    import json
    import os
    import tempfile
    from pathlib import Path

    if os.environ.get("ATTUNE_RISK_ARTEFACT"):
        return
    # Not imported from risk.py: importing it now would read the variable before it is set.
    packaged = Path(__file__).resolve().parent.parent / "annotations/text_checks/risk_model.json"
    artefact = json.loads(packaged.read_text(encoding="utf-8"))
    artefact["thresholds"] = {"flag": 1.0, "check_in": 1.0, "neighbour_similarity": 2.0}
    artefact["neighbours"] = []  # never a neighbour: nothing to embed at load
    handle, path = tempfile.mkstemp(prefix="attune-risk-lexicon-only-", suffix=".json")
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        json.dump(artefact, file)
    os.environ["ATTUNE_RISK_ARTEFACT"] = path
