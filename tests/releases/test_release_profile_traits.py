"""Releases carry the profile questionnaire's answers as option ids: in each conversation
file's ``participant_profile`` and in the participants table (traits and profile answers)."""

import json
from pathlib import Path

import pandas as pd
import pytest

from attunebench.instrument import default_instrument
from attunebench.reader import iter_conversation_files, read_conversation_file

pytestmark = pytest.mark.django_db


def test_profile_answers_and_traits_are_exported_as_option_ids(build):
    folder = Path(build().folder)
    questionnaire = default_instrument().profile
    diagnoses = {o.id for o in questionnaire.question("diagnoses").options}
    records = [read_conversation_file(p) for p in iter_conversation_files(folder / "conversations")]
    for record in records:
        profile = record.participant_profile
        chosen = profile.responses["diagnoses"]
        assert set(chosen) <= diagnoses
        assert list(profile.traits) == [f"diagnosis:{option}" for option in chosen]
    table = pd.read_parquet(folder / "tables" / "participants.parquet")
    assert len(table) == len({r.participant_profile.participant_id for r in records})
    for row in table.itertuples():
        answers = json.loads(row.profile_answers)
        assert [f"diagnosis:{o}" for o in answers["diagnoses"]] == list(row.traits)
        assert questionnaire.question("gender").option(answers["gender"]) is not None
