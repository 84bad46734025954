"""Releases hold no recruitment id, token, key or internal pseudonym; withdrawn/excluded are left out."""

import gzip
from pathlib import Path

import pytest

from annotations.models import Conversation, ConversationState, ModelEndpoint, Participant
from annotations.releases.services import build_release, create_release

pytestmark = pytest.mark.django_db


@pytest.fixture
def sensitive_study(demo_study, monkeypatch):
    participants = list(Participant.objects.filter(study=demo_study).order_by("pk"))
    for index, participant in enumerate(participants):
        participant.prolific_pid = f"PROLIFICPID{index:04d}XYZ"
        participant.prolific_study_id = "STUDYID-SECRET-42"
        participant.prolific_session_id = f"SESSIONID-SECRET-{index}"
        participant.save()
    ModelEndpoint.objects.filter(model_name="listener").update(api_key_env="DEMO_PROVIDER_KEY")
    monkeypatch.setenv("DEMO_PROVIDER_KEY", "sk-live-SECRET-KEY-VALUE")
    Participant.objects.filter(pk=participants[0].pk).update(withdrawn=True)
    Participant.objects.filter(pk=participants[1].pk).update(is_preview=True)
    Conversation.objects.filter(participant=participants[2]).update(
        state=ConversationState.EXCLUDED
    )
    return demo_study, participants


def all_bytes(folder: Path) -> bytes:
    chunks = [p.read_bytes() for p in folder.rglob("*") if p.is_file()]
    archive = folder.parent / f"attunebench-{folder.name}.tar.gz"
    chunks.append(gzip.decompress(archive.read_bytes()))
    return b"\n".join(chunks)


def test_no_recruitment_id_key_or_internal_pseudonym_anywhere(sensitive_study, releases_dir):
    study, participants = sensitive_study
    release = build_release(create_release(name="attunebench", version="1.0.0", studies=[study]).pk)
    content = all_bytes(Path(release.folder))
    for secret in (
        b"PROLIFICPID",
        b"STUDYID-SECRET",
        b"SESSIONID-SECRET",
        b"sk-live-SECRET",
        b"DEMO_PROVIDER_KEY",
    ):
        assert secret not in content, secret
    for participant in participants:
        assert participant.pseudonym.encode() not in content
        assert participant.external_id.encode() not in content


def test_withdrawn_preview_and_excluded_are_left_out_and_counted(sensitive_study, releases_dir):
    study, _ = sensitive_study
    release = build_release(create_release(name="attunebench", version="1.0.0", studies=[study]).pk)
    assert release.counts["conversations"] == 21
    assert release.counts["left_out"] == {"withdrawn": 1, "preview": 1, "excluded": 1}
    card = (Path(release.folder) / "README.md").read_text()
    assert "left out (withdrawn): 1" in card and "left out (excluded): 1" in card


def test_pseudonyms_are_stable_across_releases(sensitive_study, releases_dir):
    study, _ = sensitive_study
    one = build_release(create_release(name="attunebench", version="1.0.0", studies=[study]).pk)
    two = build_release(create_release(name="other-dataset", version="1.0.0", studies=[study]).pk)
    names = lambda r: sorted(p.name for p in (Path(r.folder) / "conversations").iterdir())  # noqa: E731
    assert names(one) == names(two)
    read = lambda r: (Path(r.folder) / "tables" / "participants.jsonl").read_text()  # noqa: E731
    assert read(one) == read(two)
