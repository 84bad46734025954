"""Finding the conversations of a data folder: one of our releases or a reference folder.

A release keeps its files in ``conversations/`` and its subsamples in ``subsamples/<name>.txt``
(one file name per line); a reference folder (``Test Samples/Sample200``) holds the
``conversation_*.json`` files directly, and its subsamples are sibling folders, so there
``--subsample`` may also name a file of file names anywhere.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from attunebench.errors import AttuneBenchError
from attunebench.reader import FormatError, iter_conversation_files, read_conversation_file
from attunebench.records import Conversation


@dataclass(frozen=True)
class SourcedConversation:
    conversation: Conversation
    source_file: str  # the file name, as the run output's ``source_file``


class DataFolderError(AttuneBenchError):
    pass


def conversation_folder(data: Path) -> Path:
    nested = data / "conversations"
    return nested if nested.is_dir() else data


def plain_name(name: str) -> bool:
    """A bare file name: no folder part (either separator) and not ``.``/``..``, so it can only
    name a file inside the folder it is looked up in."""
    return bool(name) and "/" not in name and "\\" not in name and name not in (".", "..")


def check_subsample_name(name: str) -> None:
    """Refuse a subsample that is not a bare name (the file is not read, so nothing of it shows)."""
    if not plain_name(name) or ".." in name:
        raise DataFolderError(
            f"the subsample must be a subsample name of the release (e.g. sample50), not a "
            f"path: {name[:80]!r}"
        )


def release_subsample_file(data: Path, name: str) -> Path:
    """``sample50``, ``50`` or ``sample50.txt`` in the release's own ``subsamples/``, nothing
    else: the name comes from staff (admin form, ``evaluate``), and a path would let them read
    any file of the server."""
    check_subsample_name(name)
    stem = name.removesuffix(".txt")
    stem = f"sample{stem}" if stem.isdigit() else stem
    folder = data / "subsamples"
    candidate = folder / f"{stem}.txt"
    # resolve(): a symbolic link in subsamples/ must not lead out of the release either.
    if candidate.is_file() and candidate.resolve().is_relative_to(folder.resolve()):
        return candidate
    raise DataFolderError(f"no subsample {name!r} (looked for subsamples/{stem}.txt)")


def subsample_file(data: Path, name: str) -> Path:
    """A release's subsample by name (see ``release_subsample_file``); for a reference folder,
    whose subsamples are sibling folders, the name may also be a path to a file of file names
    (the command-line benchmark, run by whoever owns the files)."""
    if (data / "conversations").is_dir():
        return release_subsample_file(data, name)
    if Path(name).is_file():
        return Path(name)
    return release_subsample_file(data, name)


def subsample_names(path: Path) -> list[str]:
    """The file names a subsample lists, one a line. Never split on whitespace: a
    conversationId (so a file name) may hold a space. Blank lines and the spaces a hand edit
    leaves around a name are ignored. A line that is not a bare file name is an error: it would
    read a file outside the conversations."""
    lines = path.read_text(encoding="utf-8").splitlines()
    names = [name for name in (line.strip() for line in lines) if name]
    for number, name in enumerate(names, 1):
        if not plain_name(name):
            raise DataFolderError(
                f"subsample {path.name}: entry {number} {name[:80]!r} is not a conversation "
                "file name"
            )
    return names


def load_conversations(data: str | Path, subsample: str | None = None) -> list[SourcedConversation]:
    """Every conversation of the folder (or of the subsample), sorted by file name.

    A file that does not read is an error naming the file: a benchmark on silently fewer
    conversations would not be comparable with anything.
    """
    data = Path(data)
    if not data.is_dir():
        raise DataFolderError(f"no data folder at {data}")
    folder = conversation_folder(data)
    if subsample is None:
        paths = list(iter_conversation_files(folder))
    else:
        names = subsample_names(subsample_file(data, subsample))
        paths = sorted(folder / name for name in names)
        missing = [path.name for path in paths if not path.is_file()]
        if missing:
            raise DataFolderError(f"subsample {subsample!r} names missing files: {missing[:5]}")
    conversations = []
    for path in paths:
        try:
            conversations.append(SourcedConversation(read_conversation_file(path), path.name))
        except FormatError as exc:
            raise DataFolderError(f"{path.name}: {exc}") from exc
    return conversations


@dataclass(frozen=True)
class ReleaseIdentity:
    name: str
    version: str
    content_hash: str  # a release's: the sha256 of its MANIFEST.json, as the platform records it


def release_identity(data: Path) -> ReleaseIdentity:
    """Name, version and content hash of a data folder. One of our releases is named by its
    MANIFEST.json (its hash is the release's content hash, as the platform stores it); another
    folder by its name and a sha256 over its conversation files (names and bytes)."""
    manifest = data / "MANIFEST.json"
    if manifest.is_file():
        raw = manifest.read_bytes()
        try:
            parsed = json.loads(raw)
        except ValueError as exc:
            raise DataFolderError(f"{manifest} is not JSON ({exc})") from None
        info = parsed if isinstance(parsed, dict) else {}
        return ReleaseIdentity(
            str(info.get("name") or data.name),
            str(info.get("version") or ""),
            hashlib.sha256(raw).hexdigest(),
        )
    digest = hashlib.sha256()
    for path in iter_conversation_files(conversation_folder(data)):
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes())
    return ReleaseIdentity(data.name, "", digest.hexdigest())
