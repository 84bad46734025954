import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { sse, sseResponse } from "../test/fakeServer";
import { followChatStream } from "../api/chatStream";
import { TurnView } from "./TurnView";

describe("a reply waiting for a busy model", () => {
  it("hears the queued event and says the reply waits for the model, until its text comes", async () => {
    const onQueued = vi.fn();
    await followChatStream(
      sseResponse([
        sse("turn", { turn: { number: 1, status: "streaming", user_message: "Hi" }, support: null }),
        sse("queued", { reason: "model_busy" }),
      ]),
      { onQueued },
    );
    expect(onQueued).toHaveBeenCalledTimes(1);

    const live = { number: 1, userMessage: "Hi", text: "", queued: true };
    const view = render(<TurnView turn={null} live={live} busy onRetry={() => undefined} />);
    expect(screen.getByRole("status")).toHaveTextContent(/waiting for the model/);
    expect(screen.getByRole("status")).toHaveTextContent(/Your message is saved/);

    view.rerender(<TurnView turn={null} live={{ ...live, text: "That sounds hard." }} busy onRetry={() => undefined} />);
    expect(screen.queryByText(/waiting for the model/)).toBeNull();
    expect(screen.getByText("That sounds hard.")).toBeInTheDocument();
  });
});
