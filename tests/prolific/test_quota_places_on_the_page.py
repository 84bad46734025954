"""The link's page shows each quota's stratum: places held, freed (by a sync) and remaining."""

import pytest
from django.urls import reverse
from django.utils import timezone

from annotations.models import ProlificLink
from annotations.services.participants import submit_profile
from tests.prolific.conftest import arrive

pytestmark = pytest.mark.django_db


def test_the_page_shows_places_per_stratum(client, researcher, linked_study, prolific_server):
    linked_study.quotas = [{"id": "diagnosed", "trait": "diagnosis:", "at_most": 5}]
    linked_study.save(update_fields=["quotas"])
    held, freed = (arrive(linked_study, prolific_server) for _ in range(2))
    for arrival in (held, freed):
        submit_profile(arrival.participant, age=30, diagnosis="adhd")
    freed.participant.place_freed_at, freed.participant.place_freed_reason = (
        timezone.now(),
        "RETURNED",
    )
    freed.participant.save(update_fields=["place_freed_at", "place_freed_reason"])
    client.force_login(researcher)
    link = ProlificLink.objects.get(study=linked_study)
    page = client.get(reverse("admin:annotations_prolificlink_operate", args=[link.pk])).text
    assert "Places per stratum" in page
    assert (
        "<td>diagnosed</td><td>at most 5 with diagnosis:</td><td>1</td><td>1</td><td>4</td>" in page
    )
