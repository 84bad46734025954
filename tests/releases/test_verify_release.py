"""verify_release recomputes every hash and row count; its exit status says whether a release holds."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from annotations.releases.manifest import verify_folder
from tests.processes import finish_process

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def writable_copy(folder: Path, tmp_path: Path) -> Path:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    for path in [copy, *copy.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return copy


def start_verify(folder: Path, data_dir: Path) -> subprocess.Popen:
    """``manage.py verify_release`` as an operator runs it: no database of the tests."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "attune_collect.settings"}
    env.pop("DATABASE_URL", None)
    return subprocess.Popen(
        [sys.executable, "manage.py", "verify_release", str(folder)],
        cwd=ROOT,
        env={**env, "ATTUNE_DATA_DIR": str(data_dir)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen) -> subprocess.CompletedProcess:
    stdout, stderr = finish_process(process, timeout_s=300)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def verify_in_a_process(folder: Path, data_dir: Path) -> subprocess.CompletedProcess:
    return finish(start_verify(folder, data_dir))


def test_an_intact_release_holds(build):
    result = verify_folder(Path(build().folder))
    assert result.ok and result.files_checked > 24


def test_a_flipped_byte_is_caught(build, tmp_path):
    copy = writable_copy(Path(build().folder), tmp_path)
    target = sorted((copy / "conversations").iterdir())[3]
    data = bytearray(target.read_bytes())
    data[10] ^= 0x01
    target.write_bytes(bytes(data))
    result = verify_folder(copy)
    assert not result.ok
    assert result.problems == [f"conversations/{target.name}: sha256 differs from the manifest"]


def test_missing_and_extra_files_are_reported(build, tmp_path):
    copy = writable_copy(Path(build().folder), tmp_path)
    (copy / "tables" / "turns.jsonl").unlink()
    (copy / "notes.txt").write_text("added later")
    problems = verify_folder(copy).problems
    assert (
        "tables/turns.jsonl: missing" in problems
        and "notes.txt: not listed in the manifest" in problems
    )


def test_the_command_exit_status(build, tmp_path):
    folder = Path(build().folder)
    copy = writable_copy(folder, tmp_path)
    parquet = copy / "tables" / "panas.parquet"
    data = bytearray(parquet.read_bytes())
    data[len(data) // 2] ^= 0xFF
    parquet.write_bytes(bytes(data))
    # Two operators' processes, side by side: each starts Django (most of their time).
    ok, bad = [
        finish(p)
        for p in (start_verify(folder, tmp_path / "d1"), start_verify(copy, tmp_path / "d2"))
    ]
    assert ok.returncode == 0, ok.stderr
    assert "release holds" in ok.stdout
    assert bad.returncode == 1
    assert "tables/panas.parquet: sha256 differs" in bad.stderr
