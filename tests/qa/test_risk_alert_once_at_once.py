"""Two workers asked for one message's risk alert at the same moment (the word check's task and
the moderation model's, or a task and the sweep's resend) send the contacts one email, not two."""

from __future__ import annotations

import threading
import time

import pytest

from annotations.models import AuditEntry
from annotations.qa.services import risk_alerts
from annotations.qa.services.risk_alerts import NOTIFIED, run_risk_alert
from tests.threads import in_a_thread

pytestmark = pytest.mark.django_db(transaction=True)  # each worker its own connection
WAIT_S = 20.0
SLOW_MAIL_S = 0.3  # long enough for the other worker to reach its decision meanwhile


def test_two_workers_at_once_send_one_email(risky_turn, mailoutbox, monkeypatch):
    real_send = risk_alerts.send_mail

    def slow_mail_server(*args, **kwargs):
        time.sleep(SLOW_MAIL_S)
        return real_send(*args, **kwargs)

    monkeypatch.setattr(risk_alerts, "send_mail", slow_mail_server)
    start = threading.Barrier(2, timeout=WAIT_S)
    sent: list[int] = []

    def worker() -> None:
        start.wait()
        sent.append(run_risk_alert(risky_turn.pk))

    threads = [in_a_thread(worker) for _ in range(2)]
    for thread in threads:
        thread.join(WAIT_S)
    assert sorted(sent) == [0, 2]  # one worker told both contacts, the other nobody
    assert len(mailoutbox) == 1
    assert AuditEntry.objects.filter(action=NOTIFIED, target_id=str(risky_turn.pk)).count() == 1
