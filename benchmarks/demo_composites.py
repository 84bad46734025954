"""The demo release's composite per model under each scoring option (figures for docs/method.md).

    python benchmarks/demo_composites.py [--conversations 50] [--seed 1]
        [--model attune-demo/listener --model attune-demo/advisor ...]

Seeds the demo study on a scratch SQLite database, builds and freezes a release of it (the
real build path), runs the demo-provider models on the release with the engine (offline), and
scores the outputs: the default (the reference's rule), ``--asked-only`` beside it, and
``--compat``. Prints one row per model: the composite under each, and the share of scored
behaviour judgements whose question was not asked (the case the default adds).
"""

from __future__ import annotations

import _setup

DEFAULT_MODELS = ("attune-demo/listener", "attune-demo/advisor", "attune-demo/questioner")


def main() -> None:
    parser = _setup.argument_parser(__doc__)
    parser.add_argument("--conversations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", action="append", help="demo model (repeat)")
    args = parser.parse_args()
    workdir = _setup.scratch_django("attune-method-", None, without_redis=True)

    from annotations.demo import DEMO_STUDY_SLUG, seed_demo
    from annotations.models import Study
    from annotations.releases.services import build_release, create_release
    from attunebench.cli import main as engine
    from attunebench.release import load_conversations
    from attunebench.score_folder import read_runs, score_runs
    from attunebench.scoring import is_applicable, om_ground_truth
    from attunebench.tables import format_table

    seed_demo(args.conversations, args.seed)
    release = create_release(
        name="demo", version="1.0.0", studies=[Study.objects.get(slug=DEMO_STUDY_SLUG)]
    )
    release = build_release(release.pk)
    runs = workdir / "runs"
    models = args.model or list(DEFAULT_MODELS)
    command = ["run", "--data", release.folder, "--out", str(runs), "--no-progress"]
    for model in models:
        command += ["--model", model]
    if engine(command) != 0:
        raise SystemExit("the engine run failed")

    conversations = load_conversations(release.folder)
    outputs, _ = read_runs(runs)
    default = score_runs(conversations, outputs, asked_only=True)
    compat = score_runs(conversations, outputs, compat=True)
    asked = {(a.em_model, a.mode): a for a in default.variants["asked_only"].aggregates}
    reference = {(a.em_model, a.mode): a for a in compat.aggregates}
    judgements = [
        j
        for item in conversations
        for turn in item.conversation.turns
        for j in turn.annotations.binary_judgements
        if om_ground_truth(j) in ("yes", "no")
    ]
    not_asked = sum(not is_applicable(j) for j in judgements)

    def value(item, name: str = "composite_score") -> str:
        mean = item.metrics[name].mean
        return (
            "n/a" if mean is None else f"{mean:.2f}" if name == "composite_score" else f"{mean:.4f}"
        )

    rows = []
    for item in default.aggregates:
        key = (item.em_model, item.mode)
        rows.append(
            [
                item.em_model,
                item.n_conversations,
                value(item),
                value(asked[key]),
                value(reference[key]),
                value(item, "avg_binary_om_accuracy"),
                value(asked[key], "avg_binary_om_accuracy"),
            ]
        )
    print(
        f"release {release} ({len(conversations)} conversations, hash "
        f"{release.content_hash[:12]}); "
        f"OM judgements with a yes/no truth: {len(judgements)}, of them not asked: {not_asked}"
    )
    headers = (
        "model",
        "n",
        "composite (default)",
        "composite (asked only)",
        "composite (compat)",
        "OM acc (default)",
        "OM acc (asked only)",
    )
    print(format_table(headers, rows))


if __name__ == "__main__":
    main()
