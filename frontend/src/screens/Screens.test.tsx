// Every screen of a session: what it sends, how it reports what is missing, and an axe-core
// check of its rendered markup. (Profile is being rewritten under issue 15 and keeps its own.)
import { act, fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AnnotationPanel } from "../annotation/AnnotationPanel";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { Withdraw } from "../components/Withdraw";
import { StepScreen } from "../StepScreen";
import { expectNoAxeViolations } from "../test/axe";
import { json } from "../test/fakeServer";
import { annotationStep, instrument, session, turn } from "../test/fixtures";
import { makeHarness, renderInStudy } from "../test/renderInStudy";
import type { Session } from "../api/types";
import { Chat } from "./Chat";
import { Consent } from "./Consent";
import { Complete, REDIRECT_SECONDS, ScreenedOut, Withdrawn } from "./Exit";
import { Panas } from "./Panas";
import { PostSurvey } from "./PostSurvey";
import { Topic } from "./Topic";

const next = session({ step: "topic", chat: null });
const CONSENT_YES = "I agree to take part";

/** A radio of a fieldset found by id (role queries with names are slow on 140 radios). */
function pick(fieldsetId: string, point: number): void {
  const fieldset = document.getElementById(fieldsetId);
  const radio = fieldset?.querySelector<HTMLInputElement>(`input[value="${point}"]`);
  if (!radio) throw new Error(`no option ${point} in #${fieldsetId}`);
  fireEvent.click(radio);
}

describe("Consent", () => {
  it("sends the version shown with the answer, and passes axe", async () => {
    const harness = makeHarness({ session: session({ step: "consent", chat: null }) });
    harness.server.on("POST", "/api/study/consent", next);
    const { container } = renderInStudy(<Consent />, harness);
    await expectNoAxeViolations(container);
    await userEvent.click(screen.getByRole("button", { name: CONSENT_YES }));
    expect(harness.server.calls("POST", "/api/study/consent")[0]?.body).toEqual({ consent_version: "v1", agree: true });
    expect(harness.context.setSession).toHaveBeenCalledWith(next);
  });
});

describe("Panas", () => {
  it("lists the unanswered items, then sends every item's rating and clears the draft", async () => {
    // Four items (two of each polarity) keep jsdom and axe quick; the rules are the same for 20.
    const items = [...instrument.panas_items.slice(0, 2), ...instrument.panas_items.slice(-2)];
    const harness = makeHarness({ session: session({ step: "pre_panas", chat: null }), instrument: { ...instrument, panas_items: items } });
    harness.server.on("POST", "/api/study/panas/pre", next);
    const user = userEvent.setup();
    const { container } = renderInStudy(<Panas phase="pre" />, harness);
    await expectNoAxeViolations(container);
    await user.click(screen.getByRole("button", { name: "Continue" }));
    const missing = screen.getByRole("alert");
    expect(missing).toHaveFocus();
    expect(missing.querySelectorAll("a")).toHaveLength(items.length);
    await expectNoAxeViolations(container);
    for (const item of items) {
      pick(`panas-${item.id}`, 3);
    }
    await user.click(screen.getByRole("button", { name: "Continue" }));
    const sent = harness.server.calls("POST", "/api/study/panas/pre")[0]?.body as { items: Record<string, number> };
    expect(Object.keys(sent.items)).toEqual(items.map((item) => item.id));
    expect(new Set(Object.values(sent.items))).toEqual(new Set([3]));
    expect(harness.drafts.read("panas:pre")).toBeUndefined();
  });
});

describe("Topic", () => {
  it("moves the focus to the topic only once it is marked invalid, then sends the choice", async () => {
    const harness = makeHarness({ session: session({ step: "topic", chat: null }) });
    harness.server.on("POST", "/api/study/topic", session());
    const user = userEvent.setup();
    const { container } = renderInStudy(<Topic />, harness);
    await expectNoAxeViolations(container);
    const focusedWhileInvalid: boolean[] = [];
    const group = screen.getByRole("group", { name: "Topic" });
    group.addEventListener("focus", () => focusedWhileInvalid.push(group.classList.contains("invalid")));
    await user.click(screen.getByRole("button", { name: "Start the chat" }));
    expect(group).toHaveFocus();
    expect(focusedWhileInvalid).toEqual([true]);
    expect(screen.getByText("Please choose a topic.")).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "Work" }));
    await user.click(screen.getByRole("button", { name: "Start the chat" }));
    expect(harness.server.calls("POST", "/api/study/topic")[0]?.body).toEqual({ category: "work", subtopic: "" });
  });
});

describe("Topic: something else", () => {
  it("opens a labelled text box that is kept as a draft, required, and sent as other_text", async () => {
    const harness = makeHarness({ session: session({ step: "topic", chat: null }) });
    harness.server.on("POST", "/api/study/topic", session());
    const user = userEvent.setup();
    const { container, unmount } = renderInStudy(<Topic />, harness);
    const label = "What would you like to talk about? (in your own words)";
    expect(screen.queryByLabelText(label)).toBeNull();
    await user.click(screen.getByRole("radio", { name: "Something else" }));
    await expectNoAxeViolations(container);
    await user.click(screen.getByRole("button", { name: "Start the chat" }));
    const box = screen.getByLabelText(label);
    expect(box).toHaveFocus();
    expect(box).toHaveAttribute("aria-invalid", "true");
    expect(box).toHaveAccessibleDescription("Please describe it in a few words.");
    expect(harness.server.calls("POST", "/api/study/topic")).toHaveLength(0);
    await user.type(box, "Moving abroad");
    // A reload (a new mount) gives back everything chosen and typed.
    unmount();
    renderInStudy(<Topic />, harness);
    expect(screen.getByRole("radio", { name: "Something else" })).toBeChecked();
    expect(screen.getByLabelText(label)).toHaveValue("Moving abroad");
    await user.click(screen.getByRole("button", { name: "Start the chat" }));
    expect(harness.server.calls("POST", "/api/study/topic")[0]?.body).toEqual({
      category: "something else",
      subtopic: "",
      other_text: { category: "Moving abroad" },
    });
    expect(harness.drafts.read("topic")).toBeUndefined();
  });
});

describe("PostSurvey", () => {
  it("asks the follow-up only for the answers the instrument names, and sends every answer", async () => {
    const harness = makeHarness({ session: session({ step: "post_survey", chat: null }) });
    harness.server.on("POST", "/api/study/post-survey", session({ step: "complete", chat: null }));
    const user = userEvent.setup();
    const { container } = renderInStudy(<PostSurvey />, harness);
    await expectNoAxeViolations(container);
    await user.click(screen.getByRole("checkbox", { name: "To vent" }));
    await user.click(screen.getByRole("radio", { name: "Clearly" }));
    expect(screen.queryByLabelText("What felt off? (server)")).not.toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "Mixed" }));
    await user.type(screen.getByLabelText("What felt off? (server)"), "Too long");
    for (const branch of instrument.four_branches) {
      pick(`branch-${branch.id}`, 5);
    }
    await expectNoAxeViolations(container);
    await user.click(screen.getByRole("button", { name: "Submit my answers" }));
    expect(harness.server.calls("POST", "/api/study/post-survey")[0]?.body).toEqual({
      looking_for: ["vent"],
      emotion_clarity: "clear",
      model_fit: "mixed",
      what_felt_off: ["Too long"],
      four_branch: { perceiving: 5, facilitating: 5, understanding: 5, managing: 5 },
    });
  });

  it("asks for the words of a 'Something else' answer, lists them while missing, and sends them", async () => {
    const harness = makeHarness({ session: session({ step: "post_survey", chat: null }) });
    harness.server.on("POST", "/api/study/post-survey", session({ step: "complete", chat: null }));
    const user = userEvent.setup();
    const { container } = renderInStudy(<PostSurvey />, harness);
    await user.click(screen.getByRole("checkbox", { name: "To vent" }));
    await user.click(screen.getByRole("checkbox", { name: "Something else" }));
    const box = screen.getByLabelText("Please describe (in your own words)");
    expect(box.closest("fieldset")).toBe(screen.getByRole("group", { name: "Q1 prompt from the server" }));
    await user.click(screen.getByRole("radio", { name: "Clearly" }));
    await user.click(screen.getByRole("radio", { name: "Very well" }));
    for (const branch of instrument.four_branches) {
      pick(`branch-${branch.id}`, 4);
    }
    await user.click(screen.getByRole("button", { name: "Submit my answers" }));
    const missing = screen.getByRole("alert");
    expect(missing).toHaveTextContent("Q1 prompt from the server (please describe your answer)");
    expect(box).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(container);
    expect(harness.server.calls("POST", "/api/study/post-survey")).toHaveLength(0);
    await user.type(box, "  To feel less alone ");
    expect((harness.drafts.read("post_survey") as { other: Record<string, string> }).other).toEqual({ looking_for: "  To feel less alone " });
    await user.click(screen.getByRole("button", { name: "Submit my answers" }));
    expect(harness.server.calls("POST", "/api/study/post-survey")[0]?.body).toEqual({
      looking_for: ["vent", "other"],
      emotion_clarity: "clear",
      model_fit: "very_well",
      what_felt_off: [],
      four_branch: { perceiving: 4, facilitating: 4, understanding: 4, managing: 4 },
      other_text: { looking_for: "To feel less alone" },
    });
  });
});

describe("Chat", () => {
  it("passes axe with a reply and its questions", async () => {
    const harness = makeHarness({ session: session({ chat: { turns: [turn()], answered: 0, can_send: false, can_finish: false } }) });
    harness.server.on("GET", "/api/study/turns/1/annotation", annotationStep());
    const { container } = renderInStudy(<Chat />, harness);
    expect(await screen.findByRole("heading", { name: "About this reply" })).toBeInTheDocument();
    await expectNoAxeViolations(container);
  });

  it("keeps the focus on the busy save button (aria-disabled, never disabled)", async () => {
    const harness = makeHarness();
    let release: (r: Response) => void = () => undefined;
    harness.server.on("POST", "/api/study/turns/1/annotation", () => new Promise<Response>((r) => (release = r)));
    const user = userEvent.setup();
    harness.drafts.write("annotation:1", {
      noChange: true, tags: [], behaviour: { B1: { observed: "yes", preferred: "yes" }, B14: { observed: "no", preferred: "no" } },
      edited: null, pairwise: { general: "A", PW8: null }, openedAt: 0,
    });
    renderInStudy(<AnnotationPanel turn={1} reply="That sounds hard." initialStep={annotationStep()} onSaved={async () => undefined} />, harness);
    const save = screen.getByRole("button", { name: "Save my answers" });
    await user.click(save);
    const busy = screen.getByRole("button", { name: "Saving…" });
    expect(busy).toHaveFocus();
    expect(busy).toHaveAttribute("aria-disabled", "true");
    await user.click(busy);
    expect(harness.server.calls("POST", "/api/study/turns/1/annotation")).toHaveLength(1);
    await act(async () => release(json(annotationStep({ submitted: true }))));
  });
});

describe("Withdraw", () => {
  it("asks once more, saves the drafts, withdraws, and passes axe open", async () => {
    const harness = makeHarness();
    harness.server.on("POST", "/api/study/withdraw", session({ step: "withdrawn", chat: null }));
    harness.server.on("PUT", "/api/study/drafts/message", () => new Response(null, { status: 204 }));
    harness.drafts.write("message", { text: "half a thought", key: null });
    const user = userEvent.setup();
    const { container } = renderInStudy(<Withdraw />, harness);
    await user.click(screen.getByRole("button", { name: "Withdraw from the study" }));
    expect(screen.getByRole("heading", { name: "Withdraw from the study?" })).toHaveFocus();
    await expectNoAxeViolations(container);
    await user.click(screen.getByRole("button", { name: "No, go back" }));
    expect(screen.getByRole("button", { name: "Withdraw from the study" })).toHaveFocus();
    await user.click(screen.getByRole("button", { name: "Withdraw from the study" }));
    await user.click(screen.getByRole("button", { name: "Yes, withdraw" }));
    expect(harness.server.calls("PUT", "/api/study/drafts/message")).toHaveLength(1);
    expect(harness.server.calls("POST", "/api/study/withdraw")[0]?.body).toEqual({ confirm: true });
    expect(harness.context.setSession).toHaveBeenCalledWith(expect.objectContaining({ step: "withdrawn" }));
  });
});

describe("Exit pages", () => {
  afterEach(() => vi.useRealTimers());

  const exit = { code: "C0DE", redirect_url: "https://app.prolific.com/submissions/complete?cc=C0DE" };

  it("shows the completion code and passes axe", async () => {
    const { container } = renderInStudy(<Complete exit={exit} />, makeHarness());
    await expectNoAxeViolations(container);
  });

  it("counts down to Prolific, and the participant can stay instead (WCAG 2.2.1)", async () => {
    vi.useFakeTimers();
    const assign = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, assign });
    renderInStudy(<Complete exit={exit} />, makeHarness());
    expect(screen.getByText("C0DE")).toBeInTheDocument();
    for (let second = 0; second < 3; second++) await act(async () => vi.advanceTimersByTime(1000));
    expect(screen.getByText(`You will be taken back to Prolific in ${REDIRECT_SECONDS - 3} seconds.`)).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Stay on this page" }));
    expect(screen.getByRole("link", { name: "Return to Prolific" })).toHaveFocus();
    for (let second = 0; second < REDIRECT_SECONDS; second++) await act(async () => vi.advanceTimersByTime(1000));
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows the screen-out code and the withdrawal page, both passing axe", async () => {
    const screened = renderInStudy(<ScreenedOut exit={{ code: "SCR", redirect_url: null }} />, makeHarness());
    expect(screen.getByText("SCR")).toBeInTheDocument();
    await expectNoAxeViolations(screened.container);
    screened.unmount();
    const withdrawn = renderInStudy(<Withdrawn />, makeHarness());
    expect(screen.getByRole("heading", { name: "You have withdrawn" })).toBeInTheDocument();
    await expectNoAxeViolations(withdrawn.container);
  });
});

describe("ErrorBoundary", () => {
  it("shows a way back instead of a blank page when a screen cannot render", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const onReset = vi.fn();
    const unknown = { ...session(), step: "from_the_future" } as unknown as Session;
    const { container } = renderInStudy(
      <ErrorBoundary onReset={onReset}>
        <StepScreen session={unknown} />
      </ErrorBoundary>,
      makeHarness(),
    );
    expect(screen.getByRole("heading", { name: "Something went wrong on this page" })).toHaveFocus();
    expect(screen.getByRole("alert")).toHaveTextContent("Nothing you typed is lost");
    await expectNoAxeViolations(container);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(onReset).toHaveBeenCalled();
  });
});
