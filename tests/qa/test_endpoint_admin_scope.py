"""Model endpoints belong to the studies that use them. A researcher limited to study A lists
and opens only endpoints of A (one shared with B read-only), and cannot change or delete
study B's endpoint or one A shares with B: that would send B's participants' messages, with a
key of the platform's choosing, wherever the researcher liked. A lab-wide user can."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from annotations.models import ModelEndpoint
from tests.factories import make_staff
from tests.qa.endpoint_scope_setup import TwoStudies, takeover, two_studies, unchanged

pytestmark = pytest.mark.django_db

LIST = reverse("admin:annotations_modelendpoint_changelist")


def change_url(endpoint: ModelEndpoint) -> str:
    return reverse("admin:annotations_modelendpoint_change", args=[endpoint.pk])


def delete_url(endpoint: ModelEndpoint) -> str:
    return reverse("admin:annotations_modelendpoint_delete", args=[endpoint.pk])


@pytest.fixture
def setup() -> TwoStudies:
    return two_studies()


@pytest.fixture
def researcher_of_a(setup):
    return make_staff("researcher", studies={setup.a: "researcher"})


class TestAResearcherOfA:
    def test_lists_only_endpoints_of_a(self, client, setup, researcher_of_a):
        client.force_login(researcher_of_a)
        page = client.get(LIST).text
        assert "only-a" in page and "shared-ab" in page
        assert "only-b" not in page and "B_API_KEY" not in page

    def test_cannot_open_bs_endpoint(self, client, setup, researcher_of_a):
        client.force_login(researcher_of_a)
        response = client.get(change_url(setup.of_b))
        assert response.status_code == 302  # "does not exist", as for every row outside the scope
        assert "Prompt of B." not in client.get(response.url).text

    def test_sees_the_shared_endpoint_read_only(self, client, setup, researcher_of_a):
        client.force_login(researcher_of_a)
        page = client.get(change_url(setup.shared))
        assert page.status_code == 200 and 'name="_save"' not in page.text
        assert 'name="_save"' in client.get(change_url(setup.of_a)).text

    def test_cannot_take_over_bs_endpoint(self, client, setup, researcher_of_a):
        client.force_login(researcher_of_a)
        response = client.post(change_url(setup.of_b), takeover(setup.of_b))
        assert response.status_code == 302 and response.url != LIST  # not found, not saved
        assert unchanged(setup.of_b)

    def test_cannot_take_over_the_shared_endpoint(self, client, setup, researcher_of_a):
        client.force_login(researcher_of_a)
        assert client.post(change_url(setup.shared), takeover(setup.shared)).status_code == 403
        assert unchanged(setup.shared)

    def test_may_change_an_endpoint_of_a_alone(self, client, setup, researcher_of_a):
        client.force_login(researcher_of_a)
        response = client.post(change_url(setup.of_a), takeover(setup.of_a))
        assert response.status_code == 302 and response.url == LIST
        assert ModelEndpoint.objects.get(pk=setup.of_a.pk).api_key_env == "ATTACKER_API_KEY"

    def test_cannot_delete_bs_or_the_shared_endpoint(self, client, setup, researcher_of_a):
        client.force_login(researcher_of_a)
        assert client.post(delete_url(setup.shared), {"post": "yes"}).status_code == 403
        assert client.post(delete_url(setup.of_b), {"post": "yes"}).status_code == 302
        assert ModelEndpoint.objects.filter(pk__in=[setup.shared.pk, setup.of_b.pk]).count() == 2
        assert setup.shared in setup.b.model_pool.all()

    def test_cannot_delete_the_shared_endpoint_from_the_list(self, client, setup, researcher_of_a):
        client.force_login(researcher_of_a)
        selected = [setup.of_a.pk, setup.shared.pk, setup.of_b.pk]
        data = {"action": "delete_selected", ACTION_CHECKBOX_NAME: selected, "post": "yes"}
        assert client.post(LIST, data).status_code == 403
        assert ModelEndpoint.objects.filter(pk__in=selected).count() == 3

    def test_the_services_refuse_too(self, setup, researcher_of_a):
        from annotations.qa.services.scoped_setup import delete_setup_as, save_setup_as

        endpoint = ModelEndpoint.objects.get(pk=setup.shared.pk)
        endpoint.api_base = "https://attacker.example.net/v1"
        with pytest.raises(PermissionDenied):
            save_setup_as(endpoint, actor=researcher_of_a)
        with pytest.raises(PermissionDenied):
            delete_setup_as(setup.of_b, actor=researcher_of_a)
        assert unchanged(setup.shared) and ModelEndpoint.objects.filter(pk=setup.of_b.pk).exists()


class TestPastUse:
    def test_an_endpoint_bs_conversations_used_stays_bs(self, client, setup, researcher_of_a):
        """Dropped from B's pool, it still names B's conversations and exports."""
        from tests.factories import make_conversation

        conversation = make_conversation(setup.b)
        conversation.model_endpoint = setup.shared
        conversation.save()
        setup.b.model_pool.remove(setup.shared)
        client.force_login(researcher_of_a)
        assert client.post(change_url(setup.shared), takeover(setup.shared)).status_code == 403
        assert unchanged(setup.shared)


class TestALabWideResearcher:
    def test_lists_opens_and_changes_every_endpoint(self, researcher_client, setup):
        page = researcher_client.get(LIST).text
        assert all(alias in page for alias in ("only-a", "only-b", "shared-ab"))
        response = researcher_client.post(change_url(setup.shared), takeover(setup.shared))
        assert response.status_code == 302 and response.url == LIST
        assert not unchanged(setup.shared)

    def test_deletes_bs_endpoint(self, researcher_client, setup):
        assert researcher_client.post(delete_url(setup.of_b), {"post": "yes"}).status_code == 302
        assert not ModelEndpoint.objects.filter(pk=setup.of_b.pk).exists()


class TestAViewer:
    def test_a_viewer_membership_cannot_change_as_endpoint(self, client, setup):
        client.force_login(make_staff("researcher", studies={setup.a: "viewer"}))
        assert client.post(change_url(setup.of_a), takeover(setup.of_a)).status_code in (302, 403)
        assert unchanged(setup.of_a)
        assert "only-a" not in client.get(LIST).text  # viewers do not open endpoints at all

    def test_a_lab_wide_viewer_cannot_change_one(self, client, setup, viewer):
        client.force_login(viewer)
        assert client.post(change_url(setup.of_a), takeover(setup.of_a)).status_code == 403
        assert unchanged(setup.of_a)
