"""How a turn's pairwise comparisons are shown to the model, and its letters mapped back.

Models favour a position, so each comparison is shown with A and B swapped or not, by a
seeded draw (the same for every model, so their position effects are comparable). The three
replies are listed under neutral numbers in a seeded order, so a label such as "original"
never leaks. ``pairwise_assignment`` records what the model saw; ``em_pairwise_selections`` must
be in the participant's A/B frame (the scorer compares letters as written), so every letter
is mapped back through the swap before it is stored.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from attunebench.records import PairwiseComparison, Turn

LABELS: tuple[str, ...] = ("original", "alternate", "human")


@dataclass(frozen=True)
class ShownComparison:
    index: int  # position in the turn's comparison list
    question_id: str
    shown_a: str  # the label shown to the model as A
    shown_b: str
    swapped: bool  # A and B are the participant's B and A

    def to_participant_frame(self, letter: str) -> str:
        if not self.swapped:
            return letter
        return {"A": "B", "B": "A"}[letter]


@dataclass(frozen=True)
class Presentation:
    numbering: dict[str, int]  # label -> the number the reply is listed under (1..3)
    comparisons: tuple[ShownComparison, ...]

    def assignment(self) -> dict[str, dict[str, str]]:
        """``pairwise_assignment`` of the run output: what the model saw as A and B."""
        return {
            str(shown.index): {"A": shown.shown_a, "B": shown.shown_b} for shown in self.comparisons
        }

    def selections(self, letters: dict[str, str]) -> dict[str, str | None]:
        """The model's letters (shown frame) in the participant's frame, by comparison index."""
        return {
            str(shown.index): shown.to_participant_frame(letters[str(shown.index)])
            for shown in self.comparisons
            if str(shown.index) in letters
        }


def present(
    turn: Turn, *, conversation_id: str, seed: int = 0, shuffle: bool = True
) -> Presentation:
    rng = random.Random(f"pairwise:{seed}:{conversation_id}:{turn.turn_number}")
    order = list(LABELS)
    if shuffle:
        rng.shuffle(order)
    numbering = {label: number for number, label in enumerate(order, start=1)}
    comparisons = tuple(
        _shown(index, comparison, swapped=shuffle and rng.random() < 0.5)
        for index, comparison in enumerate(turn.annotations.pairwise_comparisons)
    )
    return Presentation(numbering, comparisons)


def _shown(index: int, comparison: PairwiseComparison, *, swapped: bool) -> ShownComparison:
    a, b = comparison.response_a, comparison.response_b
    return ShownComparison(
        index, comparison.question_id, b if swapped else a, a if swapped else b, swapped
    )


def reply_text(turn: Turn, label: str) -> str:
    text = {
        "original": turn.llm_response,
        "alternate": turn.annotations.llm_improved,
        "human": turn.annotations.human_edited,
    }.get(label)
    return text if text else "(not available)"
