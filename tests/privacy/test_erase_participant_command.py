"""``manage.py erase_participant --actor USERNAME`` acts as that user: a researcher of the study
(or a superuser) erases, audited under their name; a viewer, a QA reviewer, a user outside the
study, a researcher limited to another study, an inactive researcher and an unknown name are
refused and nothing changes."""

import pytest
from django.core.management import CommandError, call_command

from annotations.models import AuditEntry, Participant, Turn
from annotations.qa.models import ParticipantErasure, PersonalDetailFinding
from annotations.qa.services.personal_details import scan_conversation
from tests.factories import build_record, build_turn, make_conversation, make_staff, make_study

pytestmark = pytest.mark.django_db


@pytest.fixture
def participant(study) -> Participant:
    record = build_record(turns=(build_turn(1, user_message="mail me: kim.ho@example.net"),))
    conversation = make_conversation(study, record=record)
    assert scan_conversation(conversation.pk) == 1  # a finding, which the erasure removes
    return conversation.participant


def erase(participant: Participant, actor: str) -> None:
    call_command(
        "erase_participant",
        study=participant.study.slug,
        participant=participant.pseudonym,
        actor=actor,
    )


def assert_erased_by(participant: Participant, user) -> None:
    participant.refresh_from_db()
    assert participant.withdrawn
    assert (
        not Turn.objects.filter(conversation__participant=participant)
        .exclude(user_message="")
        .exists()
    )
    assert not PersonalDetailFinding.objects.exists()
    erasure = ParticipantErasure.objects.get()
    assert (erasure.participant_id, erasure.erased_by) == (participant.pk, user)
    assert erasure.actor_label == f"user:{user.username}"
    entry = AuditEntry.objects.get(action="qa.participant.erase")
    assert (entry.actor, entry.actor_label) == (user, f"user:{user.username}")
    assert entry.target_id == str(participant.pk)


def test_a_researcher_erases_and_the_audit_names_them(participant, researcher, capsys):
    erase(participant, researcher.username)
    assert_erased_by(participant, researcher)
    assert "erased participant" in capsys.readouterr().out


def test_a_researcher_of_the_study_erases(participant, study):
    member = make_staff("researcher", studies={study: "researcher"})
    erase(participant, member.username)
    assert_erased_by(participant, member)


def test_a_superuser_erases(participant, django_user_model):
    admin = django_user_model.objects.create_superuser("lab-admin", "lab@example.org", "x")
    erase(participant, admin.username)
    assert_erased_by(participant, admin)


@pytest.fixture
def elsewhere_researcher(study):
    return make_staff("researcher", studies={make_study(): "researcher"})


@pytest.fixture
def inactive_researcher(researcher):
    researcher.is_active = False
    researcher.save(update_fields=["is_active"])
    return researcher


@pytest.mark.parametrize(
    "who",
    ["viewer", "reviewer", "outsider", "elsewhere_researcher", "inactive_researcher", None],
)
def test_others_are_refused_and_nothing_changes(request, participant, who):
    name = request.getfixturevalue(who).username if who else "nobody-by-that-name"
    messages_before = list(
        Turn.objects.filter(conversation__participant=participant).values_list(
            "user_message", flat=True
        )
    )
    with pytest.raises(CommandError, match="may not erase participants"):
        erase(participant, name)
    participant.refresh_from_db()
    assert not participant.withdrawn
    assert (
        list(
            Turn.objects.filter(conversation__participant=participant).values_list(
                "user_message", flat=True
            )
        )
        == messages_before
    )
    assert PersonalDetailFinding.objects.count() == 1
    assert not ParticipantErasure.objects.exists()
    assert not AuditEntry.objects.filter(action="qa.participant.erase").exists()


def test_the_actor_is_required(participant):
    with pytest.raises(CommandError, match="--actor"):
        call_command(
            "erase_participant", study=participant.study.slug, participant=participant.pseudonym
        )
    assert not ParticipantErasure.objects.exists()


def test_an_unknown_participant_is_refused(study, researcher):
    with pytest.raises(CommandError, match="no participant"):
        call_command(
            "erase_participant", study=study.slug, participant="no-one", actor=researcher.username
        )
