"""A participant's yes or no is JSON true or false, nothing else: DRF's BooleanField would read
``0``, ``1``, ``"yes"`` or ``"off"`` as one, so ``"agree": 0`` screened a participant out as if
they had declined (issue 36)."""

import inspect

import pytest
from rest_framework import serializers

from annotations.models import Participant
from annotations.participant_api import serializers as io

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("agree", [0, 1, "yes", "false", "true", "on", None, []])
def test_consent_takes_only_true_or_false(participant_client, agree):
    client = participant_client()
    client.start()
    reply = client.post("consent", {"consent_version": "2", "agree": agree})
    assert reply.status == 400 and reply.error["field"] == "agree", reply.body
    participant = Participant.objects.get(prolific_pid=client.pid)
    assert participant.consented_at is None and participant.screened_out_at is None


def test_the_profile_and_withdrawal_confirmations_take_only_true_or_false(participant_client):
    client = participant_client()
    client.start()
    client.post("consent", {"consent_version": "2", "agree": True})
    reply = client.post("profile", {"age": 30, "age_confirmed": 1})
    assert reply.status == 400 and reply.error["field"] == "age_confirmed", reply.body
    reply = client.post("withdraw", {"confirm": 1})
    assert reply.status == 400 and reply.error["field"] == "confirm", reply.body
    assert not Participant.objects.get(prolific_pid=client.pid).withdrawn


def _input_serializers() -> list[type[serializers.Serializer]]:
    return [
        cls
        for name, cls in inspect.getmembers(io, inspect.isclass)
        if name.endswith("Input") and issubclass(cls, serializers.Serializer)
    ]


def test_every_boolean_input_of_the_participant_api_is_strict():
    loose = [
        f"{cls.__name__}.{name}"
        for cls in _input_serializers()
        for name, field in cls().fields.items()
        if isinstance(field, serializers.BooleanField)
        and not isinstance(field, io.StrictBooleanField)
    ]
    assert _input_serializers() and not loose
