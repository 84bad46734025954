"""Factories shared by the test files: build records and rows with sensible defaults.

Conversations are built as AttuneBench records and saved through the same bulk path the
importer uses, so tests exercise real code rather than hand-made rows.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from annotations.interchange.from_records import RecordOptions, save_records
from annotations.models import Conversation, ModelEndpoint, Participant, Study
from annotations.services.instruments import ensure_default_instrument
from attunebench import records

_sequence = itertools.count(1)


def unique(prefix: str) -> str:
    return f"{prefix}-{next(_sequence)}"


def make_endpoint(**fields) -> ModelEndpoint:
    alias = fields.pop("alias", unique("model"))
    defaults = {
        "provider": "attune-demo",
        "model_name": alias,
        "litellm_model": f"attune-demo/{alias}",
    }
    return ModelEndpoint.objects.create(alias=alias, **{**defaults, **fields})


def make_test_server_endpoint(base_url: str, key_env: str, **fields) -> ModelEndpoint:
    """An endpoint on the local OpenAI-compatible test server (attune_collect.llm.testing),
    called by the direct transport, without gateway retries unless ``fields`` say otherwise."""
    defaults = {
        "alias": unique("test-server"),
        "provider": "openai",
        "model_name": "test-model",
        "litellm_model": "openai/test-model",
        "api_base": base_url,
        "api_key_env": key_env,
        "max_retries": 0,
    }
    return make_endpoint(**{**defaults, **fields})


def make_study(**fields) -> Study:
    slug = fields.pop("slug", unique("study"))
    study = Study.objects.create(
        slug=slug, title=fields.pop("title", slug), instrument=ensure_default_instrument(), **fields
    )
    return study


def make_participant(study: Study | None = None, **fields) -> Participant:
    study = study or make_study()
    pseudonym = fields.pop("pseudonym", unique("pseudo"))
    return Participant.objects.create(
        study=study, pseudonym=pseudonym, external_id=pseudonym, **fields
    )


def build_turn(number: int = 1, **fields) -> records.Turn:
    annotations = fields.pop(
        "annotations",
        records.TurnAnnotations(
            binary_judgements=(
                records.BinaryJudgement("B1", llm_value="yes", observed="yes", preferred="yes"),
                records.BinaryJudgement("B11", llm_value="no", observed="no", preferred="na"),
            ),
            llm_improved="An improved reply.",
            human_edited="My edited reply.",
            pairwise_comparisons=(
                records.PairwiseComparison("general", "original", "alternate", "B"),
            ),
            selected_pairwise_questions=("PW1",),
        ),
    )
    defaults = {
        "turn_number": number,
        "user_message": f"User message {number}",
        "llm_response": f"Model reply {number}",
        "mood_tags": (records.MoodTag("Nervous", 4),),
        "annotations": annotations,
    }
    return records.Turn(**{**defaults, **fields})


def build_record(
    conversation_id: str | None = None, n_turns: int = 2, **fields
) -> records.Conversation:
    panas_items = {"Proud": 3, "Nervous": 5}
    defaults = {
        "conversation_id": conversation_id or unique("conv"),
        "metadata": records.Metadata(
            model="listener",
            provider="attune-demo",
            model_version="v1",
            timestamp="2026-03-01T10:00:00+00:00",
            category="work",
            subtopic="burnout",
        ),
        "participant_profile": records.ParticipantProfile(
            participant_id=unique("participant"),
            age=30,
            traits=("diagnosis:asd_adhd",),
            goals=("be heard",),
        ),
        "pre_panas": records.Panas(items=panas_items, total_positive=30, total_negative=40),
        "post_panas": records.Panas(items=panas_items, total_positive=35, total_negative=30),
        "conversation_wide": records.ConversationWide(
            looking_for=("vent",),
            emotion_clarity="clear",
            model_fit="mostly_well",
            four_branch=records.FourBranchScores(5, 4, None, 6),
        ),
        "turns": tuple(build_turn(n) for n in range(1, n_turns + 1)),
    }
    return records.Conversation(**{**defaults, **fields})


def make_conversation(
    study: Study | None = None, record: records.Conversation | None = None, **fields
) -> Conversation:
    study = study or make_study()
    record = record or build_record(**fields)
    (conversation,) = save_records(study, [record], RecordOptions())
    return conversation


__all__ = [
    "build_record",
    "build_turn",
    "make_conversation",
    "make_endpoint",
    "make_participant",
    "make_study",
    "replace",
    "unique",
]


# --- QA (annotations/qa) -----------------------------------------------------------------------


def make_staff(role: str, username: str | None = None, studies: dict | None = None):
    """A staff account in a role group; ``studies`` ({study: role}) limits it to those studies."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from annotations.qa.models import StudyMembership

    user = get_user_model().objects.create_user(
        username or unique(role), password="correct-horse-battery-staple", is_staff=True
    )
    user.groups.add(Group.objects.get(name=role))
    for study, study_role in (studies or {}).items():
        StudyMembership.objects.create(user=user, study=study, role=study_role)
    return user


def time_annotations(
    conversation: Conversation, seconds: list[float], *, turn_gap: float = 30
) -> None:
    """Give each turn's annotation (in turn order) a duration: the evidence of the speed checks."""
    from datetime import UTC, datetime, timedelta

    from annotations.models import TurnAnnotation

    start = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    annotations = TurnAnnotation.objects.filter(turn__conversation=conversation).select_related(
        "turn"
    )
    for annotation, duration in zip(annotations.order_by("turn__number"), seconds, strict=False):
        turn_start = start + timedelta(seconds=annotation.turn.number * 600)
        annotation.started_at = turn_start + timedelta(seconds=turn_gap)
        annotation.submitted_at = annotation.started_at + timedelta(seconds=duration)
        annotation.save(update_fields=["started_at", "submitted_at"])
        annotation.turn.started_at = turn_start
        annotation.turn.save(update_fields=["started_at"])


__all__ += ["make_staff", "time_annotations"]


# --- languages (issue 44) ------------------------------------------------------------------------


def seed_two_language_study(count: int, seed: int) -> Study:
    """The demo study with ``count`` synthetic conversations taken in two languages: English
    and Spanish enabled, the instrument's shipped Spanish translation saved, and every other
    participant (in creation order, one per demo conversation) recorded as Spanish, the others
    as English. The texts stay the demo's: what a release and a report do with a participant's
    language is the same whatever the words."""
    from annotations.demo import seed_demo
    from annotations.demo_languages import ensure_instrument_translation

    study = seed_demo(count, seed=seed).study
    Study.objects.filter(pk=study.pk).update(languages=["en", "es"])
    ensure_instrument_translation(study.instrument, "es")
    participants = list(Participant.objects.filter(study=study).order_by("pk"))
    for index, participant in enumerate(participants):
        participant.language = "es" if index % 2 else "en"
    Participant.objects.bulk_update(participants, ["language"])
    study.refresh_from_db()
    return study


__all__ += ["seed_two_language_study"]


# A study's two comprehension questions, with a right and a wrong set of answers to them.
COMPREHENSION_QUESTIONS = [
    {
        "id": "task",
        "question": "What will you do?",
        "options": [{"id": "chat", "text": "Chat and rate"}, {"id": "video", "text": "Watch"}],
        "answer": "chat",
    },
    {
        "id": "stop",
        "question": "Can you stop at any time?",
        "options": [{"id": "yes", "text": "Yes"}, {"id": "no", "text": "No"}],
        "answer": "yes",
    },
]
RIGHT_ANSWERS = {"task": "chat", "stop": "yes"}
WRONG_ANSWERS = {"task": "video", "stop": "yes"}
