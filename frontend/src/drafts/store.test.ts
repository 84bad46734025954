import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerDraft } from "../api/types";
import { DraftStore, type DraftRemote } from "./store";

function remote(drafts: ServerDraft[] = []) {
  return {
    save: vi.fn<DraftRemote["save"]>(async () => undefined),
    remove: vi.fn<DraftRemote["remove"]>(async () => undefined),
    list: vi.fn<DraftRemote["list"]>(async () => drafts),
  };
}

describe("DraftStore", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("writes a draft to localStorage once typing pauses, not per keystroke, so a reload finds it", async () => {
    const setItem = vi.spyOn(Storage.prototype, "setItem");
    const store = new DraftStore("s:p", window.localStorage, remote(), 800, () => 1000, 500);
    for (const text of ["H", "He", "Hel", "Hell", "Hello"]) store.write("message", { text });
    expect(store.read("message")).toEqual({ text: "Hello" }); // the screen has it at once
    expect(setItem).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(setItem).toHaveBeenCalledTimes(1);
    expect(new DraftStore("s:p", window.localStorage, remote()).read("message")).toEqual({ text: "Hello" });
    setItem.mockRestore();
  });

  it("a flush (the page hidden or left) writes what is waiting to localStorage at once, then the server", async () => {
    const server = remote();
    const store = new DraftStore("s:p", window.localStorage, server, 800, () => 1000, 500);
    store.write("message", { text: "typed just now" });
    void store.flush(true); // what the pagehide listener does: the local write is synchronous
    expect(new DraftStore("s:p", window.localStorage, null).read("message")).toEqual({ text: "typed just now" });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.save).toHaveBeenCalledWith("message", { value: { text: "typed just now" }, savedAt: 1000 }, true);
  });

  it("a write while the page is hidden goes to localStorage and the server at once (no timer would run)", async () => {
    const server = remote();
    const store = new DraftStore("s:p", window.localStorage, server, 800, () => 1000, 500, () => true);
    store.write("annotation:1", { edited: "last words" });
    expect(new DraftStore("s:p", window.localStorage, null).read("annotation:1")).toEqual({ edited: "last words" });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.save).toHaveBeenCalledWith("annotation:1", expect.anything(), true);
  });

  it("keeps each participant's drafts apart", () => {
    new DraftStore("s:alice", window.localStorage, null).write("message", "hers");
    expect(new DraftStore("s:bob", window.localStorage, null).read("message")).toBeUndefined();
  });

  it("sends the latest value to the server once typing pauses", async () => {
    const server = remote();
    const store = new DraftStore("s:p", window.localStorage, server, 500, () => 1000);
    store.write("message", "H");
    store.write("message", "Hi");
    expect(server.save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(server.save).toHaveBeenCalledTimes(1);
    expect(server.save).toHaveBeenCalledWith("message", { value: "Hi", savedAt: 1000 }, false);
    expect(store.pendingKeys).toEqual([]);
  });

  it("keeps a save the server did not take and sends it on the next flush", async () => {
    const server = remote();
    server.save.mockRejectedValueOnce(new Error("offline"));
    const store = new DraftStore("s:p", window.localStorage, server, 500);
    store.write("profile", { age: "34" });
    await vi.advanceTimersByTimeAsync(500);
    expect(store.pendingKeys).toEqual(["profile"]);
    await store.flush(true);
    expect(server.save).toHaveBeenLastCalledWith("profile", expect.objectContaining({ value: { age: "34" } }), true);
    expect(store.pendingKeys).toEqual([]);
  });

  it("forgets a cleared draft, including a save that was still waiting", async () => {
    const server = remote();
    const store = new DraftStore("s:p", window.localStorage, server, 500);
    store.write("annotation:1", { noChange: true });
    store.clear("annotation:1");
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.save).not.toHaveBeenCalled();
    expect(server.remove).toHaveBeenCalledWith("annotation:1");
    expect(new DraftStore("s:p", window.localStorage, null).read("annotation:1")).toBeUndefined();
  });

  it("keeps one save in flight per key: the next waits, and only the latest value goes", async () => {
    const server = remote();
    const releases: (() => void)[] = [];
    server.save.mockImplementation(() => new Promise<void>((resolve) => releases.push(resolve)));
    const store = new DraftStore("s:p", window.localStorage, server, 500);
    store.write("message", "a");
    await vi.advanceTimersByTimeAsync(500);
    store.write("message", "ab");
    await vi.advanceTimersByTimeAsync(500);
    store.write("message", "abc");
    void store.flush();
    await vi.advanceTimersByTimeAsync(500);
    expect(server.save).toHaveBeenCalledTimes(1); // "a" is still in flight
    releases.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.save).toHaveBeenCalledTimes(2);
    expect(server.save.mock.calls[1]?.[1]).toMatchObject({ value: "abc" });
    releases.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.save).toHaveBeenCalledTimes(2);
    expect(store.pendingKeys).toEqual([]);
  });

  it("deletes the server's copy only after a save still in flight, so it is not written back", async () => {
    const server = remote();
    const order: string[] = [];
    let release = () => undefined as void;
    server.save.mockImplementation(() => new Promise<void>((resolve) => (release = () => (order.push("save"), resolve()))));
    server.remove.mockImplementation(async () => void order.push("remove"));
    const store = new DraftStore("s:p", window.localStorage, server, 500);
    store.write("annotation:2", { noChange: true });
    await vi.advanceTimersByTimeAsync(500);
    store.clear("annotation:2");
    await vi.advanceTimersByTimeAsync(0);
    expect(server.remove).not.toHaveBeenCalled();
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(["save", "remove"]);
  });

  it("deletes a cleared draft on the server at the next flush when it was offline", async () => {
    const server = remote();
    server.remove.mockRejectedValueOnce(new Error("offline"));
    const store = new DraftStore("s:p", window.localStorage, server, 500);
    store.clear("message");
    await vi.advanceTimersByTimeAsync(0);
    expect(store.pendingKeys).toEqual(["message"]);
    await store.flush();
    expect(server.remove).toHaveBeenCalledTimes(2);
    expect(store.pendingKeys).toEqual([]);
  });

  it("after a reload a fresh store reads what was typed from localStorage itself", () => {
    const before = new DraftStore("s:p", window.localStorage, remote());
    before.write("post_survey", { emotion_clarity: "clear" });
    before.flushLocal();
    const raw = window.localStorage.getItem("attune:draft:s:p:post_survey");
    expect(JSON.parse(raw ?? "null")).toMatchObject({ value: { emotion_clarity: "clear" } });
    expect(new DraftStore("s:p", window.localStorage, remote()).read("post_survey")).toEqual({ emotion_clarity: "clear" });
  });

  it("when localStorage refuses writes, a fresh store after a reload gets the text back from the server", async () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => undefined,
    };
    const saved: ServerDraft[] = [];
    const server = remote(saved);
    server.save.mockImplementation(async (key, data) => void saved.push({ key, data, updated_at: "" }));
    const before = new DraftStore("s:p", refusing, server, 500);
    before.write("message", "typed before the reload");
    await vi.advanceTimersByTimeAsync(500);
    const after = new DraftStore("s:p", refusing, server, 500);
    expect(after.read("message")).toBeUndefined();
    await after.restore();
    expect(after.read("message")).toBe("typed before the reload");
  });

  it("takes the server's copy when it is newer (another device), and keeps its own when not", async () => {
    const local = new DraftStore("s:p", window.localStorage, null, 500, () => 2000);
    local.write("message", "typed here later");
    local.write("profile", { age: "3" });
    local.flushLocal();
    const server = remote([
      { key: "message", data: { value: "older on the server", savedAt: 1000 }, updated_at: "" },
      { key: "profile", data: { value: { age: "34" }, savedAt: 3000 }, updated_at: "" },
      { key: "panas:pre", data: { value: { Proud: 2 }, savedAt: 1500 }, updated_at: "" },
      { key: "junk", data: "not an envelope", updated_at: "" },
    ]);
    const store = new DraftStore("s:p", window.localStorage, server);
    await store.restore();
    expect(store.read("message")).toBe("typed here later");
    expect(store.read("profile")).toEqual({ age: "34" });
    expect(store.read("panas:pre")).toEqual({ Proud: 2 });
    expect(store.read("junk")).toBeUndefined();
  });

  it("still works when localStorage refuses to store anything (private mode)", () => {
    const refusing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => undefined,
    };
    const store = new DraftStore("s:p", refusing, null);
    store.write("message", "kept in memory");
    expect(store.read("message")).toBe("kept in memory");
  });
});
