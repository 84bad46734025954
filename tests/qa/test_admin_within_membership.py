"""The admin keeps a user limited to some studies within them, and within the membership's
role there: no edit where the role only views, no preview of another study, no risk phrases of
another study, and no way out of the limit by taking a last membership away. Roles that may not
open a model endpoint's page do not read its audit entries either."""

import pytest
from django.urls import reverse

from annotations.models import AuditEntry, ModelEndpoint, Participant, Study, TurnSignal
from annotations.qa.models import StudyMembership
from annotations.services.setup import save_setup
from tests.factories import make_conversation, make_staff, make_study

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_studies():
    first, second = make_study(slug="first"), make_study(slug="second")
    return first, second, make_conversation(first), make_conversation(second)


class TestLastMembership:
    def test_a_limited_user_cannot_remove_their_own(self, client, two_studies):
        first, _, _, theirs = two_studies
        user = make_staff("researcher", studies={first: "researcher"})
        client.force_login(user)
        own = StudyMembership.objects.get(user=user)
        delete = reverse("admin:qa_studymembership_delete", args=[own.pk])
        assert client.post(delete, {"post": "yes"}).status_code == 403
        assert StudyMembership.objects.filter(user=user).exists()
        assert client.get(reverse("qa:conversation", args=[theirs.pk])).status_code == 403

    def test_nor_a_colleagues_last_one(self, client, two_studies):
        first, second, *_ = two_studies
        client.force_login(make_staff("researcher", studies={first: "researcher"}))
        colleague = make_staff("qa_reviewer", studies={first: "qa_reviewer"})
        last = StudyMembership.objects.get(user=colleague)
        delete = reverse("admin:qa_studymembership_delete", args=[last.pk])
        assert client.post(delete, {"post": "yes"}).status_code == 403
        # One of several may go: the colleague stays limited to the others.
        StudyMembership.objects.create(user=colleague, study=second, role="qa_reviewer")
        assert client.post(delete, {"post": "yes"}).status_code == 302
        assert list(StudyMembership.objects.filter(user=colleague)) != []

    def test_a_lab_wide_user_may(self, client, two_studies):
        first, *_ = two_studies
        client.force_login(make_staff("researcher"))
        member = make_staff("qa_reviewer", studies={first: "qa_reviewer"})
        last = StudyMembership.objects.get(user=member)
        delete = reverse("admin:qa_studymembership_delete", args=[last.pk])
        assert client.post(delete, {"post": "yes"}).status_code == 302
        assert not StudyMembership.objects.filter(user=member).exists()


def test_a_viewer_membership_cannot_edit_the_study(client, two_studies):
    first, *_ = two_studies
    client.force_login(make_staff("researcher", studies={first: "viewer"}))
    url = reverse("admin:annotations_study_change", args=[first.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="_save"' not in page.text  # shown read-only
    assert client.post(url, {"title": "Changed by a viewer"}).status_code == 403
    assert Study.objects.get(pk=first.pk).title == first.title


def test_no_preview_of_another_study(client, two_studies):
    first, second, *_ = two_studies
    client.force_login(make_staff("researcher", studies={first: "researcher"}))
    before = Participant.objects.filter(study=second).count()
    response = client.post(reverse("admin:annotations_study_preview", args=[second.pk]))
    assert response.status_code == 404
    assert Participant.objects.filter(study=second).count() == before


def test_risk_phrases_of_another_study_are_not_shown(client, two_studies):
    first, _, mine, theirs = two_studies
    theirs_signal = TurnSignal.objects.create(
        turn=theirs.turns.first(), kind="risk", source="user_message", evidence={"phrase": "x"}
    )
    TurnSignal.objects.create(
        turn=mine.turns.first(), kind="risk", source="user_message", evidence={"phrase": "y"}
    )
    client.force_login(make_staff("viewer", studies={first: "viewer"}))
    page = client.get(reverse("admin:annotations_turnsignal_changelist"))
    assert mine.external_id in page.text and theirs.external_id not in page.text
    detail = client.get(reverse("admin:annotations_turnsignal_change", args=[theirs_signal.pk]))
    assert detail.status_code == 302  # "does not exist", as for every row outside the scope


def test_a_studys_page_opens_once_it_has_participants(researcher_client, two_studies):
    """Its slug is frozen then (read-only), and a read-only field cannot be prepopulated."""
    first, *_ = two_studies
    page = researcher_client.get(reverse("admin:annotations_study_change", args=[first.pk]))
    assert page.status_code == 200


def test_endpoint_audit_entries_only_for_those_who_may_open_endpoints(client, researcher, viewer):
    endpoint = ModelEndpoint(
        alias="lab-model",
        litellm_model="openai/gpt-4o",
        api_key_env="PROD_OPENAI_API_KEY",
        system_prompt="An unpublished system prompt.",
    )
    save_setup(endpoint, actor=researcher)
    entry = AuditEntry.objects.get(target_type="annotations.modelendpoint")
    detail = reverse("admin:annotations_auditentry_change", args=[entry.pk])
    client.force_login(viewer)
    assert client.get(detail).status_code == 302
    assert (
        "PROD_OPENAI_API_KEY"
        not in client.get(reverse("admin:annotations_auditentry_changelist")).text
    )
    client.force_login(researcher)
    assert "PROD_OPENAI_API_KEY" in client.get(detail).text
