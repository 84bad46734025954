import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { turn } from "../test/fixtures";
import { makeHarness, renderInStudy } from "../test/renderInStudy";
import { Composer, MESSAGE_DRAFT } from "./Composer";

describe("Composer", () => {
  it("keeps what was typed through a reload", async () => {
    const harness = makeHarness();
    harness.server.on("PUT", "/api/study/drafts/message", {});
    const user = userEvent.setup();
    const view = renderInStudy(<Composer turns={[]} maxChars={4000} enabled reason={null} onSend={vi.fn()} />, harness);
    await user.type(screen.getByLabelText("Your message"), "I could not sleep last night");
    view.unmount();
    renderInStudy(<Composer turns={[]} maxChars={4000} enabled reason={null} onSend={vi.fn()} />, harness);
    expect(screen.getByLabelText("Your message")).toHaveValue("I could not sleep last night");
  });

  it("sends a message twice with the same idempotency key when the first send did not get through", async () => {
    const harness = makeHarness();
    const onSend = vi.fn(async () => undefined); // never reports the message stored
    const user = userEvent.setup();
    renderInStudy(<Composer turns={[]} maxChars={4000} enabled reason={null} onSend={onSend} />, harness);
    await user.type(screen.getByLabelText("Your message"), "Hello");
    await user.click(screen.getByRole("button", { name: "Send" }));
    await user.click(screen.getByRole("button", { name: "Send" }));
    const [first, second] = onSend.mock.calls as unknown as [string, string][];
    expect(first?.[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(second?.[1]).toBe(first?.[1]);
  });

  it("empties the box once the server has stored the message", async () => {
    const harness = makeHarness();
    const user = userEvent.setup();
    const onSend = vi.fn(async (_text: string, _key: string, onStored: () => void) => onStored());
    renderInStudy(<Composer turns={[]} maxChars={4000} enabled reason={null} onSend={onSend} />, harness);
    await user.type(screen.getByLabelText("Your message"), "Hello");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(screen.getByLabelText("Your message")).toHaveValue("");
    expect(harness.drafts.read(MESSAGE_DRAFT)).toBeUndefined();
  });

  it("drops a draft whose message the server already stored (sent just before a reload)", () => {
    const harness = makeHarness();
    harness.drafts.write(MESSAGE_DRAFT, { text: "I feel nervous about work.", key: "k".repeat(32) });
    renderInStudy(<Composer turns={[turn({ idempotency_key: "k".repeat(32) })]} maxChars={4000} enabled reason={null} onSend={vi.fn()} />, harness);
    expect(screen.getByLabelText("Your message")).toHaveValue("");
  });

  it("keeps a message whose text was sent before (\"ok\" twice) and its key until it is stored", async () => {
    const harness = makeHarness();
    const user = userEvent.setup();
    const onSend = vi.fn(async () => undefined); // the stream never reports the message stored
    const before = turn({ user_message: "ok", idempotency_key: "a".repeat(32), annotation_submitted: true });
    renderInStudy(<Composer turns={[before]} maxChars={4000} enabled reason={null} onSend={onSend} />, harness);
    await user.type(screen.getByLabelText("Your message"), "ok");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(screen.getByLabelText("Your message")).toHaveValue("ok");
    const sentKey = (onSend.mock.calls[0] as unknown[])[1];
    expect(sentKey).toMatch(/^[0-9a-f]{32}$/);
    expect(harness.drafts.read(MESSAGE_DRAFT)).toEqual({ text: "ok", key: sentKey });
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect((onSend.mock.calls[1] as unknown[])[1]).toBe(sentKey); // a second press resends the same key
  });

  it("says why it cannot send yet, and keeps the button disabled", async () => {
    const harness = makeHarness();
    const user = userEvent.setup();
    renderInStudy(
      <Composer turns={[]} maxChars={4000} enabled={false} reason="Answer the questions about the reply above." onSend={vi.fn()} />,
      harness,
    );
    await user.type(screen.getByLabelText("Your message"), "Next");
    expect(screen.getByRole("button", { name: "Send" })).toHaveAttribute("aria-disabled", "true");
    expect(screen.getByLabelText("Your message")).toHaveAccessibleDescription(/Answer the questions/);
  });
});
