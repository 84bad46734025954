"""MANIFEST.json: every file of a release with its size, sha256 and row count; and verification.

Pure (no Django), so ``verify_release`` works on any copy of a release folder.
"""

from __future__ import annotations

import hashlib
import json
import os
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


def file_entry(folder: Path, relative: str, known_sha256: str | None = None) -> dict[str, Any]:
    """One manifest entry. ``known_sha256`` skips re-reading a file hashed while it was written."""
    path = folder / relative
    return {
        "path": relative,
        "bytes": path.stat().st_size,
        "sha256": known_sha256 or sha256_file(path),
        "rows": count_rows(path),
    }


def release_files(folder: Path, *, exclude: tuple[str, ...] = (MANIFEST_NAME,)) -> list[str]:
    """Relative POSIX paths of every file under ``folder``, sorted (a release has many files:
    ``os.walk`` with string paths is several times faster than ``Path.rglob`` here)."""
    found = []
    for directory, _, names in os.walk(folder):
        prefix = os.path.relpath(directory, folder).replace(os.sep, "/")
        for name in names:
            relative = name if prefix == "." else f"{prefix}/{name}"
            if relative not in exclude:
                found.append(relative)
    return sorted(found)


def write_manifest(
    folder: Path,
    name: str,
    version: str,
    entries: list[dict[str, Any]],
    personal_details: dict[str, Any] | None = None,
    instrument: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], str]:
    """Write MANIFEST.json from the entries of every other file; returns it and its sha256,
    the release's content hash. ``instrument``: its name, version and content hash, and its
    version (content hash) in each language of the conversations (``cards.instrument_versions``)."""
    listed = sorted(entry["path"] for entry in entries)
    actual = release_files(folder)
    if listed != actual:  # a file written but not listed (or the reverse) would fail verification
        raise RuntimeError(
            f"manifest entries do not match the folder: {sorted(set(listed) ^ set(actual))[:5]}"
        )
    manifest: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "name": name,
        "version": version,
        "files": sorted(entries, key=lambda entry: entry["path"]),
    }
    if personal_details:  # the redaction mode, detectors and versions, spans per kind
        manifest["personal_details"] = personal_details
    if instrument:  # added with languages: a reader of older manifests finds no key
        manifest["instrument"] = instrument
    text = json.dumps(manifest, ensure_ascii=False, indent=1) + "\n"
    (folder / MANIFEST_NAME).write_text(text, encoding="utf-8")
    return manifest, hashlib.sha256(text.encode("utf-8")).hexdigest()


class InvalidManifest(ValueError):
    """MANIFEST.json does not have the shape ``write_manifest`` gives it (the message says why)."""


def manifest_entries(raw: bytes) -> dict[str, dict[str, Any]]:
    """The entries of a MANIFEST.json by path, after checking its shape: the manifest is the
    file a damaged (or hand-edited) release copy is checked against, so it is not trusted."""
    try:
        manifest = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InvalidManifest(f"not UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise InvalidManifest(f"not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(manifest, dict):
        raise InvalidManifest(f"not a JSON object but {_json_type(manifest)}")
    files = manifest.get("files")
    if not isinstance(files, list):
        raise InvalidManifest(f'"files" is not a list but {_json_type(files)}')
    listed: dict[str, dict[str, Any]] = {}
    for number, entry in enumerate(files, 1):
        _check_entry(number, entry)
        if entry["path"] in listed:
            raise InvalidManifest(f"entry {number} repeats the path {entry['path']!r}")
        listed[entry["path"]] = entry
    return listed


def _json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, as the person who edited the file wrote it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    names = {dict: "an object", list: "an array", str: "a string", int: "a number"}
    return names.get(type(value), "a number")


def _check_entry(number: int, entry: Any) -> None:
    where = f"entry {number} of files"
    if not isinstance(entry, dict):
        raise InvalidManifest(f"{where} is not an object")
    path = entry.get("path")
    if not isinstance(path, str) or not path:
        raise InvalidManifest(f'{where} has no "path"')
    # A path leading out of the folder would make the check read (and hash) any file.
    if path.startswith("/") or "\\" in path or ".." in path.split("/"):
        raise InvalidManifest(f"{where} has a path outside the release: {path[:80]!r}")
    size = entry.get("bytes")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise InvalidManifest(f'{where} ({path}) has no byte count in "bytes"')
    digest = entry.get("sha256")
    if not isinstance(digest, str) or len(digest) != 64:
        raise InvalidManifest(f'{where} ({path}) has no sha256 in "sha256"')
    rows = entry.get("rows")
    if rows is not None and (not isinstance(rows, int) or isinstance(rows, bool)):
        raise InvalidManifest(f'{where} ({path}) has a "rows" that is not a count')


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
        listed = manifest_entries(raw)
    except InvalidManifest as exc:
        problems.append(f"{MANIFEST_NAME} is not a valid manifest: {exc}")
        return VerifyResult(problems, 0, content_hash)
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
    for relative in release_files(folder):
        if relative not in listed:
            problems.append(f"{relative}: not listed in the manifest")
    return VerifyResult(problems, len(listed), content_hash)
