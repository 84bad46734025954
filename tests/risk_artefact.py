"""The risk check of a test run: the lexicon alone, unless a test asks for a model.

Called by tests/settings.py: pytest-django loads the settings before any conftest, and Django's
start-up (an app's ``ready`` registering its sweep steps) may import the risk check, which
reads ATTUNE_RISK_ARTEFACT (and ATTUNE_RISK_ARTEFACT_ES, _DE: each language's model) when it
is imported.
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

    # Not imported from risk.py: importing it now would read the variables before they are set.
    folder = Path(__file__).resolve().parent.parent / "annotations/text_checks"
    packaged = [folder / "risk_model.json", *sorted(folder.glob("risk_model.*.json"))]
    for path in packaged:
        # Every language's model (risk_model.es.json reads Spanish, ATTUNE_RISK_ARTEFACT_ES
        # names another): the lexicon alone in each, so no test loads the encoder unasked.
        language = path.name.split(".")[1] if path.name.count(".") == 2 else ""
        name = "ATTUNE_RISK_ARTEFACT" + (f"_{language.upper()}" if language else "")
        if os.environ.get(name):
            continue
        artefact = json.loads(path.read_text(encoding="utf-8"))
        artefact["thresholds"] = {"flag": 1.0, "check_in": 1.0, "neighbour_similarity": 2.0}
        artefact["neighbours"] = []  # never a neighbour: nothing to embed at load
        handle, written = tempfile.mkstemp(prefix="attune-risk-lexicon-only-", suffix=".json")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(artefact, file)
        os.environ[name] = written
