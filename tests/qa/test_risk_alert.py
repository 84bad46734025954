"""A risk signal during the chat: the QA risk flag exists at once (not only when the chat
ends) and the study's safety contacts get one email with a link to the conversation in QA,
never the message text."""

from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError

from annotations.models import AuditEntry
from annotations.qa.models import Flag, FlagStatus
from annotations.qa.services.risk_alerts import conversation_link, run_risk_alert
from tests.qa.conftest import RISKY_MESSAGE as MESSAGE

pytestmark = pytest.mark.django_db


def test_the_flag_is_raised_and_the_contacts_are_told(risky_turn, mailoutbox, settings):
    settings.ATTUNE = replace(settings.ATTUNE, site_url="https://attune.example.org")
    assert run_risk_alert(risky_turn.pk) == 2
    flag = Flag.objects.get(conversation=risky_turn.conversation, flag_type="risk_signal")
    assert (flag.status, flag.severity) == (FlagStatus.OPEN, "critical")
    (email,) = mailoutbox
    assert email.to == ["lead@example.org", "nurse@example.org"]
    link = conversation_link(risky_turn.conversation_id)
    assert link.startswith("https://attune.example.org/qa/") and link in email.body
    assert MESSAGE not in email.body and "alive" not in email.body  # never the message
    assert "alive" not in email.subject


def test_a_second_run_sends_nothing_more(risky_turn, mailoutbox):
    run_risk_alert(risky_turn.pk)
    assert run_risk_alert(risky_turn.pk) == 0
    assert len(mailoutbox) == 1
    assert Flag.objects.filter(conversation=risky_turn.conversation).count() == 1


def test_without_contacts_nothing_is_sent_and_it_is_recorded(risky_turn, mailoutbox):
    study = risky_turn.conversation.study
    study.safety_contacts = ""
    study.save()
    assert run_risk_alert(risky_turn.pk) == 0
    assert not mailoutbox
    assert AuditEntry.objects.filter(action="qa.risk_alert.no_contacts").exists()
    assert Flag.objects.filter(conversation=risky_turn.conversation).exists()  # flag all the same


def test_contact_addresses_are_validated(study):
    study.safety_contacts = "lead@example.org, not-an-address"
    with pytest.raises(ValidationError, match="Not an email address: not-an-address"):
        study.full_clean()
