"""Who may register endpoints, for which studies and events: the user's own, within the studies
their role may see (the admin's study scope); nobody sees another user's endpoints."""

import pytest
from django.urls import reverse

from annotations.qa.models import StudyMembership
from tests.factories import make_staff
from webhooks import services
from webhooks.event_types import EventType
from webhooks.events import emit
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db


def register(user, studies, events=(EventType.STUDY_FULL,)):
    return services.register_endpoint(
        user, url="http://127.0.0.1:9/hook", study_ids=[s.pk for s in studies], events=events
    )


def test_a_viewer_registers_for_their_study_but_not_another(lab):
    first, second, _ = lab
    viewer = make_staff("viewer", studies={first: "viewer"})
    endpoint, _ = register(viewer, [first])
    assert endpoint.owner == viewer
    with pytest.raises(services.WebhookError):
        register(viewer, [second])
    with pytest.raises(services.WebhookError):
        register(viewer, [first, second])


def test_a_reviewer_gets_risk_flags_but_not_releases(lab):
    first, _, _ = lab
    reviewer = make_staff("qa_reviewer", studies={first: "qa_reviewer"})
    register(reviewer, [first], [EventType.RISK_FLAG_RAISED])
    with pytest.raises(services.WebhookError):
        register(reviewer, [first], [EventType.RELEASE_FROZEN])


def test_an_outsider_registers_nothing(lab, outsider):
    with pytest.raises(services.WebhookError):
        register(outsider, [lab[0]])


def test_the_admin_offers_only_the_users_studies_and_refuses_others(client, lab):
    first, second, _ = lab
    viewer = make_staff("viewer", studies={first: "viewer"})
    client.force_login(viewer)
    add = reverse("admin:webhooks_webhookendpoint_add")
    page = client.get(add)
    assert page.status_code == 200
    assert "First" in page.text and "Second" not in page.text
    response = client.post(
        add,
        {"url": "http://127.0.0.1:9/hook", "studies": [second.pk], "events": ["study.full"]},
    )
    assert response.status_code == 200  # the form again, with its error
    assert not WebhookEndpoint.objects.exists()


def test_nobody_sees_another_users_endpoints(client, lab, outsider):
    first, _, member = lab
    endpoint, _ = register(member, [first])
    viewer = make_staff("viewer", studies={first: "viewer"})
    client.force_login(viewer)
    listing = client.get(reverse("admin:webhooks_webhookendpoint_changelist"))
    assert listing.status_code == 200 and endpoint.url not in listing.text
    change = reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk])
    assert client.get(change).status_code == 302  # "not found": back to the index
    client.force_login(outsider)  # not staff: the admin's login page
    assert client.get(reverse("admin:webhooks_webhookendpoint_changelist")).status_code == 302
    with pytest.raises(services.WebhookError):
        services.delete_endpoint(viewer, endpoint)


def test_a_user_removed_from_the_study_receives_nothing_more(
    lab, subscribe, receiver, run_deliveries, django_capture_on_commit_callbacks
):
    first, _, member = lab
    subscribe(member, [first], [EventType.STUDY_FULL])
    with django_capture_on_commit_callbacks(execute=True):
        emit(EventType.STUDY_FULL, first.pk, {"study_id": first.pk})
    StudyMembership.objects.filter(user=member, study=first).delete()
    # still limited to a study (another membership), but no longer to this one
    StudyMembership.objects.create(user=member, study=lab[1], role="researcher")
    run_deliveries()
    assert receiver.received == []
    assert member.webhook_endpoints.get().deliveries.get().status == "skipped"
