"""Every change to a model endpoint is audited with its values before and after, deletion
included; the key variable's name may be recorded, its value never."""

import json

import pytest
from django.urls import reverse

from annotations.models import AuditEntry, ModelEndpoint
from tests.factories import make_staff
from tests.qa.endpoint_scope_setup import endpoint_form, takeover, two_studies

pytestmark = pytest.mark.django_db


def test_a_change_by_a_researcher_of_its_study_is_audited(client, monkeypatch):
    setup = two_studies()
    monkeypatch.setenv("ATTACKER_API_KEY", "sk-the-value-itself")
    client.force_login(make_staff("researcher", studies={setup.a: "researcher"}))
    url = reverse("admin:annotations_modelendpoint_change", args=[setup.of_a.pk])
    assert client.post(url, takeover(setup.of_a)).status_code == 302
    (entry,) = AuditEntry.objects.filter(action="annotations.modelendpoint.update")
    assert entry.target_id == str(setup.of_a.pk) and entry.actor_label.startswith("user:")
    assert entry.data["changes"] == {
        "api_base": {"before": "", "after": "https://attacker.example.net/v1"},
        "api_key_env": {"before": "A_API_KEY", "after": "ATTACKER_API_KEY"},
    }
    assert "sk-the-value-itself" not in json.dumps(entry.data)


def test_a_deletion_is_audited_with_what_it_held(researcher_client):
    setup = two_studies()
    url = reverse("admin:annotations_modelendpoint_delete", args=[setup.of_b.pk])
    assert researcher_client.post(url, {"post": "yes"}).status_code == 302
    assert not ModelEndpoint.objects.filter(pk=setup.of_b.pk).exists()
    (entry,) = AuditEntry.objects.filter(action="annotations.modelendpoint.delete")
    assert entry.target_type == "annotations.modelendpoint"
    assert entry.data["changes"]["api_key_env"] == {"before": "B_API_KEY", "after": None}
    assert entry.data["changes"]["system_prompt"] == {"before": "Prompt of B.", "after": None}


def test_a_refused_change_writes_no_entry(client):
    setup = two_studies()
    client.force_login(make_staff("researcher", studies={setup.a: "researcher"}))
    url = reverse("admin:annotations_modelendpoint_change", args=[setup.shared.pk])
    assert (
        client.post(url, endpoint_form(setup.shared, system_prompt="Mine now.")).status_code == 403
    )
    assert not AuditEntry.objects.filter(target_type="annotations.modelendpoint").exists()
