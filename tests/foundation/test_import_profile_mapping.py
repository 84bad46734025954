"""Importing reference files maps their profile answers onto the instrument's option ids where
they match, and keeps the rest as text exactly as written."""

from dataclasses import replace

from annotations.interchange.profile_mapping import map_profile_answers
from attunebench.instrument import default_instrument
from attunebench.records import ParticipantProfile
from tests.factories import build_record


def test_matching_answers_become_option_ids_and_the_rest_stays_text():
    record = build_record(
        participant_profile=ParticipantProfile(
            participant_id="P-1",
            age=34,
            traits=("Depression", "diagnosis:ADHD", "anxiety/depression", "student"),
            responses={
                "gender": "Woman",
                "first_language": "Klingon",
                "diagnoses": ["PTSD", "OCD"],
                "ai_use": "weekly",
            },
        )
    )
    profile = map_profile_answers(record, default_instrument()).participant_profile
    assert profile.traits == (
        "diagnosis:depression",
        "diagnosis:adhd",
        "anxiety/depression",
        "student",
    )
    assert profile.responses == {
        "gender": "woman",
        "first_language": "Klingon",
        "diagnoses": ["ptsd", "OCD"],
        "ai_use": "weekly",
    }


def test_a_record_with_nothing_to_map_is_returned_unchanged():
    record = build_record(
        participant_profile=ParticipantProfile(
            traits=("anxiety/depression",), responses={"ai_use": "weekly"}
        )
    )
    assert map_profile_answers(record, default_instrument()) is record
    assert (
        map_profile_answers(
            replace(record, participant_profile=None), default_instrument()
        ).participant_profile
        is None
    )
