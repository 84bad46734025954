// A fetch() stand-in for tests: routes "METHOD path" to handlers and records every request
// (with its headers and JSON body), so tests exercise the real ApiClient.
import { vi } from "vitest";
import type { StreamEvent } from "../api/types";

export interface Recorded {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
  keepalive: boolean | undefined;
}

type Handler = (request: Recorded) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

export function errorResponse(status: number, code: string, message: string, field: string | null = null, extra = {}): Response {
  return json({ error: { code, message, field, ...extra } }, status);
}

/** An SSE response whose body arrives in the given chunks (strings or bytes). */
export function sseResponse(chunks: (string | Uint8Array)[]): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
  return new Response(stream, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

/** A chat stream event, typed as the server's schema types it (ChatStreamEvent). */
export function sse<Name extends StreamEvent["event"]>(event: Name, data: Extract<StreamEvent, { event: Name }>["data"]): string {
  return rawSse(event, data);
}

/** Any event, even one the schema does not allow (what a broken proxy might send). */
export function rawSse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class FakeServer {
  readonly requests: Recorded[] = [];
  private readonly routes = new Map<string, Handler>();
  readonly fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), "http://test.invalid");
    const method = (init.method ?? "GET").toUpperCase();
    const request: Recorded = {
      method,
      path: url.pathname,
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      keepalive: init.keepalive,
    };
    this.requests.push(request);
    const handler = this.routes.get(`${method} ${url.pathname}`);
    if (!handler) return errorResponse(404, "not_found", `no route for ${method} ${url.pathname}`);
    return handler(request);
  });

  on(method: string, path: string, handler: Handler | unknown): this {
    this.routes.set(`${method} ${path}`, typeof handler === "function" ? (handler as Handler) : () => json(handler));
    return this;
  }

  calls(method: string, path: string): Recorded[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }
}
