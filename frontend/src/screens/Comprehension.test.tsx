// The comprehension check: the server's questions (no answers in the app), the missing list,
// what is sent, and the second attempt after a wrong first one; axe-clean in both states.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { expectNoAxeViolations } from "../test/axe";
import { session } from "../test/fixtures";
import { makeHarness, renderInStudy } from "../test/renderInStudy";
import type { ComprehensionCheck } from "../api/types";
import { Comprehension } from "./Comprehension";

const check: ComprehensionCheck = {
  questions: [
    {
      id: "task",
      question: "What will you do in this study? (server)",
      options: [
        { id: "chat", text: "Chat with an AI and rate its replies" },
        { id: "video", text: "Watch videos" },
      ],
    },
    {
      id: "withdraw",
      question: "Can you stop at any time? (server)",
      options: [
        { id: "yes", text: "Yes" },
        { id: "no", text: "No" },
      ],
    },
  ],
  attempts_left: 2,
  failed_before: false,
};

describe("Comprehension", () => {
  it("lists the unanswered questions, then sends each question's chosen option", async () => {
    const harness = makeHarness({ session: session({ step: "comprehension", chat: null, comprehension: check }) });
    const retry = session({ step: "comprehension", chat: null, comprehension: { ...check, attempts_left: 1, failed_before: true } });
    harness.server.on("POST", "/api/study/comprehension", retry);
    const user = userEvent.setup();
    const { container } = renderInStudy(<Comprehension />, harness);
    await expectNoAxeViolations(container);
    expect(screen.getByText("2 attempts left.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Check my answers" }));
    const missing = screen.getByRole("alert");
    expect(within(missing).getAllByRole("link")).toHaveLength(2);
    expect(harness.server.calls("POST", "/api/study/comprehension")).toHaveLength(0);
    const task = screen.getByRole("group", { name: "What will you do in this study? (server)" });
    await user.click(within(task).getByRole("radio", { name: "Watch videos" }));
    const stop = screen.getByRole("group", { name: "Can you stop at any time? (server)" });
    await user.click(within(stop).getByRole("radio", { name: "Yes" }));
    await user.click(screen.getByRole("button", { name: "Check my answers" }));
    expect(harness.server.calls("POST", "/api/study/comprehension")[0]?.body).toEqual({ answers: { task: "video", withdraw: "yes" } });
    expect(harness.context.setSession).toHaveBeenCalledWith(retry);
  });

  it("says the last attempt is left after a wrong one, and passes axe", async () => {
    const harness = makeHarness({
      session: session({ step: "comprehension", chat: null, comprehension: { ...check, attempts_left: 1, failed_before: true } }),
    });
    const { container } = renderInStudy(<Comprehension />, harness);
    expect(screen.getByRole("alert")).toHaveTextContent("this is your last attempt");
    expect(screen.getByText("1 attempt left.")).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "What will you do in this study? (server)" })).getByRole("radio", { name: "Watch videos" })).not.toBeChecked();
    await expectNoAxeViolations(container);
  });
});
