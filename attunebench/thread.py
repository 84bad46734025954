"""The stateful message thread of one conversation (spec section 3).

The thread holds what the participant (HP) wrote and what the original model (OM) replied, turn
by turn; wherever the model under test (EM) answered, it holds a short placeholder instead of
the answer. So the EM is never steered by its own earlier guesses, every model sees the same
history, and, since no message depends on an earlier answer, all calls of a conversation can
run at once.

Earlier turns are kept compact (the HP message and the OM reply, without the instructions and
JSON templates of the calls that showed them): the history grows by a few lines a turn, and
each turn's history is a prefix of the next one's, which providers' prompt caches reward.

In the omniscient modes the participant's profile and pre-PANAS open turn 1 and stay in the
history from then on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from attunebench.prompts import PromptSet
from attunebench.records import Turn

Message = dict[str, str]


@dataclass
class ConversationThread:
    prompts: PromptSet
    system: str
    context: str = ""  # the omniscient background, shown at turn 1; "" otherwise
    _history: list[Message] = field(default_factory=list)

    @property
    def placeholder(self) -> str:
        return self.prompts.render("placeholder")

    def for_draft(self, draft_prompt: str) -> list[Message]:
        """The draft call: the history so far, then the draft request for this turn."""
        return [*self._start(), {"role": "user", "content": draft_prompt}]

    def for_review(self, turn: Turn, review_prompt: str) -> list[Message]:
        """The OM-review call: the history, this turn's HP message with the EM's draft
        replaced by the placeholder, then the review request that shows the OM reply."""
        return [
            *self._start(),
            {"role": "user", "content": self.participant_entry(turn)},
            {"role": "assistant", "content": self.placeholder},
            {"role": "user", "content": review_prompt},
        ]

    def for_post(self, post_prompt: str) -> list[Message]:
        return [*self._start(), {"role": "user", "content": post_prompt}]

    def close_turn(self, turn: Turn) -> None:
        """Add a finished turn to the history: HP message, OM reply, placeholders between."""
        self._history += [
            {"role": "user", "content": self.participant_entry(turn)},
            {"role": "assistant", "content": self.placeholder},
            {"role": "user", "content": self.original_entry(turn)},
            {"role": "assistant", "content": self.placeholder},
        ]

    def participant_entry(self, turn: Turn) -> str:
        entry = self.prompts.render(
            "thread_participant", turn_number=turn.turn_number, message=turn.user_message
        )
        return self.context_for(turn) + entry

    def original_entry(self, turn: Turn) -> str:
        return self.prompts.render(
            "thread_original", turn_number=turn.turn_number, reply=turn.llm_response
        )

    def context_for(self, turn: Turn) -> str:
        """The omniscient background before the first turn's message, else nothing."""
        return self.context + "\n\n" if self.context and not self._history else ""

    def _start(self) -> list[Message]:
        return [{"role": "system", "content": self.system}, *self._history]
