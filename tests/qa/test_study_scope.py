"""Object-level limits: a user with study memberships works only there, within the membership's role."""

import pytest
from django.urls import reverse

from annotations.qa.access import has_study_perm
from tests.factories import make_conversation, make_staff, make_study

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_studies():
    first, second = make_study(slug="first"), make_study(slug="second")
    return first, second, make_conversation(first), make_conversation(second)


def test_the_queue_shows_only_the_members_studies(client, two_studies):
    first, second, mine, theirs = two_studies
    client.force_login(make_staff("qa_reviewer", studies={first: "qa_reviewer"}))
    page = client.get(reverse("qa:queue")).text
    assert mine.external_id in page and theirs.external_id not in page
    assert client.get(reverse("qa:conversation", args=[theirs.pk])).status_code == 403
    assert client.get(reverse("qa:monitoring", args=[second.slug])).status_code == 403
    assert client.get(reverse("qa:conversation", args=[mine.pk])).status_code == 200


def test_a_membership_narrows_the_role(client, two_studies):
    first, _, mine, _ = two_studies
    user = make_staff("researcher", studies={first: "viewer"})
    assert has_study_perm(user, "qa.view_conversationreview", first.pk)
    assert not has_study_perm(user, "qa.review_conversation", first.pk)
    client.force_login(user)
    assert (
        client.post(reverse("qa:review", args=[mine.pk]), {"decision": "approve"}).status_code
        == 403
    )


def test_a_membership_never_widens_the_role(two_studies):
    first, *_ = two_studies
    viewer = make_staff("viewer", studies={first: "researcher"})
    assert not has_study_perm(viewer, "qa.review_conversation", first.pk)


def test_without_memberships_a_role_spans_every_study(reviewer, two_studies):
    first, second, *_ = two_studies
    assert has_study_perm(reviewer, "qa.review_conversation", first.pk)
    assert has_study_perm(reviewer, "qa.review_conversation", second.pk)


def test_the_annotation_admin_is_scoped_too(client, two_studies):
    first, second, mine, theirs = two_studies
    client.force_login(make_staff("viewer", studies={first: "viewer"}))
    page = client.get(reverse("admin:annotations_conversation_changelist")).text
    assert mine.external_id in page and theirs.external_id not in page
    assert (
        client.get(reverse("admin:annotations_conversation_change", args=[theirs.pk])).status_code
        == 302
    )
    assert client.get(reverse("admin:annotations_auditentry_changelist")).status_code == 403


def test_roles_hold_what_the_issue_says(researcher, reviewer, viewer):
    assert researcher.has_perm("qa.export_data") and researcher.has_perm("qa.adjudicate")
    assert reviewer.has_perm("qa.review_conversation") and reviewer.has_perm("qa.flag_conversation")
    for perm in (
        "qa.export_data",
        "annotations.view_modelendpoint",
        "qa.view_review",
        "qa.view_agreement",
    ):
        assert not reviewer.has_perm(perm), perm
    assert not any(
        p.startswith(("evaluation.", "releases.")) for p in reviewer.get_all_permissions()
    )
    # Read-only in the study apps; the one write a viewer has is its own webhook endpoints.
    assert all(
        p.split(".")[1].startswith("view_")
        for p in viewer.get_all_permissions()
        if not p.startswith("webhooks.")
    )
    assert not viewer.has_perm("annotations.view_modelendpoint")
