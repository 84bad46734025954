import { describe, expect, it } from "vitest";
import { errorResponse, FakeServer, json } from "../test/fakeServer";
import { session } from "../test/fixtures";
import { ApiClient, ApiError, NETWORK } from "./client";

describe("ApiClient", () => {
  it("sends the participant token as `Authorization: Participant <token>`", async () => {
    const server = new FakeServer().on("GET", "/api/study/session", session());
    const client = new ApiClient("/api/study/", server.fetch);
    client.authorize("abc123");
    await client.session();
    expect(server.requests[0]?.headers.get("Authorization")).toBe("Participant abc123");
  });

  it("starts with the Prolific ids and keeps the token it gets back", async () => {
    const server = new FakeServer().on("POST", "/api/study/my-study/start", () => json({ token: "t0k", session: session() }, 201));
    const client = new ApiClient("/api/study", server.fetch);
    await client.start("my-study", { prolificPid: "PID1", studyId: "S1", sessionId: "X1" });
    const request = server.requests[0];
    expect(request?.headers.get("Authorization")).toBeNull(); // no token before start
    expect(request?.body).toEqual({ prolific_pid: "PID1", study_id: "S1", session_id: "X1" });
    server.on("GET", "/api/study/session", session());
    await client.session();
    expect(server.requests[1]?.headers.get("Authorization")).toBe("Participant t0k");
  });

  it("turns the API's error shape into an ApiError with its code, field and extras", async () => {
    const server = new FakeServer().on("POST", "/api/study/turns/1/annotation", () =>
      errorResponse(409, "improved_reply_pending", "Still being written.", null, { retry_after: 3 }),
    );
    const client = new ApiClient("/api/study/", server.fetch);
    const error = await client
      .submitAnnotation(1, { mood_tags: [], behaviour: {}, edited_reply: null, pairwise: {}, attention: null, timings: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: "improved_reply_pending", message: "Still being written.", extra: { retry_after: 3 } });
  });

  it("names the offending field of an invalid request", async () => {
    const server = new FakeServer().on("POST", "/api/study/panas/pre", () =>
      errorResponse(400, "invalid", "items.Proud: please answer this item", "items.Proud"),
    );
    const client = new ApiClient("/api/study/", server.fetch);
    const error = (await client.panas("pre", {}).catch((e: unknown) => e)) as ApiError;
    expect(error.field).toBe("items.Proud");
  });

  it("reports an unreachable server as a network error, with a message for the participant", async () => {
    const client = new ApiClient("/api/study/", async () => {
      throw new TypeError("Failed to fetch");
    });
    const error = (await client.session().catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe(NETWORK);
    expect(error.message).toMatch(/connection/);
  });

  it("gives a generic message for an error page that is not the API's JSON", async () => {
    const client = new ApiClient("/api/study/", async () => new Response("<html>Bad gateway</html>", { status: 502 }));
    const error = (await client.session().catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe("http_502");
    expect(error.message).toMatch(/try again/);
  });

  it("asks for an event stream when sending a message, with the idempotency key", async () => {
    const server = new FakeServer().on("POST", "/api/study/messages", () => new Response("", { headers: { "Content-Type": "text/event-stream" } }));
    const client = new ApiClient("/api/study/", server.fetch);
    client.authorize("t");
    await client.sendMessage("Hello", "key-0123456789");
    const request = server.requests[0];
    expect(request?.headers.get("Accept")).toBe("text/event-stream");
    expect(request?.body).toEqual({ text: "Hello", idempotency_key: "key-0123456789" });
  });

  it("saves a draft with keepalive when asked (the page may be closing)", async () => {
    const server = new FakeServer().on("PUT", "/api/study/drafts/annotation%3A2", {});
    const client = new ApiClient("/api/study/", server.fetch);
    await client.saveDraft("annotation:2", { value: 1 }, true);
    expect(server.requests[0]).toMatchObject({ method: "PUT", body: { data: { value: 1 } }, keepalive: true });
  });
});
