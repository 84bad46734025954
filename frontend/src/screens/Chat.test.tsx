import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { sse, sseResponse } from "../test/fakeServer";
import { annotationStep, session, turn } from "../test/fixtures";
import { makeHarness, renderInStudy } from "../test/renderInStudy";
import { Chat } from "./Chat";

describe("Chat", () => {
  it("shows a failed reply with the server's message and retries it", async () => {
    const failed = turn({
      status: "failed",
      reply: "",
      error: { reason: "failed", message: "The reply could not be written. Your message is saved: please try again.", retryable: true },
    });
    const harness = makeHarness({ session: session({ chat: { turns: [failed], answered: 0, can_send: false, can_finish: false } }) });
    harness.server.on("POST", "/api/study/turns/1/retry", () =>
      sseResponse([
        sse("turn", { turn: { number: 1, status: "streaming", user_message: failed.user_message }, support: null }),
        sse("delta", { text: "That sounds hard." }),
        sse("done", { turn: turn(), annotation: annotationStep() }),
      ]),
    );
    const user = userEvent.setup();
    renderInStudy(<Chat />, harness);
    expect(screen.getByRole("alert")).toHaveTextContent("The reply could not be written");
    expect(screen.getByLabelText("Your message")).toHaveAccessibleDescription(/Please retry your last message first\./);
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(harness.server.calls("POST", "/api/study/turns/1/retry")).toHaveLength(1);
    expect(harness.context.refresh).toHaveBeenCalled();
  });

  it("shows progress toward the minimum and the support resources right under the message that raised them", () => {
    const risky = turn({ number: 1, user_message: "I want to end it all.", reply: "I am so sorry.", annotation_submitted: true });
    const later = turn({ number: 2, user_message: "Work is better.", reply: "Good to hear.", annotation_submitted: true });
    const harness = makeHarness({
      session: session({
        chat: { turns: [risky, later], answered: 1, can_send: true, can_finish: false },
        support: { resources: "Samaritans: 116 123", turn: 1 },
      }),
    });
    renderInStudy(<Chat />, harness);
    expect(screen.getByRole("progressbar", { name: "1 of 2 replies answered" })).toHaveAttribute("value", "1");
    const notice = screen.getByRole("alert", { name: "Support is available" });
    expect(notice).toHaveTextContent("Samaritans: 116 123");
    // In document order: the message that raised it, the notice, then that message's reply and
    // the rest of the conversation.
    const follows = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(follows(screen.getByText("I want to end it all."), notice)).toBe(true);
    expect(follows(notice, screen.getByText("I am so sorry."))).toBe(true);
    expect(follows(notice, screen.getByText("Work is better."))).toBe(true);
    expect(notice.closest("li")).toBe(screen.getByText("I want to end it all.").closest("li"));
    expect(notice.closest("section")).toHaveClass("support-banner");
  });

  it("puts the notice after the conversation when the server names no turn it shows", () => {
    const harness = makeHarness({
      session: session({
        chat: { turns: [turn({ annotation_submitted: true })], answered: 1, can_send: true, can_finish: false },
        support: { resources: "Samaritans: 116 123", turn: null },
      }),
    });
    renderInStudy(<Chat />, harness);
    const notice = screen.getByRole("alert", { name: "Support is available" });
    const conversation = screen.getByRole("list", { name: "Conversation" });
    expect(conversation.compareDocumentPosition(notice) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Finish the chat" })).not.toBeInTheDocument();
  });

  it("says calmly that the answers are saved and gives the focus to the message box", async () => {
    const harness = makeHarness({ session: session({ chat: { turns: [turn()], answered: 0, can_send: false, can_finish: false } }) });
    harness.drafts.write("annotation:1", {
      noChange: true, tags: [], behaviour: { B1: { observed: "yes", preferred: "yes" }, B14: { observed: "no", preferred: "no" } },
      edited: null, pairwise: { general: "A", PW8: null }, openedAt: 0,
    });
    harness.server.on("GET", "/api/study/turns/1/annotation", annotationStep());
    harness.server.on("POST", "/api/study/turns/1/annotation", annotationStep({ submitted: true }));
    const { rerenderInStudy } = renderInStudy(<Chat />, harness);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Save my answers" }));
    // The server's session now has the answers: the questions go, the message box opens.
    harness.context.session = session({ chat: { turns: [turn({ annotation_submitted: true })], answered: 1, can_send: true, can_finish: false } });
    rerenderInStudy(<Chat />);
    const saved = await screen.findByText(/Your answers about the reply are saved/);
    expect(saved.closest("[role=status]")).not.toBeNull();
    expect(saved.closest("[role=alert]")).toBeNull();
    expect(saved).toHaveClass("notice-saved");
    expect(saved).not.toHaveClass("notice-error");
    await waitFor(() => expect(screen.getByLabelText("Your message")).toHaveFocus());
    expect(screen.getByLabelText("Your message")).toHaveAttribute("aria-invalid", "false");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("offers to finish from the minimum on, and never names the model", () => {
    const harness = makeHarness({
      session: session({
        chat: { turns: [turn({ annotation_submitted: true }), turn({ number: 2, annotation_submitted: true })], answered: 2, can_send: true, can_finish: true },
      }),
    });
    renderInStudy(<Chat />, harness);
    expect(screen.getByRole("button", { name: "Finish the chat" })).toBeInTheDocument();
    expect(screen.getAllByText("Assistant")).toHaveLength(2);
  });

  it("asks about the last reply before the next message can be sent", () => {
    const harness = makeHarness({ session: session({ chat: { turns: [turn()], answered: 0, can_send: false, can_finish: false } }) });
    harness.server.on("GET", "/api/study/turns/1/annotation", annotationStep());
    renderInStudy(<Chat />, harness);
    expect(screen.getByRole("heading", { name: "About this reply" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send" })).toHaveAttribute("aria-disabled", "true");
  });
});
