// The chat against the app's real session store: a streamed send, a stream cut off, a session
// read that fails after the reply (nothing leaves the screen), and polls that overlap.
import { act, renderHook, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { MESSAGE_DRAFT } from "../chat/Composer";
import { useServerSession } from "../session/useServerSession";
import { errorResponse, json, sse, sseResponse } from "../test/fakeServer";
import { annotationStep, session, turn } from "../test/fixtures";
import { makeHarness, renderWithServerSession } from "../test/renderInStudy";
import { Chat } from "./Chat";

const MESSAGE = "I feel nervous about work.";
const stored = { number: 1, status: "streaming", user_message: MESSAGE } as const;

const conversation = () => within(screen.getByRole("list", { name: "Conversation" }));

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("Chat with the session store", () => {
  it("sends a message, shows the reply as it streams, then asks about it", async () => {
    const harness = makeHarness();
    const done = turn({ idempotency_key: null });
    harness.server
      .on("POST", "/api/study/messages", () =>
        sseResponse([
          sse("turn", { turn: stored, support: null }),
          sse("delta", { text: "That sounds " }),
          sse("delta", { text: "hard." }),
          sse("done", { turn: done, annotation: annotationStep() }),
        ]),
      )
      .on("GET", "/api/study/session", session({ chat: { turns: [done], answered: 0, can_send: false, can_finish: false } }));
    const user = userEvent.setup();
    renderWithServerSession(<Chat />, harness);
    await user.type(screen.getByLabelText("Your message"), MESSAGE);
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("heading", { name: "About this reply" })).toBeInTheDocument();
    expect(conversation().getByText("That sounds hard.")).toBeInTheDocument();
    expect(conversation().getByText(MESSAGE)).toBeInTheDocument();
    // The questions are the next step (the message box is closed): their heading has the focus.
    await waitFor(() => expect(screen.getByRole("heading", { name: "About this reply" })).toHaveFocus());
    expect(screen.getByLabelText("Your message")).toHaveValue("");
    expect(harness.drafts.read(MESSAGE_DRAFT)).toBeUndefined();
    const [sent] = harness.server.calls("POST", "/api/study/messages");
    expect(sent?.body).toMatchObject({ text: MESSAGE, idempotency_key: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(harness.server.calls("GET", "/api/study/session")).toHaveLength(1);
  });

  it("re-attaches to the same reply when the stream stops mid-reply, and shows the rest of it", async () => {
    const harness = makeHarness();
    const done = turn({ reply: "Half a reply, then the rest." });
    harness.server
      .on("POST", "/api/study/messages", () =>
        sseResponse([`id: 1:0\n${sse("turn", { turn: stored, support: null })}`, `id: 1:10\n${sse("delta", { text: "Half a rep" })}`]),
      )
      .on("GET", "/api/study/turns/1/stream", () =>
        sseResponse([`id: 1:28\n${sse("delta", { text: "ly, then the rest." })}`, `id: 1:end\n${sse("done", { turn: done, annotation: annotationStep() })}`]),
      )
      .on("GET", "/api/study/session", session({ chat: { turns: [done], answered: 0, can_send: false, can_finish: false } }));
    const user = userEvent.setup();
    renderWithServerSession(<Chat />, harness);
    await user.type(screen.getByLabelText("Your message"), MESSAGE);
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(await conversation().findByText("Half a reply, then the rest.")).toBeInTheDocument();
    const reattached = harness.server.calls("GET", "/api/study/turns/1/stream");
    expect(reattached).toHaveLength(1);
    expect(reattached[0]?.headers.get("Last-Event-ID")).toBe("1:10"); // only the rest
    expect(harness.server.calls("POST", "/api/study/messages")).toHaveLength(1); // no new reply
    expect(screen.queryByText(/The connection was lost/)).not.toBeInTheDocument();
  });

  it("re-attaches to a reply that was on its way when the page loaded, from its start", async () => {
    const streaming = turn({ status: "streaming", reply: "" });
    const harness = makeHarness({ session: session({ chat: { turns: [streaming], answered: 0, can_send: false, can_finish: false } }) });
    const done = turn({ reply: "The whole reply." });
    let settled = false;
    harness.server
      .on("GET", "/api/study/turns/1/stream", () => {
        settled = true;
        return sseResponse([
          `id: 1:0\n${sse("turn", { turn: stored, support: null })}`,
          `id: 1:16\n${sse("delta", { text: "The whole reply." })}`,
          `id: 1:end\n${sse("done", { turn: done, annotation: annotationStep() })}`,
        ]);
      })
      .on("GET", "/api/study/session", () =>
        json(session({ chat: { turns: [settled ? done : streaming], answered: 0, can_send: false, can_finish: false } })),
      );
    renderWithServerSession(<Chat />, harness);
    expect(await conversation().findByText("The whole reply.")).toBeInTheDocument();
    const reattached = harness.server.calls("GET", "/api/study/turns/1/stream");
    expect(reattached).toHaveLength(1);
    expect(reattached[0]?.headers.get("Last-Event-ID")).toBeNull();
    expect(harness.server.calls("POST", "/api/study/turns/1/retry")).toHaveLength(0);
  });

  it("keeps the reply and the message on screen when reading the session fails, and offers to load it again", async () => {
    const harness = makeHarness();
    const done = turn();
    let sessionUp = false;
    harness.server
      .on("POST", "/api/study/messages", () =>
        sseResponse([sse("turn", { turn: stored, support: null }), sse("delta", { text: "That sounds hard." }), sse("done", { turn: done, annotation: annotationStep() })]),
      )
      .on("GET", "/api/study/session", () =>
        sessionUp ? json(session({ chat: { turns: [done], answered: 0, can_send: false, can_finish: false } })) : errorResponse(502, "bad_gateway", "Down."),
      );
    const user = userEvent.setup();
    renderWithServerSession(<Chat />, harness);
    await user.type(screen.getByLabelText("Your message"), MESSAGE);
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText(/could not load the latest state of the chat/)).toBeInTheDocument();
    expect(conversation().getByText("That sounds hard.")).toBeInTheDocument();
    expect(conversation().getByText(MESSAGE)).toBeInTheDocument();
    sessionUp = true;
    await user.click(screen.getByRole("button", { name: "Load it again" }));
    await waitFor(() => expect(screen.queryByText(/could not load the latest state/)).not.toBeInTheDocument());
    expect(conversation().getByText("That sounds hard.")).toBeInTheDocument();
  });
});

/** A stream that sends `before`, waits for `gate`, then sends `after`. */
function pausedSse(before: string[], gate: Promise<void>, after: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of before) controller.enqueue(encoder.encode(chunk));
      await gate;
      for (const chunk of after) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

describe("The support notice of a risky message", () => {
  it("appears under the message as soon as it is stored, and stays the same notice once the reply is", async () => {
    const harness = makeHarness();
    const done = turn({ user_message: MESSAGE });
    const reply = deferred<void>();
    harness.server
      .on("POST", "/api/study/messages", () =>
        pausedSse(
          [sse("turn", { turn: stored, support: { resources: "Samaritans: 116 123", turn: 1 } }), sse("delta", { text: "That sounds hard." })],
          reply.promise,
          [sse("done", { turn: done, annotation: annotationStep() })],
        ),
      )
      .on("GET", "/api/study/session", session({
        chat: { turns: [done], answered: 0, can_send: false, can_finish: false },
        support: { resources: "Samaritans: 116 123", turn: 1 },
      }));
    const user = userEvent.setup();
    renderWithServerSession(<Chat />, harness);
    const box = screen.getByLabelText("Your message");
    await user.type(box, MESSAGE);
    await user.keyboard("{Control>}{Enter}{/Control}"); // sent from the box: the focus stays there
    const notice = await screen.findByRole("alert", { name: "Support is available" });
    const message = conversation().getByText(MESSAGE);
    expect(message.compareDocumentPosition(notice) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(notice.compareDocumentPosition(conversation().getByText("That sounds hard.")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(box).toHaveFocus(); // never taken from the message box
    reply.resolve();
    expect(await screen.findByRole("heading", { name: "About this reply" })).toBeInTheDocument();
    // The stored turn is the same list item: the notice is not drawn (and announced) again.
    expect(screen.getByRole("alert", { name: "Support is available" })).toBe(notice);
  });
});

describe("The support notice of a message only the moderation model flagged", () => {
  it("appears under the message once a session read names its turn, though the stream raised none", async () => {
    const harness = makeHarness();
    const done = turn({ user_message: MESSAGE });
    // The word match saw nothing (no support in the turn event); the moderation verdict, made
    // in the background, is in the session the app reads after the reply.
    harness.server
      .on("POST", "/api/study/messages", () =>
        sseResponse([sse("turn", { turn: stored, support: null }), sse("delta", { text: "That sounds hard." }), sse("done", { turn: done, annotation: annotationStep() })]),
      )
      .on("GET", "/api/study/session", session({
        chat: { turns: [done], answered: 0, can_send: false, can_finish: false },
        support: { resources: "Samaritans: 116 123", turn: 1 },
      }));
    const user = userEvent.setup();
    renderWithServerSession(<Chat />, harness);
    const box = screen.getByLabelText("Your message");
    await user.type(box, MESSAGE);
    await user.keyboard("{Control>}{Enter}{/Control}");
    const notice = await screen.findByRole("alert", { name: "Support is available" });
    expect(notice).toHaveTextContent("Samaritans: 116 123");
    expect(notice.closest("li")).toBe(conversation().getByText(MESSAGE).closest("li"));
    expect(notice.contains(document.activeElement)).toBe(false); // it takes no focus
  });
});

describe("useServerSession", () => {
  it("ignores a slow poll's answer that arrives after a newer one", async () => {
    const harness = makeHarness();
    const slow = deferred<Response>();
    const pending = session({ chat: { turns: [turn({ status: "streaming", reply: "" })], answered: 0, can_send: false, can_finish: false } });
    const ready = session({ chat: { turns: [turn()], answered: 0, can_send: false, can_finish: false } });
    let calls = 0;
    harness.server.on("GET", "/api/study/session", () => (++calls === 1 ? slow.promise : json(ready)));
    const wrapper = ({ children }: { children: ReactNode }) => <>{children}</>;
    const { result } = renderHook(() => useServerSession(harness.client, pending), { wrapper });
    let first: Promise<void> = Promise.resolve();
    await act(async () => {
      first = result.current.refresh();
      await result.current.refresh();
    });
    expect(result.current.session.chat?.turns[0]?.status).toBe("done");
    await act(async () => {
      slow.resolve(json(pending));
      await first;
    });
    expect(result.current.session.chat?.turns[0]?.status).toBe("done");
  });

  it("lets a stream's final turn stand against a read that was sent before it", async () => {
    const harness = makeHarness();
    const slow = deferred<Response>();
    const pending = session({ chat: { turns: [turn({ status: "streaming", reply: "" })], answered: 0, can_send: false, can_finish: false } });
    harness.server.on("GET", "/api/study/session", () => slow.promise);
    const { result } = renderHook(() => useServerSession(harness.client, pending));
    let read: Promise<void> = Promise.resolve();
    act(() => {
      read = result.current.refresh();
      result.current.mergeTurn(turn());
    });
    await act(async () => {
      slow.resolve(json(pending));
      await read;
    });
    expect(result.current.session.chat?.turns[0]).toMatchObject({ status: "done", reply: "That sounds hard." });
  });
});
