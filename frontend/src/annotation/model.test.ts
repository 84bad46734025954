import { describe, expect, it } from "vitest";
import { annotationStep } from "../test/fixtures";
import {
  ATTENTION_ID,
  emptyDraft,
  missingAnswers,
  setBehaviour,
  setIntensity,
  setNoChange,
  setWinner,
  toggleTag,
  toPayload,
  type AnnotationDraft,
} from "./model";

const REPLY = "That sounds hard.";

function complete(): AnnotationDraft {
  let draft = emptyDraft(0);
  draft = toggleTag(draft, "Nervous", true);
  draft = setIntensity(draft, "Nervous", 5);
  for (const id of ["B1", "B14"]) {
    draft = setBehaviour(draft, id, "observed", "yes");
    draft = setBehaviour(draft, id, "preferred", "na");
  }
  draft = setWinner(draft, "general", "A");
  return setWinner(draft, "PW8", null);
}

describe("the annotation rules", () => {
  it("lists everything an untouched panel still needs", () => {
    const labels = missingAnswers(emptyDraft(0), annotationStep(), REPLY).map((m) => m.label);
    expect(labels).toEqual([
      "How you feel after this reply",
      "Did the reply notice your feelings? (server)",
      "Did the reply judge you? (server)",
      "Which reply would you rather have received? (server)",
      "Which reply respected your choices? (server)",
    ]);
  });

  it("needs an intensity for every feeling picked", () => {
    const draft = toggleTag(complete(), "Upset", true);
    expect(missingAnswers(draft, annotationStep(), REPLY).map((m) => m.label)).toEqual(["How strongly: Upset"]);
  });

  it("needs both answers (did it, should it) of every behaviour question", () => {
    const draft = setBehaviour(emptyDraft(0), "B1", "observed", "no");
    const missing = missingAnswers(setNoChange(draft, true), annotationStep(), REPLY).map((m) => m.targetId);
    expect(missing).toContain("annotation-behaviour-B1");
  });

  it("does not wait for a comparison whose second reply is not ready (or was skipped)", () => {
    for (const status of ["pending", "failed", "unavailable"] as const) {
      const step = annotationStep({ comparison: { status, questions: [{ id: "general", text: "?" }], responses: null } });
      const draft = { ...complete(), pairwise: {} };
      expect(missingAnswers(draft, step, REPLY)).toEqual([]);
      expect(toPayload(draft, step, REPLY, 0).pairwise).toEqual({});
    }
  });

  it("makes the API payload: tags with intensities, both answers, the edited reply, the winners", () => {
    const draft = { ...complete(), edited: "I hear you. That sounds hard.", openedAt: 1_000 };
    expect(toPayload(draft, annotationStep(), REPLY, 13_500)).toEqual({
      mood_tags: [{ emotion: "Nervous", intensity: 5 }],
      behaviour: { B1: { observed: "yes", preferred: "na" }, B14: { observed: "yes", preferred: "na" } },
      edited_reply: "I hear you. That sounds hard.",
      pairwise: { general: "A", PW8: null },
      attention: null,
      timings: { total: 12.5 },
    });
  });

  it("asks for the attention check's answer where the step has one, and sends it", () => {
    const step = annotationStep({ attention_check: { instructed: "disagree", options: ["agree", "disagree"] } });
    expect(missingAnswers(complete(), step, REPLY).map((m) => m.targetId)).toEqual([ATTENTION_ID]);
    const answered = { ...complete(), attention: "agree" as const };
    expect(missingAnswers(answered, step, REPLY)).toEqual([]);
    // Sent as given, right or not: a wrong answer is QA's business, not a refusal.
    expect(toPayload(answered, step, REPLY, 0).attention).toBe("agree");
    expect(toPayload(answered, annotationStep(), REPLY, 0).attention).toBeNull();
  });

  it("sends no tags for 'no clear change', and the reply itself when it was not edited", () => {
    const draft = setNoChange(complete(), true);
    const payload = toPayload(draft, annotationStep(), REPLY, 0);
    expect(payload.mood_tags).toEqual([]);
    expect(payload.edited_reply).toBe(REPLY);
  });

  it("makes 'no clear change' and picked feelings exclude each other", () => {
    const noChange = setNoChange(complete(), true);
    expect(noChange.tags).toEqual([]);
    expect(toggleTag(noChange, "Proud", true).noChange).toBe(false);
  });
});
