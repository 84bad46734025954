"""The chance baselines are scored in the report's main mode, so a run whose only mode is not
``default`` (e.g. ``verbose``) still shows them beside the models."""

from attunebench.records import (
    BinaryJudgement,
    Conversation,
    MoodTag,
    Turn,
    TurnAnnotations,
)
from attunebench.release import SourcedConversation
from attunebench.run_output import RunOutput, TurnOutput
from attunebench.score_folder import main_mode, score_runs
from attunebench.stats import StatsConfig, compute_statistics, score_frame


def _data(mode: str) -> tuple[list[SourcedConversation], list[tuple[str, RunOutput]]]:
    conversations, runs = [], []
    for i in range(6):
        turn = Turn(
            1,
            "u",
            "r",
            (MoodTag("Upset", 3),),
            TurnAnnotations((BinaryJudgement("B1", observed="yes" if i % 2 else "no"),)),
        )
        conversation = Conversation(f"c{i}", turns=(turn,))
        conversations.append(SourcedConversation(conversation, f"conversation_{i}.json"))
        for model in ("m1", "m2"):
            output = TurnOutput(
                1,
                em_emotion_tags=(MoodTag("Upset", 3),),
                em_binary_om_assessment={"B1": "yes"},
                em_binary_human_prediction={},
            )
            runs.append(
                (f"{model}{i}", RunOutput(f"c{i}", em_model=model, mode=mode, turns=(output,)))
            )
    return conversations, runs


def test_main_mode_is_default_when_run_else_the_first_mode():
    assert main_mode(["verbose", "default"]) == "default"
    assert main_mode(["omniscient", "verbose"]) == "omniscient"
    assert main_mode([]) == "default"


def test_a_verbose_only_run_has_its_baselines_in_verbose():
    conversations, runs = _data("verbose")
    scored = score_runs(conversations, runs)
    baseline_modes = {s.mode for s in scored.conversations if s.em_model.startswith("baseline/")}
    assert baseline_modes == {"verbose"}
    statistics = compute_statistics(
        score_frame(scored.conversations, [c.conversation for c in conversations]),
        StatsConfig(
            seed=1, n_resamples=50, n_permutations=10, primary_mode="verbose", subgroups=()
        ),
    )
    assert statistics.baselines == (
        "baseline/always_a",
        "baseline/majority",
        "baseline/no_change",
        "baseline/random",
    )


def test_the_caller_can_name_the_baselines_mode():
    conversations, runs = _data("verbose")
    runs += [
        (n, RunOutput(r.conversation_id, em_model="m3", mode="omniscient", turns=r.turns))
        for n, r in runs[:2]
    ]
    scored = score_runs(conversations, runs, baseline_mode="omniscient")
    assert {s.mode for s in scored.conversations if s.em_model.startswith("baseline/")} == {
        "omniscient"
    }
