"""A study's model pool, improver and moderation endpoint offer only endpoints the user may
view; linking one of another study's (which would open its page to this study's researchers)
is refused by the form and by the service. The conversation list's model filter offers only
the endpoints of the conversations listed."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from annotations.models import Study
from tests.factories import make_staff
from tests.qa.endpoint_scope_setup import TwoStudies, two_studies

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup() -> TwoStudies:
    return two_studies()


def options(page: str, endpoint) -> int:
    return page.count(f">{endpoint.alias}</option>")


def test_a_limited_researcher_is_offered_only_their_studies_endpoints(client, setup):
    client.force_login(make_staff("researcher", studies={setup.a: "researcher"}))
    page = client.get(reverse("admin:annotations_study_change", args=[setup.a.pk])).text
    # pool, improver and moderation: three choices of each endpoint of A, none of B's
    assert options(page, setup.of_a) == 3 and options(page, setup.shared) == 3
    assert options(page, setup.of_b) == 0 and "only-b" not in page


def test_a_lab_wide_researcher_is_offered_all(researcher_client, setup):
    page = researcher_client.get(reverse("admin:annotations_study_change", args=[setup.a.pk])).text
    assert options(page, setup.of_b) == 3


def test_linking_another_studys_endpoint_is_refused(setup):
    from annotations.qa.services.scoped_setup import save_setup_as

    researcher = make_staff("researcher", studies={setup.a: "researcher"})
    study = Study.objects.get(pk=setup.a.pk)
    with pytest.raises(PermissionDenied):
        save_setup_as(study, actor=researcher, many_to_many={"model_pool": [setup.of_b]})
    study.improver_endpoint = setup.of_b
    with pytest.raises(PermissionDenied):
        save_setup_as(study, actor=researcher)
    setup.a.refresh_from_db()
    assert setup.a.improver_endpoint is None
    assert set(setup.a.model_pool.all()) == {setup.of_a, setup.shared}
    # Its own endpoints it may re-arrange.
    study = Study.objects.get(pk=setup.a.pk)
    study.improver_endpoint = setup.shared
    save_setup_as(study, actor=researcher, many_to_many={"model_pool": [setup.of_a]})
    assert list(setup.a.model_pool.all()) == [setup.of_a]


def test_the_conversation_lists_model_filter_offers_only_their_studies(client, setup):
    from annotations.models import Conversation
    from tests.factories import make_conversation

    for study, endpoint in ((setup.a, setup.of_a), (setup.b, setup.of_b)):
        conversation = make_conversation(study)
        Conversation.objects.filter(pk=conversation.pk).update(model_endpoint=endpoint)
    client.force_login(make_staff("researcher", studies={setup.a: "researcher"}))
    page = client.get(reverse("admin:annotations_conversation_changelist")).text
    assert "only-a" in page and "only-b" not in page
