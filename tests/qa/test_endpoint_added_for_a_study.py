"""An endpoint in no study yet is lab-wide: only users without memberships see it. A researcher
limited to some studies adds an endpoint *for* one of them (``created_for``), which makes it
that study's from the start: theirs to open and edit, and no other study's."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from annotations.models import AuditEntry, ModelEndpoint
from tests.factories import make_endpoint, make_staff
from tests.qa.endpoint_scope_setup import TwoStudies, endpoint_form, two_studies

pytestmark = pytest.mark.django_db

ADD = reverse("admin:annotations_modelendpoint_add")
LIST = reverse("admin:annotations_modelendpoint_changelist")


def new_endpoint(**fields) -> dict:
    return endpoint_form(
        ModelEndpoint(alias="new-model", litellm_model="attune-demo/new-model"), **fields
    )


@pytest.fixture
def setup() -> TwoStudies:
    return two_studies()


@pytest.fixture
def researcher_of_a(setup):
    return make_staff("researcher", studies={setup.a: "researcher"})


def test_a_lab_wide_endpoint_is_not_shown_to_a_limited_researcher(client, setup, researcher_of_a):
    lab = make_endpoint(alias="lab-endpoint")
    client.force_login(researcher_of_a)
    assert "lab-endpoint" not in client.get(LIST).text
    change = reverse("admin:annotations_modelendpoint_change", args=[lab.pk])
    assert client.get(change).status_code == 302


def test_a_limited_researcher_adds_one_only_for_their_study(client, setup, researcher_of_a):
    client.force_login(researcher_of_a)
    assert client.post(ADD, new_endpoint()).status_code == 200  # the study is required
    assert client.post(ADD, new_endpoint(created_for=setup.b.pk)).status_code == 200
    assert not ModelEndpoint.objects.filter(alias="new-model").exists()
    assert client.post(ADD, new_endpoint(created_for=setup.a.pk)).status_code == 302
    endpoint = ModelEndpoint.objects.get(alias="new-model")
    assert endpoint.created_for == setup.a
    assert AuditEntry.objects.filter(action="annotations.modelendpoint.create").exists()
    change = reverse("admin:annotations_modelendpoint_change", args=[endpoint.pk])
    assert 'name="_save"' in client.get(change).text


def test_the_service_refuses_an_endpoint_for_no_study_or_another(setup, researcher_of_a):
    from annotations.qa.services.scoped_setup import save_setup_as

    for made_for in (None, setup.b):
        endpoint = ModelEndpoint(alias="sneaky", litellm_model="x/y", created_for=made_for)
        with pytest.raises(PermissionDenied):
            save_setup_as(endpoint, actor=researcher_of_a)
    assert not ModelEndpoint.objects.filter(alias="sneaky").exists()


def test_nor_may_they_move_theirs_to_another_study(client, setup, researcher_of_a):
    from annotations.qa.services.scoped_setup import save_setup_as

    mine = make_endpoint(alias="mine", created_for=setup.a)
    mine.created_for = setup.b
    with pytest.raises(PermissionDenied):
        save_setup_as(mine, actor=researcher_of_a)
    assert ModelEndpoint.objects.get(pk=mine.pk).created_for == setup.a


def test_a_lab_wide_researcher_adds_one_for_no_study(researcher_client, setup):
    assert researcher_client.post(ADD, new_endpoint()).status_code == 302
    assert ModelEndpoint.objects.get(alias="new-model").created_for is None
