"""Deleting a study or an instrument in the admin (its delete page or the list's "delete
selected") goes through ``delete_setup``: one audit entry per object, naming it and holding
what it held; a delete that the database refuses (data depends on the row) leaves no entry.
The endpoints' deletes are tested from a researcher's side in tests/qa/test_endpoint_*."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from annotations.audit_actions import AuditAction
from annotations.models import AuditEntry, Instrument, Study
from annotations.services.instruments import create_instrument_version
from attunebench.instrument import default_instrument_data
from tests.factories import make_participant, make_study

pytestmark = pytest.mark.django_db


def _deletes(action: AuditAction) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("id"))


def test_a_study_deleted_from_its_page_is_audited_with_what_it_held(admin_client):
    study = make_study(title="Gone soon")
    url = reverse("admin:annotations_study_delete", args=[study.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not Study.objects.filter(pk=study.pk).exists()
    (entry,) = _deletes(AuditAction.STUDY_DELETE)
    assert (entry.target_type, entry.target_id) == ("annotations.study", str(study.pk))
    assert entry.actor_label == "user:admin"
    assert entry.data["changes"]["title"] == {"before": "Gone soon", "after": None}
    assert entry.data["changes"]["slug"] == {"before": study.slug, "after": None}


def test_studies_deleted_from_the_list_are_audited_one_entry_each(admin_client):
    studies = [make_study(), make_study()]
    data = {
        "action": "delete_selected",
        ACTION_CHECKBOX_NAME: [s.pk for s in studies],
        "post": "yes",
    }
    assert admin_client.post(reverse("admin:annotations_study_changelist"), data).status_code == 302
    assert not Study.objects.filter(pk__in=[s.pk for s in studies]).exists()
    entries = _deletes(AuditAction.STUDY_DELETE)
    assert sorted(e.target_id for e in entries) == sorted(str(s.pk) for s in studies)


def test_an_instrument_deleted_in_the_admin_is_audited(admin_client):
    unused = create_instrument_version(
        {**default_instrument_data(), "version": 99}, actor_label="test"
    )
    url = reverse("admin:annotations_instrument_delete", args=[unused.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not Instrument.objects.filter(pk=unused.pk).exists()
    (entry,) = _deletes(AuditAction.INSTRUMENT_DELETE)
    assert entry.target_id == str(unused.pk)
    assert entry.data["changes"]["version"] == {"before": 99, "after": None}


def test_a_study_with_participants_is_kept_and_no_delete_is_recorded(admin_client):
    study = make_participant().study
    url = reverse("admin:annotations_study_delete", args=[study.pk])
    admin_client.post(url, {"post": "yes"})
    assert Study.objects.filter(pk=study.pk).exists()
    assert _deletes(AuditAction.STUDY_DELETE) == []
