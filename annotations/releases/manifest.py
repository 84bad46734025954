"""MANIFEST.json: every file of a release with its size, sha256 and row count; and verification.

Pure (no Django), so ``verify_release`` works on any copy of a release folder.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

SCHEMA_VERSION = "attune-release/1"
MANIFEST_NAME = "MANIFEST.json"
_CHUNK = 1 << 20


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while block := stream.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def count_rows(path: Path) -> int | None:
    """Rows of a data file: Parquet rows, JSONL lines, subsample lines; None for other files."""
    if path.suffix == ".parquet":
        return pq.ParquetFile(path).metadata.num_rows
    if path.suffix in (".jsonl", ".txt"):
        with path.open("rb") as stream:
            return sum(1 for line in stream if line.strip())
    return None


def file_entry(folder: Path, path: Path) -> dict[str, Any]:
    return {
        "path": path.relative_to(folder).as_posix(),
        "bytes": path.stat().st_size,
        "sha256": sha256_file(path),
        "rows": count_rows(path),
    }


def release_files(folder: Path, *, exclude: tuple[str, ...] = (MANIFEST_NAME,)) -> list[Path]:
    return sorted(
        (
            p
            for p in folder.rglob("*")
            if p.is_file() and p.relative_to(folder).as_posix() not in exclude
        ),
        key=lambda p: p.relative_to(folder).as_posix(),
    )


def write_manifest(folder: Path, name: str, version: str) -> tuple[dict[str, Any], str]:
    """Write MANIFEST.json; returns it and its sha256, the release's content hash."""
    manifest = {
        "schema_version": SCHEMA_VERSION,
        "name": name,
        "version": version,
        "files": [file_entry(folder, path) for path in release_files(folder)],
    }
    text = json.dumps(manifest, ensure_ascii=False, indent=1) + "\n"
    (folder / MANIFEST_NAME).write_text(text, encoding="utf-8")
    return manifest, hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class VerifyResult:
    problems: list[str]
    files_checked: int
    content_hash: str | None

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_folder(folder: Path, expected_hash: str | None = None) -> VerifyResult:
    """Recompute every hash and row count listed in MANIFEST.json; report every difference."""
    manifest_path = folder / MANIFEST_NAME
    if not manifest_path.is_file():
        return VerifyResult([f"{MANIFEST_NAME} is missing"], 0, None)
    raw = manifest_path.read_bytes()
    content_hash = hashlib.sha256(raw).hexdigest()
    problems: list[str] = []
    if expected_hash and content_hash != expected_hash:
        problems.append(
            f"{MANIFEST_NAME} hash {content_hash[:12]} differs from the recorded {expected_hash[:12]}"
        )
    try:
        manifest = json.loads(raw)
    except json.JSONDecodeError as exc:
        return VerifyResult([f"{MANIFEST_NAME} is not valid JSON: {exc.msg}"], 0, content_hash)
    listed = {entry["path"]: entry for entry in manifest.get("files", [])}
    for relative, entry in listed.items():
        path = folder / relative
        if not path.is_file():
            problems.append(f"{relative}: missing")
            continue
        if path.stat().st_size != entry["bytes"]:
            problems.append(
                f"{relative}: {path.stat().st_size} bytes, manifest says {entry['bytes']}"
            )
        if sha256_file(path) != entry["sha256"]:
            problems.append(f"{relative}: sha256 differs from the manifest")
            continue
        try:
            rows = count_rows(path)
        except Exception as exc:  # a corrupt Parquet file must be reported, not crash the check
            problems.append(f"{relative}: unreadable ({type(exc).__name__})")
            continue
        if rows != entry.get("rows"):
            problems.append(f"{relative}: {rows} rows, manifest says {entry.get('rows')}")
    for path in release_files(folder):
        relative = path.relative_to(folder).as_posix()
        if relative not in listed:
            problems.append(f"{relative}: not listed in the manifest")
    return VerifyResult(problems, len(listed), content_hash)
