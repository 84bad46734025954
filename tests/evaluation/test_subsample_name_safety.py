"""--subsample (command and admin) names one of the release's own subsamples, never a path:
a path would let a staff user read any file on the server, its lines shown back as "missing
files". A subsample line that is not a plain file name is a clear error, not a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.management import CommandError
from django.urls import reverse

from attunebench.release import DataFolderError, load_conversations
from evaluation.models import EvaluationRun
from evaluation.services.errors import EvaluationError
from evaluation.services.planning import plan_run
from tests.evaluation.conftest import ADD, evaluate_demo, start_form

pytestmark = pytest.mark.django_db
SECRET = "root:x:0:0:secret-line"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text(f"{SECRET}\n", encoding="utf-8")
    return path


def evaluate(*extra: str) -> str:
    return evaluate_demo("/nonexistent-out", *extra)


def test_the_command_refuses_a_path(demo_release, demo_models, secret):
    for name in (str(secret), "../secret.txt", "sub/sample3", "..", "..\\sample3"):
        with pytest.raises(CommandError) as caught:
            evaluate("--subsample", name)
        assert "subsample" in str(caught.value) and SECRET not in str(caught.value)
    assert not EvaluationRun.objects.exists()


def test_the_plan_accepts_the_release_subsample_by_name(run_request):
    for name in ("sample3", "sample3.txt", "3"):
        assert len(plan_run(run_request(subsample=name)).conversations) == 3


def test_a_name_in_the_working_directory_is_not_read(run_request, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sample9").write_text(f"{SECRET}\n", encoding="utf-8")
    with pytest.raises(EvaluationError) as caught:
        plan_run(run_request(subsample="sample9"))
    assert "no subsample" in caught.value.message and SECRET not in caught.value.message


def test_the_admin_form_refuses_a_path_without_showing_the_file(
    researcher_client, demo_release, demo_models, secret
):
    for name in (str(secret), "../../secret.txt"):
        page = researcher_client.post(reverse(ADD), start_form(demo_release, demo_models, name))
        assert page.status_code == 200
        assert SECRET not in page.text
        assert "a subsample name" in page.text
    assert not EvaluationRun.objects.exists()


def rewrite_subsample(release, text: str) -> None:
    path = Path(release.folder) / "subsamples" / "sample3.txt"
    os.chmod(path.parent, 0o755)
    os.chmod(path, 0o644)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("line", ["../MANIFEST.json", "/etc/hostname", "..", "a\\b.json"])
def test_a_subsample_line_that_is_not_a_file_name_is_a_clear_error(
    researcher_client, demo_release, demo_models, line
):
    rewrite_subsample(demo_release, f"{line}\n")
    # The engine's own check (a reference folder has no manifest to catch the edit) ...
    with pytest.raises(DataFolderError, match="is not a conversation file name"):
        load_conversations(demo_release.folder, "sample3")
    # ... and in the admin the changed release is refused, with a message, not a 500.
    page = researcher_client.post(reverse(ADD), start_form(demo_release, demo_models, "sample3"))
    assert page.status_code == 200
    assert "subsamples/sample3.txt: sha256 differs" in page.text
