"""A damaged MANIFEST.json is a failed verification with a reason, never a traceback: the
manifest is the one file verify_release must not trust."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotations.releases.manifest import verify_folder
from tests.releases.test_verify_release import verify_in_a_process, writable_copy

pytestmark = pytest.mark.django_db
PREFIX = "MANIFEST.json is not a valid manifest: "


def damaged(manifest: dict) -> dict[str, bytes]:
    first = manifest["files"][0]
    return {
        "a list": json.dumps(manifest["files"]).encode(),
        "no path": json.dumps({**manifest, "files": [{"bytes": 1}]}).encode(),
        "bad utf-8": b'{"files": [], "name": "\xff\xfe"}',
        "files null": json.dumps({**manifest, "files": None}).encode(),
        "entry a string": json.dumps({**manifest, "files": ["README.md"]}).encode(),
        "bytes a string": json.dumps({**manifest, "files": [{**first, "bytes": "9"}]}).encode(),
        "path escapes": json.dumps({**manifest, "files": [{**first, "path": "../x"}]}).encode(),
    }


@pytest.fixture
def copy(build, tmp_path) -> Path:
    return writable_copy(Path(build().folder), tmp_path)


def test_each_damage_is_reported(copy):
    manifest = json.loads((copy / "MANIFEST.json").read_text(encoding="utf-8"))
    for what, raw in damaged(manifest).items():
        (copy / "MANIFEST.json").write_bytes(raw)
        result = verify_folder(copy)
        assert not result.ok, what
        assert result.problems[-1].startswith(PREFIX), (what, result.problems)


def test_the_command_exits_1_without_a_traceback(copy, tmp_path):
    (copy / "MANIFEST.json").write_text("[]", encoding="utf-8")
    done = verify_in_a_process(copy, tmp_path / "d")
    assert done.returncode == 1
    assert PREFIX + "not a JSON object" in done.stderr
    assert "Traceback" not in done.stderr
