import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { json } from "../test/fakeServer";
import { annotationStep } from "../test/fixtures";
import { makeHarness, renderInStudy } from "../test/renderInStudy";
import { AnnotationPanel } from "./AnnotationPanel";
import { POLL_MS } from "./useAnnotationStep";

const REPLY = "That sounds hard.";

function setup(step = annotationStep()) {
  const harness = makeHarness();
  harness.server.on("GET", "/api/study/turns/1/annotation", step).on("PUT", "/api/study/drafts/annotation%3A1", {});
  const onSaved = vi.fn(async () => undefined);
  const view = renderInStudy(<AnnotationPanel turn={1} reply={REPLY} initialStep={step} onSaved={onSaved} />, harness);
  return { harness, onSaved, view, user: userEvent.setup() };
}

async function answerEverything(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole("checkbox", { name: /^Nervous/ }));
  const strength = screen.getByRole("group", { name: "How strongly do you feel nervous?" });
  await user.click(within(strength).getByRole("radio", { name: /^5/ }));
  for (const text of ["Did the reply notice your feelings? (server)", "Did the reply judge you? (server)"]) {
    const question = screen.getByRole("group", { name: text });
    await user.click(within(within(question).getByRole("radiogroup", { name: "Did it?" })).getByRole("radio", { name: "Yes" }));
    await user.click(within(within(question).getByRole("radiogroup", { name: "Should it have?" })).getByRole("radio", { name: "Not applicable" }));
  }
  const general = screen.getByRole("group", { name: "Which reply would you rather have received? (server)" });
  await user.click(within(general).getByRole("radio", { name: "Reply B" }));
  const pw8 = screen.getByRole("group", { name: "Which reply respected your choices? (server)" });
  await user.click(within(pw8).getByRole("radio", { name: "No preference" }));
}

describe("AnnotationPanel", () => {
  it("asks the server's questions: every PANAS item, the turn's behaviour questions, the A/B questions", () => {
    setup();
    expect(screen.getAllByRole("checkbox")).toHaveLength(21); // 20 PANAS items + "No clear change"
    expect(screen.getByRole("group", { name: "Did the reply judge you? (server)" })).toBeInTheDocument();
    expect(screen.getByText("Improved reply text.")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: /Edit the reply/ })).toHaveValue(REPLY);
  });

  it("refuses to save an incomplete annotation and says what is missing", async () => {
    const { harness, user, onSaved } = setup();
    const general = screen.getByRole("group", { name: "Which reply would you rather have received? (server)" });
    await user.click(within(general).getByRole("radio", { name: "Reply A" }));
    await user.click(screen.getByRole("button", { name: "Save my answers" }));
    const summary = screen.getByRole("alert");
    expect(within(summary).getByRole("link", { name: "How you feel after this reply" })).toBeInTheDocument();
    expect(within(summary).getByRole("link", { name: "Did the reply judge you? (server)" })).toBeInTheDocument();
    expect(harness.server.calls("POST", "/api/study/turns/1/annotation")).toHaveLength(0);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("saves a complete annotation with the answers given, then clears its draft", async () => {
    const { harness, user, onSaved } = setup();
    harness.server.on("POST", "/api/study/turns/1/annotation", annotationStep({ submitted: true }));
    await answerEverything(user);
    const editor = screen.getByRole("textbox", { name: /Edit the reply/ });
    await user.clear(editor);
    await user.type(editor, "I am here with you.");
    await user.click(screen.getByRole("button", { name: "Save my answers" }));
    const [request] = harness.server.calls("POST", "/api/study/turns/1/annotation");
    expect(request?.body).toMatchObject({
      mood_tags: [{ emotion: "Nervous", intensity: 5 }],
      behaviour: { B1: { observed: "yes", preferred: "na" }, B14: { observed: "yes", preferred: "na" } },
      edited_reply: "I am here with you.",
      pairwise: { general: "B", PW8: null },
    });
    expect(onSaved).toHaveBeenCalled();
    expect(harness.drafts.read("annotation:1")).toBeUndefined();
  });

  it("shows the step's attention check in the participant's words, asks for it, and sends the answer given", async () => {
    const step = annotationStep({ attention_check: { instructed: "strongly_disagree", options: ["strongly_agree", "agree", "neutral", "disagree", "strongly_disagree"] } });
    const { harness, user } = setup(step);
    harness.server.on("POST", "/api/study/turns/1/annotation", annotationStep({ submitted: true }));
    await answerEverything(user);
    await user.click(screen.getByRole("button", { name: "Save my answers" }));
    expect(within(screen.getByRole("alert")).getByRole("link", { name: "The attention check" })).toBeInTheDocument();
    expect(harness.server.calls("POST", "/api/study/turns/1/annotation")).toHaveLength(0);
    const check = screen.getByRole("group", { name: "For this question, choose “Strongly disagree”." });
    await user.click(within(check).getByRole("radio", { name: "Agree" }));
    await user.click(screen.getByRole("button", { name: "Save my answers" }));
    expect(harness.server.calls("POST", "/api/study/turns/1/annotation")[0]?.body).toMatchObject({ attention: "agree" });
  });

  it("keeps every answer through a reload (the draft is read back)", async () => {
    const { harness, user, view } = setup();
    await user.click(screen.getByRole("checkbox", { name: /^Upset/ }));
    await user.type(screen.getByRole("textbox", { name: /Edit the reply/ }), " Really.");
    view.unmount();
    renderInStudy(<AnnotationPanel turn={1} reply={REPLY} initialStep={annotationStep()} onSaved={vi.fn()} />, harness);
    expect(screen.getByRole("checkbox", { name: /^Upset/ })).toBeChecked();
    expect(screen.getByRole("textbox", { name: /Edit the reply/ })).toHaveValue(`${REPLY} Really.`);
  });

  it("lets the participant answer while the second reply is written, and shows it when ready", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const pending = annotationStep({ comparison: { status: "pending", questions: annotationStep().comparison.questions, responses: null } });
      const { harness, user } = setup(pending);
      expect(screen.getByRole("status")).toHaveTextContent(
        "Preparing a second version of the reply to compare: you can answer the other questions meanwhile and save them.",
      );
      await user.click(screen.getByRole("checkbox", { name: "No clear change" })); // not blocked meanwhile
      harness.server.on("GET", "/api/study/turns/1/annotation", annotationStep());
      await act(async () => {
        await vi.advanceTimersByTimeAsync(POLL_MS + 10);
      });
      expect(screen.getByText("Improved reply text.")).toBeInTheDocument();
      expect(screen.getByRole("checkbox", { name: "No clear change" })).toBeChecked();
    } finally {
      vi.useRealTimers();
    }
  });

  it("saves the other answers while the comparison is pending, keeps the draft and says what it waits for", async () => {
    const questions = annotationStep().comparison.questions;
    const pending = annotationStep({ comparison: { status: "pending", questions, responses: null } });
    const { harness, user, onSaved } = setup(pending);
    const saved = annotationStep({ answers_saved: true, comparison: { status: "pending", questions, responses: null } });
    harness.server.on("POST", "/api/study/turns/1/annotation", saved).on("GET", "/api/study/turns/1/annotation", saved);
    await user.click(screen.getByRole("checkbox", { name: "No clear change" }));
    for (const group of screen.getAllByRole("radiogroup", { name: "Did it?" })) await user.click(within(group).getByRole("radio", { name: "No" }));
    for (const group of screen.getAllByRole("radiogroup", { name: "Should it have?" })) await user.click(within(group).getByRole("radio", { name: "No" }));
    await user.click(screen.getByRole("button", { name: "Save my answers" }));
    const [request] = harness.server.calls("POST", "/api/study/turns/1/annotation");
    expect(request?.body).toMatchObject({ mood_tags: [], pairwise: {} }); // no choice before both replies
    expect(
      await screen.findByText(/Your other answers are saved. Preparing a second version of the reply to compare/),
    ).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled(); // the step is not finished: the comparison is left
    expect(harness.drafts.read("annotation:1")).toBeDefined();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("loads the step itself after a reload (no step from the stream)", async () => {
    const harness = makeHarness();
    harness.server.on("GET", "/api/study/turns/1/annotation", () => json(annotationStep()));
    renderInStudy(<AnnotationPanel turn={1} reply={REPLY} initialStep={null} onSaved={vi.fn()} />, harness);
    expect(await screen.findByRole("group", { name: "Did the reply judge you? (server)" })).toBeInTheDocument();
  });
});
