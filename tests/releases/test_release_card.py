"""The dataset card parses with `huggingface_hub` whatever the license text, and the license is
checked against the Hub's identifiers with a clear error naming the closest ones."""

import huggingface_hub as hub
import pytest

from annotations.releases.card_metadata import DEFAULT_CONFIG
from annotations.releases.cards import ReleaseInfo, dataset_card
from annotations.releases.licenses import LicenseError, check_license, hub_license
from annotations.releases.services import ReleaseError, create_release
from attunebench.instrument import default_instrument

from .conftest import AWKWARD_LICENSE_NAME


def card_text(**license) -> str:
    info = ReleaseInfo(
        name="attunebench",
        version="1.0.0",
        description="",
        instrument=default_instrument(),
        studies=[],
        rules={},
        counts={"conversations": 3},
        **license,
    )
    return dataset_card(info)


def parsed(text: str, tmp_path):
    path = tmp_path / "README.md"
    path.write_text(text, encoding="utf-8")
    return hub.DatasetCard.load(path)


@pytest.mark.parametrize(
    "name",
    [
        "CC BY-NC 4.0: research only",
        'The "Attune" research licence',
        "Licence de recherche: réservée à l'étude — 研究用",
        "key: value\n- not: a list",
        "#not a comment, & not an anchor *or alias",
    ],
)
def test_a_custom_license_name_survives_the_yaml(name, tmp_path):
    card = parsed(card_text(license="other", license_name=name), tmp_path)
    assert card.data.license == "other"
    assert card.data.license_name == name.strip()
    assert card.data.pretty_name == "attunebench 1.0.0"


def test_a_hub_license_is_written_as_its_identifier(tmp_path):
    card = parsed(card_text(license="CC BY-NC 4.0"), tmp_path)
    assert card.data.license == "cc-by-nc-4.0" and card.data.get("license_name") is None


def test_exactly_one_default_config_and_features_for_every_config(tmp_path):
    data = parsed(card_text(license="mit"), tmp_path).data
    configs = data.configs
    assert [c["config_name"] for c in configs if c.get("default")] == [DEFAULT_CONFIG]
    assert {c["config_name"] for c in configs} == {i["config_name"] for i in data.dataset_info}
    assert all(info["features"] for info in data.dataset_info)


@pytest.mark.django_db
def test_the_built_card_parses(ecosystem_release):
    card = hub.DatasetCard.load(ecosystem_release.folder / "README.md")
    assert (card.data.license, card.data.license_name) == ("other", AWKWARD_LICENSE_NAME)
    assert f"License: {AWKWARD_LICENSE_NAME}." in card.text


@pytest.mark.parametrize(
    ("typed", "closest"),
    [
        ("CC BY-NC 4.0: research only", "cc-by-nc-4.0"),
        ("CC-BY-4.O", "cc-by-4.0"),
        ("apache 2", "apache-2.0"),
    ],
)
def test_an_unknown_license_names_the_closest_identifiers(typed, closest):
    with pytest.raises(LicenseError) as raised:
        hub_license(typed)
    message = str(raised.value)
    assert repr(typed) in message and closest in message and "'other'" in message


def test_other_needs_a_name_and_only_other_takes_one():
    with pytest.raises(LicenseError, match="needs a license name"):
        check_license("other", "  ")
    with pytest.raises(LicenseError, match="only for license 'other'"):
        check_license("mit", "My licence")
    assert check_license("Other", "My licence") == ("other", "My licence")


@pytest.mark.django_db
def test_a_release_with_a_bad_license_is_refused_and_not_stored(demo_study):
    from annotations.releases.models import Release

    with pytest.raises(ReleaseError, match="closest are cc-by-nc-4.0"):
        create_release(
            name="x", version="1.0.0", studies=[demo_study], license="CC BY-NC 4.0: research only"
        )
    with pytest.raises(ReleaseError, match="needs a license name"):
        create_release(name="x", version="1.0.0", studies=[demo_study], license="other")
    assert not Release.objects.exists()
