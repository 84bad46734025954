"""Without its token variable a link refuses before anything is claimed or sent, naming the
variable; ``<name>_FILE`` may name a file holding the token instead."""

from __future__ import annotations

import pytest

from annotations.models import DecisionState, ReviewDecision
from annotations.prolific import review
from annotations.prolific.connection import read_token
from annotations.prolific.sync import sync_study
from attune_collect.prolific.client import ProlificError
from tests.prolific.conftest import TOKEN_ENV, arrive, complete

pytestmark = pytest.mark.django_db


def test_no_token_claims_nothing(linked_study, prolific_server, researcher, monkeypatch):
    link = linked_study.prolific
    complete(arrive(linked_study, prolific_server), prolific_server)
    sync_study(link)
    review.intend_approvals(link, actor=researcher)
    monkeypatch.delenv(TOKEN_ENV)
    with pytest.raises(ProlificError, match=TOKEN_ENV):
        review.send_decisions(link)
    decision = ReviewDecision.objects.get()
    assert decision.state == DecisionState.INTENDED and decision.claimed_until is None
    assert not prolific_server.calls_of("transition")


def test_the_token_from_a_file(tmp_path, monkeypatch):
    secret = tmp_path / "token"
    secret.write_text("from-a-file\n")
    monkeypatch.delenv("SOME_PROLIFIC_TOKEN", raising=False)
    monkeypatch.setenv("SOME_PROLIFIC_TOKEN_FILE", str(secret))
    assert read_token("SOME_PROLIFIC_TOKEN") == "from-a-file"
