"""The researcher API's leaderboard of a release is the admin's: the same boards (runs that may
not be compared, another seed, on a board of their own), the same models, in JSON."""

import pytest

from annotations.releases.models import Release
from tests.evaluation.test_admin_release_leaderboard import two_runs_and_another_seed  # noqa: F401
from tests.researcher_api.conftest import api, mint

pytestmark = pytest.mark.django_db


def test_the_boards_of_the_admin_in_json(two_runs_and_another_seed, researcher):  # noqa: F811
    first, second, other = two_runs_and_another_seed
    release = Release.objects.get(pk=first.release_id)
    client = api(mint(researcher, list(release.studies.all())))
    answer = client.get(f"/api/v1/releases/{release.pk}/leaderboard/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["release"] == release.pk
    assert sorted(len(board["runs"]) for board in body["boards"]) == [1, 2]
    joint = next(board for board in body["boards"] if board["seed"] == first.seed)
    assert joint["runs"] == [first.pk, second.pk]
    named = " ".join(str(cell) for row in joint["leaderboard"]["rows"] for cell in row)
    for model in ("attune-demo/listener", "attune-demo/advisor", "attune-demo/questioner"):
        assert model in named
    assert len(joint["pairs"]["rows"]) == 3  # each pair of the three models, on the composite
