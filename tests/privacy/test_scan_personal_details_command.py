"""manage.py scan_personal_details scans what is unscanned or was scanned by an older detector
version, keeps reviewed findings, and is idempotent; completion and import queue the scan."""

import pytest
from django.core.management import call_command

from annotations.qa.models import FindingStatus, PersonalDetailFinding, PersonalDetailScan
from annotations.qa.personal_details import patterns
from tests.factories import build_record, build_turn, make_conversation

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(study):
    record = build_record(turns=(build_turn(1, user_message="call 020 7946 0958 or jo@mail.com"),))
    return make_conversation(study, record=record)


def test_scans_the_unscanned_then_nothing_more(study, conversation, capsys):
    call_command("scan_personal_details", study=[study.slug])
    assert "2 new finding(s), 2 awaiting review" in capsys.readouterr().out
    call_command("scan_personal_details", study=[study.slug])
    assert "0 new finding(s), 2 awaiting review" in capsys.readouterr().out


def test_an_older_detector_version_is_scanned_again_and_reviews_stay(
    study, conversation, monkeypatch
):
    call_command("scan_personal_details", study=[study.slug])
    PersonalDetailFinding.objects.filter(kind="email").update(status=FindingStatus.DISMISSED)
    monkeypatch.setattr(patterns, "PATTERN_VERSION", "patterns-999")
    call_command("scan_personal_details", study=[study.slug])
    assert PersonalDetailScan.objects.get().detector_version == "patterns-999"
    assert sorted(PersonalDetailFinding.objects.values_list("kind", "status")) == [
        ("email", "dismissed"),
        ("phone", "pending"),
    ]


def test_an_import_queues_the_scan(study, sent_tasks, tmp_path, django_capture_on_commit_callbacks):
    from annotations.interchange.importer import import_folder
    from attunebench.writer import write_conversation_file

    write_conversation_file(build_record(), tmp_path)
    with django_capture_on_commit_callbacks(execute=True):
        import_folder(tmp_path, study.slug)
    assert sent_tasks["qa.scan_study_personal_details"] == [study.pk]
