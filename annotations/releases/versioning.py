"""Semantic versions with Croissant's meaning, checked against the previous release.

PATCH: the same records re-serialised; MINOR: records added; MAJOR: records removed or changed.
A new version must be higher than the previous one and bump at least the part the data change
requires, so a version number never understates what changed.
"""

from __future__ import annotations

from dataclasses import dataclass

Version = tuple[int, int, int]


@dataclass(frozen=True)
class ReleaseDiff:
    added: list[str]
    removed: list[str]
    changed: list[str]
    unchanged: int

    @property
    def required_bump(self) -> str:
        if self.removed or self.changed:
            return "major"
        if self.added:
            return "minor"
        return "patch"

    def summary(self) -> str:
        return f"{len(self.added)} added, {len(self.removed)} removed, {len(self.changed)} changed, {self.unchanged} unchanged"


def diff_hashes(old: dict[str, str], new: dict[str, str]) -> ReleaseDiff:
    """Compare conversationId -> content sha256 maps of two releases."""
    added = sorted(set(new) - set(old))
    removed = sorted(set(old) - set(new))
    common = set(old) & set(new)
    changed = sorted(cid for cid in common if old[cid] != new[cid])
    return ReleaseDiff(added, removed, changed, len(common) - len(changed))


def parse_version(text: str) -> Version:
    major, minor, patch = (int(part) for part in text.split("."))
    return major, minor, patch


def bump_of(previous: Version, new: Version) -> str | None:
    """Which part the new version bumps, or None when it is not higher."""
    if new <= previous:
        return None
    if new[0] > previous[0]:
        return "major"
    if new[1] > previous[1]:
        return "minor"
    return "patch"


_ORDER = {"patch": 0, "minor": 1, "major": 2}


def version_problem(previous: str, new: str, diff: ReleaseDiff) -> str | None:
    """Why ``new`` is not an acceptable successor of ``previous`` for this diff, or None."""
    bump = bump_of(parse_version(previous), parse_version(new))
    if bump is None:
        return f"version {new} is not higher than the previous release {previous}"
    required = diff.required_bump
    if _ORDER[bump] < _ORDER[required]:
        return (
            f"since {previous}: {diff.summary()}; that needs a {required.upper()} version "
            f"(e.g. {suggest(previous, required)}), not {new}"
        )
    return None


def suggest(previous: str, bump: str) -> str:
    major, minor, patch = parse_version(previous)
    if bump == "major":
        return f"{major + 1}.0.0"
    if bump == "minor":
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}"
