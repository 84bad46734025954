"""Configuration snapshots: every conversation records, when it opens, the exact configuration
it runs under; the same configuration is one shared row; an edited endpoint is a new row and
earlier conversations keep theirs (and keep talking under it)."""

import pytest

from annotations.models import Conversation, ModelConfig, ModelConfigImmutableError, Participant
from annotations.services import chat
from annotations.services.model_configs import api_base_host
from attunebench.canonical import canonical_sha256, text_sha256
from tests.factories import unique

pytestmark = pytest.mark.django_db


def _consented_conversation(participant_client, study) -> Conversation:
    client = participant_client(study)
    client.start()
    assert client.post("consent", {"consent_version": "2", "agree": True}).status == 200
    return Conversation.objects.get(participant__prolific_pid=client.pid, study=study)


def test_two_conversations_with_the_same_configuration_share_one_row(
    chat_study, participant_client
):
    first = _consented_conversation(participant_client, chat_study)
    second = _consented_conversation(participant_client, chat_study)
    assert first.model_config_id is not None
    assert first.model_config_id == second.model_config_id
    assert ModelConfig.objects.count() == 1


def test_the_row_is_content_addressed_and_holds_what_the_conversation_runs_under(
    chat_study, participant_client
):
    config = _consented_conversation(participant_client, chat_study).model_config
    endpoint = chat_study.model_pool.get()
    definition = config.definition
    assert config.config_hash == canonical_sha256(definition)
    assert definition["endpoint"]["model"] == endpoint.litellm_model
    assert definition["endpoint"]["params"] == endpoint.params
    assert definition["endpoint"]["system_prompt"] == endpoint.system_prompt
    assert config.system_prompt_sha256 == text_sha256(endpoint.system_prompt)
    assert definition["improver"]["model"] == chat_study.improver_endpoint.litellm_model
    assert definition["instrument"] == {
        "name": chat_study.instrument.name,
        "version": chat_study.instrument.version,
        "content_hash": chat_study.instrument.content_hash,
    }
    assert definition["consent_version"] == "2"
    assert "app_build" in definition


def test_a_conversation_keeps_its_configuration_after_the_endpoint_is_edited(
    chat_study, participant_client, answered_turn
):
    client = participant_client(chat_study)
    client.onboard()
    before = Conversation.objects.get(participant__prolific_pid=client.pid)
    endpoint = chat_study.model_pool.get()
    old_prompt = endpoint.system_prompt
    endpoint.system_prompt = "You are now a pirate."
    endpoint.params = {"temperature": 0.1}
    endpoint.save()

    later = _consented_conversation(participant_client, chat_study)
    before.refresh_from_db()
    assert later.model_config_id != before.model_config_id
    assert before.model_config.definition["endpoint"]["system_prompt"] == old_prompt
    assert later.model_config.definition["endpoint"]["system_prompt"] == "You are now a pirate."
    assert ModelConfig.objects.count() == 2

    # The earlier conversation still talks under its own configuration.
    participant = Participant.objects.get(prolific_pid=client.pid)
    plan = chat.accept_message(participant, "Hello", unique("key-abcdefgh"))
    assert plan.messages[0] == {"role": "system", "content": old_prompt}
    assert dict(plan.endpoint.params) == before.model_config.definition["endpoint"]["params"]


def test_a_snapshot_never_holds_a_key_and_never_changes(make_chat_study, participant_client):
    from tests.factories import make_endpoint

    endpoint = make_endpoint(
        api_base="https://user:s3cret@llm.example.org:8443/v1?token=abc",
        api_key_env="LAB_SECRET_API_KEY",
    )
    study = make_chat_study()
    study.model_pool.set([endpoint])
    config = _consented_conversation(participant_client, study).model_config
    text = str(config.definition)
    assert config.definition["endpoint"]["api_base_host"] == "llm.example.org:8443"
    for secret in ("s3cret", "token=abc", "LAB_SECRET_API_KEY", "user"):
        assert secret not in text
    config.definition = {}
    with pytest.raises(ModelConfigImmutableError):
        config.save()
    with pytest.raises(ModelConfigImmutableError):
        config.delete()


def test_api_base_host_keeps_only_the_host():
    assert api_base_host("") == ""
    assert api_base_host("http://127.0.0.1:8000/v1") == "127.0.0.1:8000"
    assert api_base_host("https://api.openai.com/v1") == "api.openai.com"
