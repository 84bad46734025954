"""A deterministic .tar.gz of a release folder: same files, same bytes (no times, owners)."""

from __future__ import annotations

import gzip
import tarfile
from pathlib import Path

from annotations.releases.manifest import release_files

SUFFIX = ".tar.gz"


def write_archive(folder: Path, target: Path, staging: Path) -> Path:
    """Write the archive to be published as ``target`` into ``staging`` (a name of the
    caller's own); entries sorted, mtime 0, owner 0, mode from the file type. The caller
    renames ``staging`` to ``target``: the release build does it under its claim, so a worker
    that lost its claim never replaces the archive of a release another worker froze.

    Every entry sits under the archive's own name without ``.tar.gz``: extracting
    ``attunebench-1.0.0.tar.gz`` gives ``attunebench-1.0.0/``, the convention researchers
    expect, and never a bare ``1.0.0/`` that another release's archive would also unpack into.
    """
    root = archive_root(target)
    with (
        staging.open("wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for relative in release_files(folder, exclude=()):
            path = folder / relative
            info = tarfile.TarInfo(f"{root}/{relative}")
            info.size = path.stat().st_size
            info.mtime = 0
            info.mode = 0o444
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with path.open("rb") as stream:
                tar.addfile(info, stream)
    return staging


def archive_root(target: Path) -> str:
    """The folder an archive unpacks into: its file name without the ``.tar.gz``."""
    if not target.name.endswith(SUFFIX):
        raise ValueError(f"a release archive is named <name>-<version>{SUFFIX}, not {target.name}")
    return target.name.removesuffix(SUFFIX)
