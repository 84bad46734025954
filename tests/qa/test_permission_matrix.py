"""The permission matrix: every QA page and action, and every admin list, x every persona.

Personas: anonymous, a participant holding a valid participant token, a logged-in outsider,
viewer, QA reviewer, researcher, and a QA reviewer limited to another study. Allowed means
the page renders or the action runs (200, or a redirect that is not to the login page);
staff without the permission get 403; anyone who is not staff is sent to the login page.
"""

import pytest
from django.contrib import admin
from django.urls import reverse

from annotations.qa.models import Correction, Flag, PersonalDetailFinding, StudyQASettings
from annotations.qa.roles import STUDY_APPS
from annotations.qa.services.correcting import add_correction
from annotations.qa.services.flagging import raise_flag
from annotations.services.participant_sessions import issue_token
from tests.factories import make_conversation, make_staff, make_study

pytestmark = pytest.mark.django_db

R, Q, V, E = "researcher", "reviewer", "viewer", "reviewer_elsewhere"
PERSONAS = ["anonymous", "participant", "outsider", V, Q, R, E]
STAFF = {V, Q, R, E}

# (url name, method, which object the url takes, personas allowed)
QA_MATRIX = [
    ("qa:queue", "get", None, {R, Q, V, E}),
    ("qa:staff_home", "get", None, {R, Q, V, E}),  # every staff member: it lists what they may open
    ("qa:conversation", "get", "conversation", {R, Q, V}),
    ("qa:review", "post", "conversation", {R, Q}),
    ("qa:adjudicate", "post", "conversation", {R}),
    ("qa:flag_raise", "post", "conversation", {R, Q}),
    ("qa:flag_status", "post", "flag", {R, Q}),
    ("qa:correction_add", "post", "conversation", {R, Q}),
    ("qa:correction_withdraw", "post", "correction", {R, Q}),
    ("qa:monitoring", "get", "study", {R, Q, V}),
    ("qa:monitoring_csv", "get", "table", {R, Q, V}),
    ("qa:agreement", "get", "study", {R, V}),
    ("qa:corrections_csv", "get", "study", {R}),
    ("qa:personal_details", "get", None, {R, Q, E}),  # E sees an empty queue: none of its study
    ("qa:personal_detail_decide", "post", "finding", {R, Q}),
]
POST_DATA = {
    "qa:review": {"decision": "approve"},
    "qa:adjudicate": {"decision": "approve"},
    "qa:flag_raise": {"summary": "odd", "severity": "info"},
    "qa:flag_status": {"status": "confirmed"},
    "qa:personal_detail_decide": {"decision": "dismiss"},
    "qa:correction_add": {
        "field_path": "turns[turnNumber=1].moodShiftTags[0].intensity",
        "value": "2",
        "reason": "misclick_reported",
    },
}

QA_ADMIN_VIEWERS = {
    "conversationreview": {R, Q, V, E},
    "flag": {R, Q, V, E},
    "correction": {R, Q, V, E},
    "review": {R, V},
    "studymembership": {R, V},
    "studyqasettings": {R, V},
    "attentioncheck": {R, V},
}


def _admin_matrix():
    rows = [("admin:index", "get", None, {R, Q, V, E})]
    for model in admin.site._registry:
        label, name = model._meta.app_label, model._meta.model_name
        url = f"admin:{label}_{name}_changelist"
        if label == "annotations":
            rows.append((url, "get", None, {R} if name == "modelendpoint" else {R, V}))
        elif label == "qa":
            rows.append((url, "get", None, QA_ADMIN_VIEWERS[name]))
            if name in ("studymembership", "studyqasettings", "attentioncheck"):
                rows.append((f"admin:qa_{name}_add", "get", None, {R}))
        elif label == "researcher_api":  # every staff member issues and lists their own tokens
            rows.append((url, "get", None, STAFF))
            rows.append(("admin:researcher_api_apitoken_add", "get", None, STAFF))
        elif label == "webhooks":  # every role: its own endpoints (tests/webhooks/ for scope)
            rows.append((url, "get", None, {R, Q, V, E}))
            if name == "webhookendpoint":
                rows.append(("admin:webhooks_webhookendpoint_add", "get", None, {R, Q, V, E}))
        elif label in STUDY_APPS:  # releases, evaluation: researchers change, viewers look
            rows.append((url, "get", None, {R, V}))
        else:  # user accounts and groups stay with superusers
            rows.append((url, "get", None, set()))
    return rows


MATRIX = QA_MATRIX + _admin_matrix()


@pytest.fixture
def objects(study, reviewer):
    StudyQASettings.objects.create(study=study, double_review_share=0)
    conversation = make_conversation(study)
    flag = raise_flag(conversation, actor=reviewer, summary="look")
    correction = add_correction(
        conversation,
        field_path="turns[turnNumber=2].moodShiftTags[0].intensity",
        value="1",
        reason="misclick_reported",
        actor=reviewer,
    )
    finding = PersonalDetailFinding.objects.create(
        conversation=conversation,
        field_path="turns[turnNumber=1].userMessage",
        start=0,
        end=4,
        text_sha256="0" * 64,
        kind="name",
        detector="patterns",
        detector_version="patterns-1",
    )
    return {
        "conversation": conversation,
        "flag": flag,
        "correction": correction,
        "study": study,
        "finding": finding,
    }


def _client_for(persona, client, request, study):
    if persona == "participant":
        participant = make_conversation(study).participant
        client.defaults["HTTP_AUTHORIZATION"] = f"Participant {issue_token(participant)}"
    elif persona == "outsider":
        client.force_login(request.getfixturevalue("outsider"))
    elif persona == E:
        client.force_login(make_staff("qa_reviewer", studies={make_study(): "qa_reviewer"}))
    elif persona != "anonymous":
        client.force_login(request.getfixturevalue(persona))
    return client


def _url(name, kind, objects):
    match kind:
        case None:
            return reverse(name)
        case "study":
            return reverse(name, args=[objects["study"].slug])
        case "table":
            return reverse(name, args=[objects["study"].slug, "funnel"])
        case _:
            return reverse(name, args=[objects[kind].pk])


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize(
    ("name", "method", "kind", "allowed"), MATRIX, ids=[f"{m[0]}-{m[1]}" for m in MATRIX]
)
def test_permission_matrix(persona, name, method, kind, allowed, objects, client, request):
    client = _client_for(persona, client, request, objects["study"])
    url = _url(name, kind, objects)
    response = client.post(url, POST_DATA.get(name, {})) if method == "post" else client.get(url)
    location = response.get("Location", "")
    if persona in allowed:
        assert response.status_code in (200, 302), (persona, url, response.status_code)
        assert "/admin/login/" not in location
    elif persona in STAFF:
        assert response.status_code == 403, (persona, url, response.status_code)
    else:
        assert response.status_code == 302 and "/admin/login/" in location, (persona, url)


def test_denied_actions_change_nothing(objects, client, viewer):
    client.force_login(viewer)
    flag, correction = objects["flag"], objects["correction"]
    client.post(reverse("qa:flag_status", args=[flag.pk]), {"status": "dismissed"})
    client.post(reverse("qa:correction_withdraw", args=[correction.pk]))
    client.post(reverse("qa:review", args=[objects["conversation"].pk]), {"decision": "approve"})
    assert Flag.objects.get(pk=flag.pk).status == "open"
    assert Correction.objects.get(pk=correction.pk).withdrawn_at is None
    assert not objects["conversation"].qa_reviews.exists()
