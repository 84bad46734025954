// The chat's outbox (issue 39, item 3): a message sent offline waits, shown as waiting (no
// spinner, no error, the box not left broken), and goes by itself exactly once, with the same
// idempotency key, when the connection is back; it survives a reload; no stale error remains.
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WAITING_FOR_CONNECTION } from "../chat/Composer";
import { Chat } from "../screens/Chat";
import { json, sse, sseResponse, type Recorded } from "../test/fakeServer";
import { annotationStep, session, turn } from "../test/fixtures";
import { makeHarness, renderWithServerSession, type StudyHarness } from "../test/renderInStudy";

const MESSAGE = "I could not sleep again.";
const OUTBOX = "attune:outbox:test-study:PID1";

let online = true;
beforeEach(() => {
  online = true;
  vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
});
afterEach(() => vi.restoreAllMocks());

function goOnline() {
  online = true;
  act(() => void window.dispatchEvent(new Event("online")));
}

/** A server that stores a message and answers its reply; the session then has the turn. */
function chatServer(harness: StudyHarness) {
  let stored: ReturnType<typeof turn> | null = null;
  harness.server
    .on("POST", "/api/study/messages", (request: Recorded) => {
      const { text, idempotency_key } = request.body as { text: string; idempotency_key: string };
      stored = turn({ user_message: text, idempotency_key });
      return sseResponse([
        sse("turn", { turn: { number: 1, status: "streaming", user_message: text }, support: null }),
        sse("delta", { text: "That sounds hard." }),
        sse("done", { turn: stored, annotation: annotationStep() }),
      ]);
    })
    .on("GET", "/api/study/session", () =>
      json(session({ chat: { turns: stored ? [stored] : [], answered: 0, can_send: false, can_finish: false } })),
    )
    .on("PUT", "/api/study/drafts/message", () => json({}));
}

async function sendOffline(harness: StudyHarness) {
  online = false;
  const user = userEvent.setup();
  renderWithServerSession(<Chat />, harness);
  await user.type(screen.getByLabelText("Your message"), MESSAGE);
  await user.click(screen.getByRole("button", { name: "Send" }));
  return user;
}

describe("A message sent offline", () => {
  it("waits, said calmly: no request, no error, no spinner, the text kept in the box", async () => {
    const harness = makeHarness();
    chatServer(harness);
    await sendOffline(harness);
    expect(await screen.findByText(WAITING_FOR_CONNECTION)).toBeInTheDocument();
    expect(harness.server.calls("POST", "/api/study/messages")).toHaveLength(0);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.queryByText("Sending your message.")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Your message")).toHaveValue(MESSAGE);
    expect(screen.getByLabelText("Your message")).toHaveAttribute("readonly");
  });

  it("goes by itself once, with the same idempotency key, when the browser is online again", async () => {
    const harness = makeHarness();
    chatServer(harness);
    await sendOffline(harness);
    await screen.findByText(WAITING_FOR_CONNECTION);
    const key = (JSON.parse(window.sessionStorage.getItem(OUTBOX) ?? "[]") as { key: string }[])[0]?.key;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    goOnline();
    expect(await screen.findByRole("heading", { name: "About this reply" })).toBeInTheDocument();
    const sent = harness.server.calls("POST", "/api/study/messages");
    expect(sent.map((request) => request.body)).toEqual([{ text: MESSAGE, idempotency_key: key }]);
    goOnline(); // a second "online" sends nothing more
    expect(harness.server.calls("POST", "/api/study/messages")).toHaveLength(1);
    expect(screen.queryByText(WAITING_FOR_CONNECTION)).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(window.sessionStorage.getItem(OUTBOX)).toBeNull();
    expect(within(screen.getByRole("list", { name: "Conversation" })).getByText(MESSAGE)).toBeInTheDocument();
  });

  it("waits the same when the send itself never reaches the server, and goes on the next request that does, no stale error left", async () => {
    const harness = makeHarness();
    chatServer(harness);
    harness.server.fetch.mockImplementationOnce(async () => {
      throw new TypeError("Failed to fetch"); // navigator.onLine says online; the network is gone
    });
    const user = userEvent.setup();
    renderWithServerSession(<Chat />, harness);
    await user.type(screen.getByLabelText("Your message"), MESSAGE);
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText(WAITING_FOR_CONNECTION)).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    const firstTry = harness.server.fetch.mock.calls[0];
    const firstKey = (JSON.parse(String(firstTry?.[1]?.body)) as { idempotency_key: string }).idempotency_key;
    // Any answer from the server (here a draft save) means it is reachable again.
    await act(() => harness.client.saveDraft("other", {}).catch(() => undefined));
    expect(await screen.findByRole("heading", { name: "About this reply" })).toBeInTheDocument();
    // The one that never arrived, then once more with the same key.
    expect(harness.server.calls("POST", "/api/study/messages").map((r) => r.body)).toEqual([{ text: MESSAGE, idempotency_key: firstKey }]);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.queryByText(/could not reach the study server/)).not.toBeInTheDocument();
  });

  it("survives a reload: the new page shows it waiting and sends it once when online", async () => {
    const harness = makeHarness();
    chatServer(harness);
    await sendOffline(harness);
    await screen.findByText(WAITING_FOR_CONNECTION);
    const key = (JSON.parse(window.sessionStorage.getItem(OUTBOX) ?? "[]") as { key: string }[])[0]?.key;
    harness.drafts.flushLocal();
    // The reload: a fresh page (the same tab's storage), still offline.
    cleanup();
    const reloaded = makeHarness({ server: harness.server });
    renderWithServerSession(<Chat />, reloaded);
    expect(await screen.findByText(WAITING_FOR_CONNECTION)).toBeInTheDocument();
    expect(screen.getByLabelText("Your message")).toHaveValue(MESSAGE);
    goOnline();
    expect(await screen.findByRole("heading", { name: "About this reply" })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Your message")).toHaveValue(""));
    expect(harness.server.calls("POST", "/api/study/messages").map((r) => r.body)).toEqual([{ text: MESSAGE, idempotency_key: key }]);
  });
});
