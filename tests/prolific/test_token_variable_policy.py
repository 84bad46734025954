"""A Prolific link's token variable follows the key policy of the model endpoints: the token is
sent to the link's ``api_base``, which the researcher sets, so naming one of the platform's own
variables (DJANGO_SECRET_KEY, DATABASE_URL, ...) is refused when the link is saved, and a link
written around that check still sends nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from annotations.models import ProlificLink
from annotations.prolific.setup import save_link
from annotations.prolific.sync import sync_study
from attune_collect.prolific.client import ProlificError

pytestmark = pytest.mark.django_db

PLATFORM_SECRETS = ["DJANGO_SECRET_KEY", "DATABASE_URL", "ATTUNE_WEBHOOK_KEY", "AWS_SECRET_KEY"]


@pytest.mark.parametrize("variable", PLATFORM_SECRETS)
def test_saving_a_platform_variable_is_refused(linked_study, researcher, variable):
    link = linked_study.prolific
    before = link.token_env
    link.token_env = variable
    with pytest.raises(ValidationError) as refused:
        save_link(link, actor=researcher)
    assert "token_env" in refused.value.message_dict
    assert ProlificLink.objects.get(pk=link.pk).token_env == before  # nothing changed


def test_a_link_written_around_the_check_sends_nothing(linked_study, prolific_server, monkeypatch):
    monkeypatch.setenv("DJANGO_SECRET_KEY", "the-platform-secret")
    ProlificLink.objects.filter(pk=linked_study.prolific.pk).update(token_env="DJANGO_SECRET_KEY")
    with pytest.raises(ProlificError, match="refused") as error:
        sync_study(ProlificLink.objects.get(pk=linked_study.prolific.pk))
    assert "the-platform-secret" not in str(error.value)
    assert not prolific_server.calls  # nothing reached the server
