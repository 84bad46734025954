import { screen } from "@testing-library/react";
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

  it("shows progress toward the minimum and the support resources the backend flagged", () => {
    const harness = makeHarness({
      session: session({
        chat: { turns: [turn({ annotation_submitted: true })], answered: 1, can_send: true, can_finish: false },
        support: { resources: "Samaritans: 116 123" },
      }),
    });
    renderInStudy(<Chat />, harness);
    expect(screen.getByRole("progressbar", { name: "1 of 2 replies answered" })).toHaveAttribute("value", "1");
    const notice = screen.getByRole("alert", { name: "Support is available" });
    expect(notice).toHaveTextContent("Samaritans: 116 123");
    // Under the conversation, not at the top of the page, and kept in view by the stylesheet.
    const conversation = screen.getByRole("list", { name: "Conversation" });
    expect(conversation.compareDocumentPosition(notice) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(notice).toHaveClass("support-banner");
    expect(screen.queryByRole("button", { name: "Finish the chat" })).not.toBeInTheDocument();
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
