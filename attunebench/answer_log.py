"""Bookkeeping of one unit's answers: what each call type asked and lost, and what it cost.

Section 5: an unusable answer is scored like a missing one, but it is never silent. Per call
type the run output carries ``parse_failures`` {"calls", "failures"} (a failure is a logical
call without a usable answer after repairs and re-asks, whatever the cause), and in its extra
keys the raw text of every failed answer (``parse_failure_details``), the calls that failed
outright (``call_errors``, with the gateway's error kind), how many answers needed a repair or
a re-ask (``answer_repairs``), and the calls and cost per model (``usage``).

Beside the judges' own failures (``draft_judge``), ``parse_failures`` carries
``draft_judge_turns``: not a call type but the turns whose draft went to the judges ("calls")
and those whose judged score was dropped because a configured judge gave no usable answer
("failures"; see ``judging.combine_scores``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from attunebench.asking import Answer
from attunebench.run_output import CALL_TYPES, JUDGED_TURNS


@dataclass
class AnswerLog:
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    repairs: dict[str, dict[str, int]] = field(default_factory=dict)
    failure_details: list[dict[str, Any]] = field(default_factory=list)
    call_errors: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, answer: Answer, turn_number: int | None) -> None:
        counts = self.counts.setdefault(answer.call_type, {"calls": 0, "failures": 0})
        counts["calls"] += 1
        repairs = self.repairs.setdefault(answer.call_type, {"repaired": 0, "reasked": 0})
        repairs["repaired"] += int(answer.repaired)
        repairs["reasked"] += int(len(answer.raw_texts) > 1)
        where = {"call_type": answer.call_type, "turnNumber": turn_number, "model": answer.model}
        if answer.call_error is not None:
            self.call_errors.append(
                {
                    **where,
                    "kind": answer.call_error.kind,
                    "message": answer.call_error.message,
                    "attempts": answer.call_error.attempts,
                }
            )
        if not answer.ok:
            counts["failures"] += 1
            if answer.raw_texts:
                self.failure_details.append(
                    {**where, "error": answer.error, "raw_texts": list(answer.raw_texts)}
                )
        usage = self.usage.setdefault(
            answer.model,
            {
                "calls_made": 0,
                "calls_cached": 0,
                "prompt_tokens": 0,
                "completion_tokens": 0,
                "cost_usd": 0.0,
            },
        )
        usage["calls_made"] += answer.made
        usage["calls_cached"] += answer.cached
        usage["prompt_tokens"] += answer.prompt_tokens
        usage["completion_tokens"] += answer.completion_tokens
        usage["cost_usd"] += answer.cost_usd

    def judged_turn(self, *, complete: bool) -> None:
        """A turn whose draft the judges were asked about; ``complete``: every judge answered."""
        counts = self.counts.setdefault(JUDGED_TURNS, {"calls": 0, "failures": 0})
        counts["calls"] += 1
        counts["failures"] += int(not complete)

    @property
    def cost_usd(self) -> float:
        """Every call of the unit (judges included), cached answers at what they cost when
        made, so a resumed run reports the same cost as an uninterrupted one."""
        total: float = sum(usage["cost_usd"] for usage in self.usage.values())
        return total

    def parse_failures(self) -> dict[str, dict[str, int]]:
        return {name: dict(self.counts[name]) for name in _ordered(self.counts)}

    def extra_keys(self) -> dict[str, Any]:
        return {
            "parse_failure_details": self.failure_details,
            "call_errors": self.call_errors,
            "answer_repairs": {name: dict(self.repairs[name]) for name in _ordered(self.repairs)},
            "usage": self.usage,
        }


def _ordered(by_call_type: dict[str, Any]) -> list[str]:
    known = [name for name in (*CALL_TYPES, JUDGED_TURNS) if name in by_call_type]
    return known + sorted(set(by_call_type) - set(known))
