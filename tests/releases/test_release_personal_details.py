"""Planted personal details -> review in QA -> release: none of them is in any file of the
release (tables, archive and card included), and each reads as one placeholder throughout."""

import json
from pathlib import Path

import pytest

from annotations.interchange.to_records import load_records
from annotations.models import Conversation, ConversationState, Participant, Turn, TurnAnnotation
from annotations.qa.models import FindingStatus, PersonalDetailFinding
from annotations.qa.personal_details.texts import record_texts
from annotations.qa.services.personal_details import decide_finding, mark_missed
from annotations.releases.models import Release
from annotations.releases.services import ReleaseError, build_release
from tests.privacy.planting import (
    DETECTED,
    EMAIL,
    NAME,
    PHONE,
    PLANTED,
    plant,
    texts_of_release,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def planted(demo_study):
    conversation = (
        Conversation.objects.filter(study=demo_study, state=ConversationState.COMPLETED)
        .order_by("pk")
        .first()
    )
    plant(conversation)
    return conversation


def _review(conversation, reviewer) -> None:
    for finding in PersonalDetailFinding.objects.filter(status=FindingStatus.PENDING):
        decide_finding(finding, actor=reviewer, accept=True)
    # Names need a model or a reviewer: the reviewer marks every "Priya" the detectors missed.
    for path, text in record_texts(load_records([conversation.pk])[0]).items():
        start = text.find(NAME)
        while start >= 0:
            mark_missed(
                conversation,
                actor=reviewer,
                field_path=path,
                start=start,
                end=start + len(NAME),
                kind="name",
            )
            start = text.find(NAME, start + 1)


def test_unreviewed_findings_refuse_the_build(build, planted):
    with pytest.raises(ReleaseError, match="not reviewed"):
        build("1.0.0")


def test_reviewed_release_carries_no_planted_detail_and_consistent_placeholders(
    build, planted, reviewer
):
    with pytest.raises(ReleaseError):
        build("1.0.0")  # the build scanned the planted texts: findings now wait for review
    found_kinds = set(PersonalDetailFinding.objects.values_list("kind", flat=True))
    assert {"email", "phone", "address", "handle", "date"} <= found_kinds
    _review(planted, reviewer)
    release = build_release(Release.objects.get(version="1.0.0").pk)  # the failed one, again

    files = texts_of_release(Path(release.folder).parent)
    for detail in PLANTED:
        leaking = [name for name, text in files.items() if detail in text]
        assert leaking == [], f"{detail!r} is in {leaking}"

    record = json.loads(files[f"1.0.0/conversations/conversation_{planted.external_id}.json"])
    first, second = record["turns"][0], record["turns"][1]
    assert first["userMessage"].startswith("I'm [NAME_1], mail me at [EMAIL_1] or ring [PHONE_1].")
    assert "[ADDRESS_1]" in first["userMessage"]
    assert first["llmResponse"].startswith("Thanks [NAME_1]. I won't call [PHONE_1]")
    assert second["userMessage"] == "my insta is [HANDLE_1], born [DATE_1], same email [EMAIL_1]"
    edited = first["annotations"]["alternateResponses"]["humanEdited"]
    assert edited == "Thanks [NAME_1], write to [EMAIL_1] whenever you need."

    manifest = json.loads(files["1.0.0/MANIFEST.json"])["personal_details"]
    assert manifest["redaction"] == "reviewed"
    assert manifest["detectors"]["detector"].startswith("patterns-")
    assert manifest["redacted_spans"]["email"] == 3 and manifest["redacted_spans"]["name"] == 3
    card = files["1.0.0/README.md"]
    assert "Redaction: reviewed" in card and "retractions.json" in card


def test_auto_redaction_builds_without_review(build, planted):
    release = build("1.0.0", redaction="auto")
    files = texts_of_release(Path(release.folder))
    for detail in DETECTED:
        assert not [name for name, text in files.items() if detail in text]
    assert json.loads(files["MANIFEST.json"])["personal_details"]["redaction"] == "auto"


def test_a_corrected_text_is_redacted_too(build, demo_study, reviewer):
    from annotations.qa.services.correcting import add_correction

    conversation = (
        Conversation.objects.filter(study=demo_study, state=ConversationState.COMPLETED)
        .order_by("pk")
        .first()
    )
    add_correction(
        conversation,
        field_path="turns[turnNumber=1].userMessage",
        value="fixed text: reach me at fixed.mail@example.org",
        reason="broken_encoding",
        actor=reviewer,
    )
    release = build("1.0.0", layer="corrected")
    files = texts_of_release(Path(release.folder))
    assert not [name for name, text in files.items() if "fixed.mail@example.org" in text]
    record = json.loads(files[f"conversations/conversation_{conversation.external_id}.json"])
    assert record["turns"][0]["userMessage"] == "fixed text: reach me at [EMAIL_1]"


def _accept_pending(reviewer) -> None:
    for finding in PersonalDetailFinding.objects.filter(status=FindingStatus.PENDING):
        decide_finding(finding, actor=reviewer, accept=True)


def test_one_word_answers_and_imported_fields_are_scanned_and_redacted(build, demo_study, reviewer):
    conversation = (
        Conversation.objects.filter(study=demo_study, state=ConversationState.COMPLETED)
        .order_by("pk")
        .first()
    )
    participant = conversation.participant
    other_email = "sam.j@example.org"
    Participant.objects.filter(pk=participant.pk).update(
        responses={**participant.responses, "nickname": EMAIL},  # one word
        profile_extra={"contact": f"ring {PHONE}"},
    )
    first = Turn.objects.filter(conversation=conversation).order_by("number").first()
    Turn.objects.filter(pk=first.pk).update(other={"importedNote": f"or {other_email}"})
    TurnAnnotation.objects.filter(turn=first).update(other={"note": {"phone": PHONE}})
    with pytest.raises(ReleaseError, match="not reviewed"):
        build("1.0.0")
    _accept_pending(reviewer)
    release = build_release(Release.objects.get(version="1.0.0").pk)

    files = texts_of_release(Path(release.folder).parent)
    for detail in (EMAIL, PHONE, other_email):
        leaking = [name for name, text in files.items() if detail in text]
        assert leaking == [], f"{detail!r} is in {leaking}"
    record = json.loads(files[f"1.0.0/conversations/conversation_{conversation.external_id}.json"])
    profile = record["participant_profile"]
    assert profile["responses"]["nickname"] == "[EMAIL_1]"
    assert profile["extra"] == {"contact": "ring [PHONE_1]"}
    turn = record["turns"][0]
    assert turn["importedNote"] == "or [EMAIL_2]"
    assert turn["annotations"]["note"] == {"phone": "[PHONE_1]"}
    assert "[EMAIL_1]" in files["1.0.0/tables/participants.jsonl"]


def test_a_name_marked_once_is_redacted_at_every_occurrence(build, planted, reviewer):
    with pytest.raises(ReleaseError):
        build("1.0.0")
    _accept_pending(reviewer)
    path = "turns[turnNumber=1].userMessage"
    start = record_texts(load_records([planted.pk])[0])[path].index(NAME)
    mark_missed(
        planted, actor=reviewer, field_path=path, start=start, end=start + len(NAME), kind="name"
    )
    assert PersonalDetailFinding.objects.filter(kind="name").count() == 1
    release = build_release(Release.objects.get(version="1.0.0").pk)

    files = texts_of_release(Path(release.folder).parent)
    assert [name for name, text in files.items() if NAME in text] == []
    record = json.loads(files[f"1.0.0/conversations/conversation_{planted.external_id}.json"])
    first = record["turns"][0]
    assert first["userMessage"].startswith("I'm [NAME_1],")
    assert first["llmResponse"].startswith("Thanks [NAME_1].")
    edited = first["annotations"]["alternateResponses"]["humanEdited"]
    assert edited.startswith("Thanks [NAME_1],")
    assert "[NAME_2]" not in json.dumps(record)
    # The manifest counts the placeholders written, not the one decision.
    assert (
        json.loads(files["1.0.0/MANIFEST.json"])["personal_details"]["redacted_spans"]["name"] == 3
    )
