"""How the Django side feeds the pure engine: model endpoints, run options and conversations.

Everything the engine needs is rebuilt from rows here, in one place, so the planner, the
workers and the scorer can never disagree on what a run means.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from annotations.models import ModelEndpoint
from attune_collect.llm import EndpointConfig
from attunebench.prompts import PROMPTS_DIR
from attunebench.reader import read_conversation_file
from attunebench.records import Conversation
from attunebench.release import (
    SourcedConversation,
    conversation_folder,
    load_conversations,
)
from attunebench.runner import RunOptions


def model_spec(endpoint: ModelEndpoint) -> EndpointConfig:
    """The engine's view of a registry endpoint: its gateway settings (the key stays in the
    environment), named by its model string, so an evaluated model and a judge on one model
    share one set of limits as they share one provider quota. The endpoint's system prompt is
    for participant chat; the benchmark has its own.
    """
    config = endpoint.gateway_config()
    return replace(config, name=config.model)


def run_options(
    *, panas_strategy: str, judges: Iterable[ModelEndpoint], prompt_set: str
) -> RunOptions:
    """Options of a run; the pairwise presentation keeps the engine's default seed, so runs
    share call-cache entries with command-line runs of the engine."""
    return RunOptions(
        panas_strategy=panas_strategy,
        judges=tuple(model_spec(judge) for judge in judges),
        prompt_set=prompt_set,
    )


def prompt_sets() -> list[str]:
    """The prompt sets shipped with the engine (folders of templates)."""
    return sorted(p.name for p in PROMPTS_DIR.iterdir() if p.is_dir() and any(p.glob("*.txt")))


def release_conversations(folder: str | Path, subsample: str = "") -> Sequence[SourcedConversation]:
    """The conversations a run covers (raises ``DataFolderError`` naming what is wrong)."""
    return load_conversations(folder, subsample or None)


def read_conversation(folder: str | Path, source_file: str) -> Conversation:
    return read_conversation_file(conversation_folder(Path(folder)) / source_file)
