import { describe, expect, it, vi } from "vitest";
import { rawSse, sse, sseResponse } from "../test/fakeServer";
import { annotationStep, turn } from "../test/fixtures";
import { followChatStream } from "./chatStream";

describe("followChatStream", () => {
  it("reports the stored turn, each token, then the finished turn and its annotation step", async () => {
    const onTurn = vi.fn();
    const onDelta = vi.fn();
    const response = sseResponse([
      sse("turn", { turn: { number: 1, status: "streaming", user_message: "Hi" }, support: null }),
      sse("delta", { text: "That " }),
      sse("delta", { text: "sounds hard." }),
      sse("done", { turn: turn({ reply: "That sounds hard." }), annotation: annotationStep() }),
    ]);
    const outcome = await followChatStream(response, { onTurn, onDelta });
    expect(onTurn).toHaveBeenCalledWith({ number: 1, user_message: "Hi" }, null);
    expect(onDelta.mock.calls.map(([text]) => text).join("")).toBe("That sounds hard.");
    expect(outcome).toMatchObject({ kind: "done", turn: { reply: "That sounds hard." }, annotation: { turn: 1 } });
  });

  it("passes on the support resources the server attaches to a risky message, with its turn", async () => {
    const onTurn = vi.fn();
    await followChatStream(
      sseResponse([sse("turn", { turn: { number: 2, status: "streaming", user_message: "..." }, support: { resources: "Call 116 123.", turn: 2 } })]),
      { onTurn },
    );
    expect(onTurn).toHaveBeenCalledWith(expect.objectContaining({ number: 2 }), { resources: "Call 116 123.", turn: 2 });
  });

  it("reports a failed reply with the server's retryable error", async () => {
    const error = { reason: "upstream_error", message: "The reply could not be written.", retryable: true } as const;
    const outcome = await followChatStream(
      sseResponse([sse("turn", { turn: { number: 3, status: "streaming", user_message: "x" }, support: null }), sse("error", { turn: { number: 3, status: "failed" }, error })]),
    );
    expect(outcome).toEqual({ kind: "failed", turnNumber: 3, error });
  });

  it("reports a stream that ends without done or error as cut, with the turn it had", async () => {
    const outcome = await followChatStream(
      sseResponse([sse("turn", { turn: { number: 4, status: "streaming", user_message: "x" }, support: null }), sse("delta", { text: "Par" })]),
    );
    expect(outcome).toEqual({ kind: "cut", turnNumber: 4 });
  });

  it("treats a connection that breaks mid-read as cut", async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new TextEncoder().encode(sse("turn", { turn: { number: 5, status: "streaming", user_message: "x" }, support: null })));
        else controller.error(new TypeError("network error"));
      },
    });
    const outcome = await followChatStream(new Response(body));
    expect(outcome).toEqual({ kind: "cut", turnNumber: 5 });
  });

  it("skips a malformed event and still takes the done that follows (not a lost connection)", async () => {
    const onDelta = vi.fn();
    const outcome = await followChatStream(
      sseResponse([
        sse("turn", { turn: { number: 1, status: "streaming", user_message: "Hi" }, support: null }),
        "event: delta\ndata: {not json\n\n",
        rawSse("delta", { text: 42 }),
        ": keep-alive comment\n\n",
        sse("delta", { text: "Fine." }),
        sse("done", { turn: turn({ reply: "Fine." }), annotation: annotationStep() }),
      ]),
      { onDelta },
    );
    expect(onDelta.mock.calls).toEqual([["Fine."]]);
    expect(outcome).toMatchObject({ kind: "done", turn: { reply: "Fine." } });
  });

  it("lets an exception of the app's own callback through instead of calling it a cut", async () => {
    const bug = new TypeError("a bug in the screen");
    const stream = followChatStream(
      sseResponse([sse("turn", { turn: { number: 1, status: "streaming", user_message: "Hi" }, support: null }), sse("delta", { text: "x" })]),
      {
        onDelta: () => {
          throw bug;
        },
      },
    );
    await expect(stream).rejects.toBe(bug);
  });

  it("reports a connection that breaks mid-reply as cut", async () => {
    const encoder = new TextEncoder();
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        if (pulls === 1) controller.enqueue(encoder.encode(sse("turn", { turn: { number: 4, status: "streaming", user_message: "Hi" }, support: null })));
        else controller.error(new TypeError("network error"));
      },
    });
    const outcome = await followChatStream(new Response(body));
    expect(outcome).toEqual({ kind: "cut", turnNumber: 4 });
  });
});
