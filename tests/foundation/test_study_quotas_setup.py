"""Quotas are study setup: edited in the admin by a researcher of the study through the audited
setup path, validated there (a malformed quota changes nothing), and refused to a viewer, a QA
reviewer and an outsider."""

import json

import pytest
from django.forms.models import model_to_dict
from django.urls import reverse

from annotations.models import AuditEntry, Study
from tests.factories import make_study

pytestmark = pytest.mark.django_db

QUOTAS = [{"id": "diagnosed", "trait": "diagnosis:", "at_most": 20}]


def _post_quotas(client, study: Study, quotas) -> int:
    data = {k: v for k, v in model_to_dict(study).items() if v is not None}
    for key in ("topics", "languages", "translations"):
        data[key] = json.dumps(data.get(key) or ({} if key == "translations" else []))
    data["model_pool"] = []
    data["quotas"] = json.dumps(quotas)
    url = reverse("admin:annotations_study_change", args=[study.pk])
    return client.post(url, data).status_code


def test_a_researcher_edits_the_quotas_and_the_change_is_audited(researcher_client):
    study = make_study()
    assert _post_quotas(researcher_client, study, QUOTAS) == 302
    assert Study.objects.get(pk=study.pk).quotas == QUOTAS
    (entry,) = AuditEntry.objects.filter(action="annotations.study.update")
    assert entry.data["changes"]["quotas"] == {"before": [], "after": QUOTAS}


@pytest.mark.parametrize(
    "quotas",
    [
        [{"id": "x", "trait": "diagnosis:", "at_most": 1, "at_least": 1}],  # both bounds
        [{"id": "x", "trait": "diagnosis:"}],  # no bound
        [{"id": "x", "trait": "diagnosis:", "at_most": -1}],
        [{"id": "Bad Id", "trait": "diagnosis:", "at_most": 1}],
        [{"id": "x", "trait": "a", "at_most": 1}, {"id": "x", "trait": "b", "at_most": 1}],
        {"id": "x"},
    ],
)
def test_a_malformed_quota_changes_nothing(researcher_client, quotas):
    study = make_study()
    assert _post_quotas(researcher_client, study, quotas) == 200  # the form with its error
    assert Study.objects.get(pk=study.pk).quotas == []


@pytest.mark.parametrize("persona", ["viewer", "reviewer", "outsider"])
def test_others_cannot_edit_the_quotas(client, request, persona):
    study = make_study()
    client.force_login(request.getfixturevalue(persona))
    assert _post_quotas(client, study, QUOTAS) in (302, 403, 404)
    assert Study.objects.get(pk=study.pk).quotas == []
    assert not AuditEntry.objects.filter(action="annotations.study.update").exists()
