"""A whole participant session through the API under uvicorn, on the offline demo provider:
start, consent, profile, pre-PANAS, topic, chat with streamed replies, per-turn annotation,
post-chat questions, completion code."""

import pytest

from annotations.models import Conversation, ConversationState, Turn, TurnStatus
from annotations.services.improver import run_improver

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_participant_completes_the_study(make_chat_study, live_participant, improver_queue):
    study = make_chat_study(min_turns=2, max_turns=2)
    client = live_participant(study)
    assert client.start().status == 201
    client.onboard()

    for number, text in enumerate(["I feel nervous about my job.", "My boss shouted at me."], 1):
        result = client.send(text)
        assert result.status == 200
        assert result.names[0] == "turn" and result.names[-1] == "done"
        assert result.text.startswith("[demo]")
        done = result.data("done")
        assert done["turn"]["number"] == number and done["turn"]["status"] == "done"
        assert done["turn"]["reply"] == result.text
        assert len(done["annotation"]["behaviour_questions"]) == study.behaviour_questions_per_turn
        assert run_improver(improver_queue[-1]) == "ready"  # what the worker would do
        assert client.annotate(number).status == 200

    session = client.finish_and_complete()
    assert session["step"] == "complete"
    assert session["completion"] == {
        "code": "C0MPL3TE",
        "redirect_url": "https://app.prolific.com/submissions/complete?cc=C0MPL3TE",
    }
    conversation = Conversation.objects.get(participant__prolific_pid=client.pid)
    assert conversation.state == ConversationState.COMPLETED
    turns = list(Turn.objects.filter(conversation=conversation).order_by("number"))
    assert [t.status for t in turns] == [TurnStatus.DONE, TurnStatus.DONE]
    assert all(t.latency_ms is not None and t.completion_tokens for t in turns)
    assert all(t.annotation.pairwise_choices.count() == 2 for t in turns)
