"""The release diff reports configuration changes: configurations added or removed, rows that
changed, and conversations now under another configuration; the version rule counts them."""

import pytest

from annotations.demo import seed_demo
from annotations.models import Conversation, ModelEndpoint
from annotations.releases.configurations import ReleasedConfigurations
from annotations.releases.services import ReleaseError, compare_releases
from annotations.releases.versioning import diff_configurations, diff_hashes
from annotations.services.setup import save_setup

pytestmark = pytest.mark.django_db


def released(rows: dict[str, str], of_conversation: dict[str, str | None]):
    return ReleasedConfigurations({cid: {"p": text} for cid, text in rows.items()}, of_conversation)


def test_diff_of_configurations_and_the_bump_it_needs():
    old = released({"c1": "a", "c2": "b"}, {"x": "c1", "y": "c2"})
    new = released({"c1": "a", "c2": "B", "c3": "c"}, {"x": "c1", "y": "c3", "z": "c3"})
    diff = diff_configurations(old, new)
    assert (diff.added, diff.removed, diff.changed) == (["c3"], [], ["c2"])
    assert diff.reassigned == [("y", "c2", "c3")]
    assert diff.required_bump == "major"
    grown = released({"c1": "a", "c3": "c"}, {"x": "c1", "z": "c3"})
    assert diff_configurations(released({"c1": "a"}, {"x": "c1"}), grown).required_bump == "minor"
    # A release built before releases carried configurations cannot be compared: no bump.
    assert not diff_configurations(None, new).compared
    assert diff_hashes({"x": "1"}, {"x": "1"}, diff_configurations(None, new)).required_bump == (
        "patch"
    )


def test_an_endpoint_edited_between_releases_shows_as_an_added_configuration(build, demo_study):
    old = build("1.0.0")
    questioner = ModelEndpoint.objects.get(provider="attune-demo", model_name="questioner")
    questioner.params = {**questioner.params, "temperature": 0.2}
    save_setup(questioner, actor_label="test")
    seed_demo(27, seed=5)  # three more conversations, one of them with the questioner
    new = build("1.1.0")
    diff = compare_releases(old, new).diff
    new_config = Conversation.objects.get(external_id="demo-5-00026").model_config.config_hash
    assert diff.configurations.added == [new_config]
    assert not (diff.configurations.removed or diff.configurations.changed)
    assert not diff.configurations.reassigned and diff.required_bump == "minor"
    assert "configurations: 1 added" in diff.summary()


def test_a_conversation_under_another_configuration_needs_a_major_version(build, demo_study):
    old = build("1.0.0")
    first, last = Conversation.objects.filter(study=demo_study).order_by("pk")[::23]
    Conversation.objects.filter(pk=first.pk).update(model_config=last.model_config)
    with pytest.raises(ReleaseError, match="1 conversations under another.*needs a MAJOR"):
        build("1.1.0")
    diff = compare_releases(old, build("2.0.0")).diff
    assert diff.configurations.reassigned == [
        (first.external_id, first.model_config.config_hash, last.model_config.config_hash)
    ]
    assert not diff.changed  # the conversation files themselves are the same


def test_a_prompt_published_since_is_a_changed_configuration(build, demo_study):
    demo_study.publish_system_prompts = False
    save_setup(demo_study, actor_label="test")
    old = build("1.0.0")
    demo_study.publish_system_prompts = True
    save_setup(demo_study, actor_label="test")
    new = build("2.0.0")
    configurations = compare_releases(old, new).diff.configurations
    assert len(configurations.changed) == 4 and not configurations.added


def test_the_admin_page_shows_the_configuration_changes(build, demo_study, researcher_client):
    from django.urls import reverse

    old = build("1.0.0")
    first, last = Conversation.objects.filter(study=demo_study).order_by("pk")[::23]
    Conversation.objects.filter(pk=first.pk).update(model_config=last.model_config)
    new = build("2.0.0")
    page = researcher_client.get(reverse("admin:releases_release_diff", args=[old.pk, new.pk]))
    assert page.status_code == 200
    text = page.text
    assert (
        "Model configurations" in text and "Conversations under another configuration (1)" in text
    )
    assert first.external_id in text
