"""The risk check (``risk.py``: the lexicon and a learned model), word lists and text
normalisation shared by the live chat's safety checks (``annotations/services/safety.py``) and
QA's flags (``annotations/qa/flags/``), so both always agree. Pure: no Django, no database."""
