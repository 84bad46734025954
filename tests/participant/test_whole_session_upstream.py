"""A whole participant session through the API under uvicorn with the model and the improver
on the local OpenAI-compatible test server (real HTTP through litellm), including a failed
reply that is retried on the way."""

import pytest

from annotations.interchange.to_records import conversation_to_record
from annotations.models import Conversation
from annotations.services.improver import run_improver

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_session_with_a_real_http_model_and_a_retry(
    upstream_study, live_participant, openai_server, improver_queue
):
    openai_server.behaviour.token_delay_s = 0.01
    client = live_participant(upstream_study)
    assert client.start().status == 201
    client.onboard()

    openai_server.behaviour.server_error()
    assert client.send("I had a fight with my sister.").names[-1] == "error"
    retried = client.retry(1)
    assert retried.names[-1] == "done"
    assert retried.text == "Test server reply to: I had a fight with my sister."
    assert run_improver(improver_queue[-1]) == "ready"
    assert client.annotate(1).status == 200

    session = client.finish_and_complete()
    assert session["step"] == "complete" and session["completion"]["code"] == "C0MPL3TE"

    record = conversation_to_record(Conversation.objects.get())
    (turn,) = record.turns
    assert turn.llm_response == "Test server reply to: I had a fight with my sister."
    assert turn.annotations.llm_improved.startswith("Test server reply to: Original reply")
    assert turn.annotations.human_edited == "What I would have liked to hear."
    assert {c.question_id for c in turn.annotations.pairwise_comparisons} == set(
        turn.annotations.selected_pairwise_questions
    )
    assert record.post_panas is not None and record.conversation_wide.model_fit == "mixed"
