"""The evaluation run form offers a user limited to some studies only their studies' endpoints,
as models under test and as judges (calling one spends its key); a lab-wide user, all."""

import pytest
from django.urls import reverse

from annotations.releases.models import Release, ReleaseState
from evaluation.forms import StartRunForm
from tests.factories import make_staff
from tests.qa.endpoint_scope_setup import TwoStudies, two_studies

pytestmark = pytest.mark.django_db

START = reverse("admin:evaluation_evaluationrun_add")


@pytest.fixture
def setup() -> TwoStudies:
    return two_studies()


def choices(form: StartRunForm, name: str) -> set[str]:
    return {endpoint.alias for endpoint in form.fields[name].queryset}


def test_a_limited_researcher_sees_only_their_studies_endpoints(client, setup):
    researcher = make_staff("researcher", studies={setup.a: "researcher"})
    form = StartRunForm(user=researcher)
    assert choices(form, "models") == choices(form, "judges") == {"only-a", "shared-ab"}
    client.force_login(researcher)
    page = client.get(START).text
    assert "only-a" in page and "only-b" not in page


def test_one_of_bs_endpoints_is_refused(setup, tmp_path):
    release = Release.objects.create(
        name="a",
        version="1.0.0",
        state=ReleaseState.FROZEN,
        content_hash="f" * 64,
        folder=str(tmp_path),
    )
    release.studies.set([setup.a])
    researcher = make_staff("researcher", studies={setup.a: "researcher"})
    data = {"release": release.pk, "models": [setup.of_b.pk], "judges": [setup.of_b.pk]}
    form = StartRunForm(data, user=researcher)
    assert not form.is_valid()
    assert {"models", "judges"} <= set(form.errors)


def test_a_lab_wide_researcher_sees_them_all(setup, researcher):
    form = StartRunForm(user=researcher)
    assert {"only-a", "only-b", "shared-ab"} <= choices(form, "models")
