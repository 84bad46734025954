// A Server-Sent Events reader over fetch()'s ReadableStream. EventSource cannot send the
// Authorization header or a POST body, so the chat stream is read by hand. The parser follows
// the SSE rules the server relies on (annotations/participant_api/sse.py): `event:` and
// `data:` lines, a blank line ends an event, several data lines join with "\n", lines
// starting with ":" are comments, `id:` names the event (where a re-attach resumes); chunks may
// split a line (or a multi-byte character) anywhere.

export interface SseEvent {
  event: string;
  data: string;
  /** The event's `id:` (where to resume after it: Last-Event-ID), if it had one. */
  id?: string;
}

export class SseParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];
  private id: string | undefined;

  /** Feed decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // A lone "\r" at the very end may be the first half of "\r\n": wait for the next chunk.
      if (this.buffer[end] === "\r" && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, end);
      const width = this.buffer.startsWith("\r\n", end) ? 2 : 1;
      this.buffer = this.buffer.slice(end + width);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** The stream ended: a last "\r" still ends its line, but an event still missing its blank
   * line is dropped (it may have been cut short). */
  end(): SseEvent[] {
    const events = this.buffer.endsWith("\r") ? this.push("\n") : [];
    this.buffer = "";
    this.event = "";
    this.data = [];
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = "";
        this.id = undefined;
        return null;
      }
      const event: SseEvent = { event: this.event || "message", data: this.data.join("\n") };
      if (this.id !== undefined) event.id = this.id;
      this.event = "";
      this.data = [];
      this.id = undefined;
      return event;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.id = value;
    return null;
  }
}

/** The events of a response body, in order, as they arrive. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  const parser = new SseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    reader.releaseLock();
  }
}
