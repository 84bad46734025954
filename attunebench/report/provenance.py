"""What every figure and file of a report is traced to: release hash, prompt version, run id."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Provenance:
    release_hash: str
    prompt_version: str
    run_id: str

    def label(self) -> str:
        return f"Release {self.release_hash} · prompt {self.prompt_version} · run {self.run_id}"
