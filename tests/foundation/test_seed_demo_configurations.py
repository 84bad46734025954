"""The demo seeds several configurations: half-way through the seeded conversations the
listener's prompt is revised through the setup write path (audited), so the earlier
conversations keep the first snapshot and the later ones get the new one."""

import pytest

from annotations.demo import (
    DEMO_SYSTEM_PROMPT,
    REVISED_PROMPT_VERSION,
    REVISED_SYSTEM_PROMPT,
    seed_demo,
)
from annotations.models import Conversation, ModelConfig, ModelEndpoint
from annotations.services.setup import setup_history

pytestmark = pytest.mark.django_db


def prompts_by_index(persona: str) -> list[str]:
    rows = Conversation.objects.filter(model_endpoint__model_name=persona).order_by("external_id")
    return [c.model_config.definition["endpoint"]["system_prompt"] for c in rows]


def test_the_demo_has_several_configurations_and_one_endpoint_edited_mid_study():
    seed_demo(12, seed=3)
    assert not Conversation.objects.filter(model_config=None).exists()
    # Three demo models, and the listener before and after its edit.
    assert ModelConfig.objects.count() == 4
    assert prompts_by_index("listener") == [DEMO_SYSTEM_PROMPT] * 2 + [REVISED_SYSTEM_PROMPT] * 2
    assert set(prompts_by_index("advisor")) == {DEMO_SYSTEM_PROMPT}
    listener = ModelEndpoint.objects.get(provider="attune-demo", model_name="listener")
    assert listener.system_prompt_version == REVISED_PROMPT_VERSION
    assert set(
        Conversation.objects.filter(model_endpoint=listener).values_list(
            "system_prompt_version", flat=True
        )
    ) == {"demo-1", "demo-2"}


def test_the_edit_went_through_the_write_path_and_is_in_the_history():
    seed_demo(6, seed=3)
    listener = ModelEndpoint.objects.get(provider="attune-demo", model_name="listener")
    edit = setup_history(listener)[0]
    assert (edit.action, edit.actor_label) == (
        "annotations.modelendpoint.update",
        "command:seed_demo",
    )
    assert edit.data["changes"]["system_prompt"] == {
        "before": DEMO_SYSTEM_PROMPT,
        "after": REVISED_SYSTEM_PROMPT,
    }


def test_seeding_again_keeps_every_snapshot_and_edits_once():
    seed_demo(6, seed=3)
    before = dict(Conversation.objects.values_list("external_id", "model_config_id"))
    seed_demo(6, seed=3)
    seed_demo(9, seed=3)  # later conversations: all under the revised prompt
    after = dict(Conversation.objects.values_list("external_id", "model_config_id"))
    assert {k: after[k] for k in before} == before
    listener = ModelEndpoint.objects.get(provider="attune-demo", model_name="listener")
    assert len([e for e in setup_history(listener) if e.action.endswith(".update")]) == 1
    assert prompts_by_index("listener")[-1] == REVISED_SYSTEM_PROMPT
    assert ModelConfig.objects.count() == 4
