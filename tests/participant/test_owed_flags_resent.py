"""A completed conversation's QA flags are owed until computed: when the broker refuses the
task at completion, the participant completes all the same, and once the broker is back the
workers' sweep asks for the flags again, once however many workers sweep; computed flags are
no longer owed."""

import pytest

from annotations.dispatch import COMPUTE_FLAGS
from annotations.models import Conversation
from annotations.qa.models import ConversationReview
from annotations.qa.services.flagging import compute_flags, sweep_owed_flags
from attune_collect.dispatch import resend_bound
from tests.participant.test_completion import POST

pytestmark = pytest.mark.django_db


@pytest.fixture
def sweep(sweep_at):
    return lambda after_s: sweep_at(sweep_owed_flags, after_s)


def test_flags_lost_with_the_broker_are_asked_for_again(
    participant_client,
    answered_turn,
    broker_outage,
    sent_tasks,
    sweep,
    django_capture_on_commit_callbacks,
):
    client = participant_client()
    client.onboard()
    client.annotate(answered_turn(client))
    client.post("finish")
    client.post("panas/post", {"items": client.panas_items(5)})
    with broker_outage(), django_capture_on_commit_callbacks(execute=True):
        assert client.post("post-survey", POST).body["step"] == "complete"
    assert sent_tasks[COMPUTE_FLAGS] == []
    conversation = Conversation.objects.get()

    bound_s = resend_bound().total_seconds()
    assert sweep(bound_s - 5) == []  # its message may still be on its way
    assert sweep(bound_s + 1) == [conversation.pk]
    assert sweep(bound_s + 1) == []  # another worker's sweep
    assert sent_tasks[COMPUTE_FLAGS] == [conversation.pk]

    compute_flags([conversation.pk], actor_label="test")  # what the worker does
    assert ConversationReview.objects.get(conversation=conversation).flags_computed_at
    assert sweep(10 * bound_s) == []  # computed: no longer owed
