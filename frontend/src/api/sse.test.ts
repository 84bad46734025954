import { describe, expect, it } from "vitest";
import { readSse, SseParser } from "./sse";

async function collect(chunks: (string | Uint8Array)[]) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
  const events = [];
  for await (const event of readSse(body)) events.push(event);
  return events;
}

describe("SseParser", () => {
  it("reads the server's events: an event line, a data line, a blank line", () => {
    const parser = new SseParser();
    const events = parser.push('event: delta\ndata: {"text":"Hel"}\n\nevent: delta\ndata: {"text":"lo"}\n\n');
    expect(events).toEqual([
      { event: "delta", data: '{"text":"Hel"}' },
      { event: "delta", data: '{"text":"lo"}' },
    ]);
  });

  it("keeps a line that a chunk boundary splits until it is complete", () => {
    const parser = new SseParser();
    expect(parser.push("event: de")).toEqual([]);
    expect(parser.push('lta\ndata: {"te')).toEqual([]);
    expect(parser.push('xt":"x"}\n')).toEqual([]);
    expect(parser.push("\n")).toEqual([{ event: "delta", data: '{"text":"x"}' }]);
  });

  it("accepts CRLF and CR line ends, even split between chunks", () => {
    const parser = new SseParser();
    expect(parser.push("event: turn\r\ndata: 1\r")).toEqual([]);
    expect(parser.push("\n\r\n")).toEqual([{ event: "turn", data: "1" }]);
    expect(parser.push("data: 2\r\r")).toEqual([]); // the last "\r" may be half of "\r\n"
    expect(parser.end()).toEqual([{ event: "message", data: "2" }]);
  });

  it("joins several data lines with newlines and ignores comments and unknown fields", () => {
    const parser = new SseParser();
    const events = parser.push(": keep-alive\nid: 7\nevent: done\ndata: a\ndata:b\nretry: 5\n\n");
    expect(events).toEqual([{ event: "done", data: "a\nb", id: "7" }]);
  });

  it("gives each event its own id (where a re-attach resumes), none to an event without one", () => {
    const parser = new SseParser();
    const events = parser.push("id: 3:0\nevent: turn\ndata: {}\n\nevent: queued\ndata: {}\n\n");
    expect(events).toEqual([
      { event: "turn", data: "{}", id: "3:0" },
      { event: "queued", data: "{}" },
    ]);
  });

  it("drops an event the stream ends before its blank line (it may be cut short)", () => {
    const parser = new SseParser();
    expect(parser.push('event: done\ndata: {"turn"')).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});

describe("readSse", () => {
  it("decodes multi-byte characters split across network chunks", async () => {
    const bytes = new TextEncoder().encode('event: delta\ndata: {"text":"Ça va 💬"}\n\n');
    const cut = bytes.indexOf(0xf0) + 2; // in the middle of the emoji's four bytes
    const events = await collect([bytes.slice(0, cut), bytes.slice(cut)]);
    expect(events).toEqual([{ event: "delta", data: '{"text":"Ça va 💬"}' }]);
  });
});
