"""Synthetic score frames with planted effects, for tests, demos and the benchmark.

Each axis score of (model, conversation) is ``base + model shift + conversation difficulty +
noise``, clipped to [0, 1]. The difficulty is shared by every model (as real conversations are
hard or easy for all models), which is what the paired tests exploit. The composite follows
the scorer's weights over the synthetic axes. Planted: per-model shifts, a mode shift, and a
lower emotion recognition for participants who report a diagnosis.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from attunebench.stats.contract import (
    AXES,
    ORIGINAL_MODEL_COLUMN,
    TOPIC_COLUMN,
    TRAIT_PREFIX,
    TRAIT_REFERENCE,
)

COMPONENTS = AXES[:5]
TOPICS = ("work", "relationships", "health", "family", "study", "money")
ORIGINAL_MODELS = ("gpt-4o", "claude-3-5-sonnet", "llama-3-70b", "gemini-1.5-pro")
DIAGNOSES = ("anxiety/depression", "ASD/ADHD")


def composite_of(axes: np.ndarray) -> np.ndarray:
    """The scorer's composite weights applied to (..., 5) synthetic component axes."""
    emotion, behaviour, preference, _, outcome = np.moveaxis(axes, -1, 0)
    quality = 0.5 * behaviour + 0.5 * preference
    composite: np.ndarray = np.round(100 * (0.24 * emotion + 0.49 * quality + 0.27 * outcome), 2)
    return composite


def synthetic_scores(
    *,
    n_models: int = 11,
    n_conversations: int = 200,
    seed: int = 0,
    model_shifts: Sequence[float] | None = None,
    modes: Sequence[str] = ("default",),
    mode_shift: float = 0.02,
    baselines: Sequence[str] = ("baseline/random", "baseline/majority"),
    base: float = 0.55,
    conversation_sd: float = 0.10,
    noise_sd: float = 0.12,
    diagnosis_effect: float = -0.05,
    diagnosis_share: float = 0.25,
    missing_judge_share: float = 0.05,
) -> pd.DataFrame:
    """A score frame (``contract``). ``model_shifts[k]`` is added to every axis of model k
    (default: evenly spread over +-0.03); modes after the first add ``mode_shift`` each."""
    rng = np.random.default_rng(seed)
    shifts = (
        np.linspace(-0.03, 0.03, n_models) if model_shifts is None else np.asarray(model_shifts)
    )
    names = [f"model-{k + 1:02d}" for k in range(n_models)]
    ids = [f"conv-{i:04d}" for i in range(n_conversations)]
    difficulty = rng.normal(0, conversation_sd, (n_conversations, len(COMPONENTS)))
    diagnosis = rng.random(n_conversations) < diagnosis_share
    which = rng.integers(0, len(DIAGNOSES), n_conversations)
    difficulty[:, 0] += np.where(diagnosis, diagnosis_effect, 0.0)
    attributes = {
        "conversation_id": ids,
        TOPIC_COLUMN: rng.choice(TOPICS, n_conversations),
        ORIGINAL_MODEL_COLUMN: rng.choice(ORIGINAL_MODELS, n_conversations),
    }
    for index, group in enumerate(DIAGNOSES):
        # An object array holds the None of "no such group" (numpy's stubs take no bare None).
        missing = np.array(None, dtype=object)
        attributes[f"{TRAIT_PREFIX}{group}"] = np.where(
            ~diagnosis, TRAIT_REFERENCE, np.where(which == index, group, missing)
        )
    attributes[f"{TRAIT_PREFIX}any diagnosis"] = np.where(
        diagnosis, "any diagnosis", TRAIT_REFERENCE
    )

    blocks = []
    runs = [
        (m, mode, shifts[k] + i * mode_shift)
        for i, mode in enumerate(modes)
        for k, m in enumerate(names)
    ]
    runs += [(b, modes[0], -0.15 - 0.05 * k) for k, b in enumerate(baselines)]
    for model, mode, shift in runs:
        noise = rng.normal(0, noise_sd, (n_conversations, len(COMPONENTS)))
        components = np.clip(base + shift + difficulty + noise, 0.0, 1.0)
        components[rng.random(n_conversations) < missing_judge_share, 3] = np.nan
        block = pd.DataFrame(components, columns=list(COMPONENTS))
        block["composite"] = composite_of(components)
        block.insert(0, "conversation_id", ids)
        block.insert(0, "mode", mode)
        block.insert(0, "model", model)
        calls = rng.integers(20, 40, n_conversations)
        block["parse_turn_calls"] = calls
        block["parse_turn_failures"] = rng.binomial(calls, 0.02)
        blocks.append(block)
    scores = pd.concat(blocks, ignore_index=True)
    return scores.merge(pd.DataFrame(attributes), on="conversation_id", how="left")
