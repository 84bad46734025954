"""Semantic versions with Croissant's meaning, checked against the previous release.

PATCH: the same records re-serialised; MINOR: records added; MAJOR: records removed or changed.
A new version must be higher than the previous one and bump at least the part the data change
requires, so a version number never understates what changed. Model configurations count as
records: a new configuration is an addition; a configuration row that changed (its prompt text
published since) or a conversation now under another configuration is a change.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from annotations.releases.configurations import ReleasedConfigurations

Version = tuple[int, int, int]
_ORDER = {"patch": 0, "minor": 1, "major": 2}


@dataclass(frozen=True)
class ConfigDiff:
    """Configuration changes between two releases (model_configs and conversations tables)."""

    compared: bool  # False when the older release predates the model_configs table
    added: list[str] = field(default_factory=list)  # model_config_id
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # same id, another released row
    # conversations in both releases whose configuration differs: (conversationId, old, new)
    reassigned: list[tuple[str, str | None, str | None]] = field(default_factory=list)

    @property
    def required_bump(self) -> str:
        if self.removed or self.changed or self.reassigned:
            return "major"
        return "minor" if self.added else "patch"

    def summary(self) -> str:
        if not self.compared:
            return "configurations not compared (the older release has no model_configs table)"
        return (
            f"configurations: {len(self.added)} added, {len(self.removed)} removed, "
            f"{len(self.changed)} changed, {len(self.reassigned)} conversations under another"
        )


def diff_configurations(
    old: ReleasedConfigurations | None, new: ReleasedConfigurations | None
) -> ConfigDiff:
    if old is None or new is None:
        return ConfigDiff(compared=False)
    common = set(old.rows) & set(new.rows)
    reassigned = [
        (cid, old.of_conversation[cid], new.of_conversation[cid])
        for cid in sorted(set(old.of_conversation) & set(new.of_conversation))
        if old.of_conversation[cid] != new.of_conversation[cid]
    ]
    return ConfigDiff(
        compared=True,
        added=sorted(set(new.rows) - set(old.rows)),
        removed=sorted(set(old.rows) - set(new.rows)),
        changed=sorted(c for c in common if old.rows[c] != new.rows[c]),
        reassigned=reassigned,
    )


@dataclass(frozen=True)
class ReleaseDiff:
    added: list[str]
    removed: list[str]
    changed: list[str]
    unchanged: int
    configurations: ConfigDiff = ConfigDiff(compared=False)

    @property
    def required_bump(self) -> str:
        if self.removed or self.changed:
            return "major"
        bump = "minor" if self.added else "patch"
        return max(bump, self.configurations.required_bump, key=_ORDER.__getitem__)

    def summary(self) -> str:
        text = f"{len(self.added)} added, {len(self.removed)} removed, {len(self.changed)} changed, {self.unchanged} unchanged"
        if self.configurations.compared:
            text += f"; {self.configurations.summary()}"
        return text


def diff_hashes(
    old: dict[str, str], new: dict[str, str], configurations: ConfigDiff | None = None
) -> ReleaseDiff:
    """Compare conversationId -> content sha256 maps of two releases (and their configurations,
    when given: ``diff_configurations``)."""
    added = sorted(set(new) - set(old))
    removed = sorted(set(old) - set(new))
    common = set(old) & set(new)
    changed = sorted(cid for cid in common if old[cid] != new[cid])
    return ReleaseDiff(
        added,
        removed,
        changed,
        len(common) - len(changed),
        configurations or ConfigDiff(compared=False),
    )


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
