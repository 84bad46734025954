"""A run starts only on a release whose files still match its MANIFEST.json: a deleted
conversation would silently shrink the benchmark, a changed one would be scored under the
frozen hash. The check runs once per run (in the plan), never per unit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.management import CommandError

from evaluation.models import EvaluationRun
from evaluation.services import planning
from tests.evaluation.conftest import evaluate_demo

pytestmark = pytest.mark.django_db


def evaluate(out: Path) -> str:
    return evaluate_demo(out)


def a_conversation(release) -> Path:
    folder = Path(release.folder) / "conversations"
    os.chmod(folder, 0o755)
    path = sorted(folder.iterdir())[1]
    os.chmod(path, 0o644)
    return path


def test_a_deleted_conversation_refuses_the_run(demo_release, tmp_path):
    path = a_conversation(demo_release)
    path.unlink()
    with pytest.raises(CommandError, match=f"conversations/{path.name}: missing"):
        evaluate(tmp_path / "out")
    assert not EvaluationRun.objects.exists()


def test_a_changed_conversation_refuses_the_run(demo_release, tmp_path):
    path = a_conversation(demo_release)
    path.write_text(path.read_text(encoding="utf-8").replace("a", "b", 1), encoding="utf-8")
    with pytest.raises(CommandError, match=f"conversations/{path.name}: sha256 differs"):
        evaluate(tmp_path / "out")
    assert not EvaluationRun.objects.exists()


def test_the_release_is_verified_once_per_run(demo_release, tmp_path, monkeypatch):
    calls = []
    verify = planning.verify_folder

    def counted(*args, **kwargs):
        calls.append(args)
        return verify(*args, **kwargs)

    monkeypatch.setattr(planning, "verify_folder", counted)
    evaluate(tmp_path / "out")
    assert EvaluationRun.objects.get().units.count() == 6
    assert len(calls) == 1
