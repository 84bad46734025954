"""Plan a run before it exists: validate the request, count units and calls, estimate the cost.

The admin's confirmation page and ``manage.py evaluate`` show this plan; ``create_run`` stores
it. Nothing is written here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from annotations.models import ModelEndpoint
from annotations.releases.manifest import verify_folder
from annotations.releases.models import Release, ReleaseState
from attunebench.prompts import DEFAULT_PROMPT_SET
from attunebench.release import DataFolderError, SourcedConversation
from attunebench.runner import MODES, PANAS_STRATEGIES, RunOptions, planned_calls
from evaluation.engine import prompt_sets, release_conversations, run_options
from evaluation.models import DEFAULT_SEED
from evaluation.services.errors import EvaluationError
from evaluation.services.estimate import CostEstimate, estimate_cost


@dataclass(frozen=True)
class RunRequest:
    release: Release
    models: tuple[ModelEndpoint, ...]
    judges: tuple[ModelEndpoint, ...] = ()
    modes: tuple[str, ...] = ("default",)
    panas_strategy: str = "absolute"
    subsample: str = ""
    prompt_set: str = DEFAULT_PROMPT_SET
    seed: int = DEFAULT_SEED
    # Statistics options of the report (StatsConfig): Holm across the axes, outcome ranked.
    holm_across_axes: bool = False
    rank_outcome: bool = False


@dataclass(frozen=True)
class RunPlan:
    request: RunRequest
    conversations: tuple[SourcedConversation, ...]
    options: RunOptions
    units: int
    calls: int  # every answer parsing the first time
    estimate: CostEstimate

    @property
    def prompt_version(self) -> str:
        return self.options.prompts.version_id


def plan_run(request: RunRequest) -> RunPlan:
    """The validated plan of ``request``; raises ``EvaluationError`` saying what to change."""
    _check(request)
    _verify_release(request.release)
    try:
        conversations = tuple(
            release_conversations(request.release.folder, request.subsample.strip())
        )
    except DataFolderError as exc:
        raise EvaluationError(f"{request.release}: {exc}") from exc
    if not conversations:
        raise EvaluationError(f"{request.release} has no conversations to evaluate")
    options = run_options(
        panas_strategy=request.panas_strategy,
        judges=request.judges,
        prompt_set=request.prompt_set,
    )
    per_unit = sum(planned_calls(item.conversation, options) for item in conversations)
    estimate = estimate_cost(
        folder=request.release.folder,
        conversations=conversations,
        models=request.models,
        judges=request.judges,
        modes=request.modes,
        options=options,
    )
    return RunPlan(
        request=request,
        conversations=conversations,
        options=options,
        units=len(request.models) * len(request.modes) * len(conversations),
        calls=per_unit * len(request.models) * len(request.modes),
        estimate=estimate,
    )


def _verify_release(release: Release) -> None:
    """Refuse a release whose files no longer match its MANIFEST.json (and the recorded hash):
    a deleted conversation would silently shrink the benchmark, a changed one would be scored
    under the frozen hash. Once per plan, not per unit: it re-hashes every file of the release
    (about 4 ms for the demo release: 34 files, 0.6 MB; sha256 runs near 1 GB/s)."""
    result = verify_folder(Path(release.folder), release.content_hash)
    if not result.ok:
        shown = "; ".join(result.problems[:5])
        more = f" (and {len(result.problems) - 5} more)" if len(result.problems) > 5 else ""
        raise EvaluationError(
            f"the files of {release} do not match its manifest, so it cannot be evaluated "
            f"(`manage.py verify_release {release.folder}` lists every problem): {shown}{more}"
        )


def _check(request: RunRequest) -> None:
    release = request.release
    if release.state != ReleaseState.FROZEN or not release.content_hash:
        raise EvaluationError(f"{release} is not frozen: only frozen releases can be evaluated")
    if not release.folder or not Path(release.folder).is_dir():
        raise EvaluationError(f"the files of {release} are missing on this server")
    if not request.models:
        raise EvaluationError("choose at least one model to evaluate")
    # Run outputs name a model by its litellm string (em_model), so two endpoints with one
    # string would be scored as one model.
    for role, endpoints in (("models", request.models), ("judges", request.judges)):
        repeated = [m for m, n in Counter(e.litellm_model for e in endpoints).items() if n > 1]
        if repeated:
            raise EvaluationError(
                f"two {role} use the litellm model {repeated[0]!r}; run them in separate runs"
            )
    if not request.modes:
        raise EvaluationError("choose at least one mode")
    unknown = [mode for mode in request.modes if mode not in MODES]
    if unknown or len(set(request.modes)) != len(request.modes):
        raise EvaluationError(f"modes must be distinct values of {', '.join(MODES)}")
    if request.panas_strategy not in PANAS_STRATEGIES:
        raise EvaluationError(f"PANAS strategy must be one of {', '.join(PANAS_STRATEGIES)}")
    if request.prompt_set not in prompt_sets():
        raise EvaluationError(f"no prompt set {request.prompt_set!r} (have {prompt_sets()})")
