// A draft save the server refuses (past its limits on drafts): what was typed stays in the box
// and in this browser, and the page says it is kept here only; once a save is taken again the
// notice goes. An offline save is not a refusal and says nothing.
import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Composer, MESSAGE_DRAFT } from "../chat/Composer";
import { errorResponse } from "../test/fakeServer";
import { makeHarness, renderInStudy } from "../test/renderInStudy";
import { DRAFTS_NOT_SAVED } from "./DraftsNotSavedNotice";
import { Screen } from "./Screen";

const composer = <Composer turns={[]} maxChars={4000} enabled reason={null} onSend={vi.fn()} />;
const page = <Screen title="Chat">{composer}</Screen>;

describe("DraftsNotSavedNotice", () => {
  it("says a refused draft is kept in this browser, and keeps it", async () => {
    const harness = makeHarness();
    let refuse = true;
    harness.server.on("PUT", "/api/study/drafts/message", () =>
      refuse ? errorResponse(400, "invalid", "drafts hold at most 256 KiB in all", "data") : new Response("{}"),
    );
    const user = userEvent.setup();
    const view = renderInStudy(page, harness);
    expect(screen.queryByText(DRAFTS_NOT_SAVED)).toBeNull();
    await user.type(screen.getByLabelText("Your message"), "Everything I wanted to say");
    await act(() => harness.drafts.flush());
    expect(await screen.findByText(DRAFTS_NOT_SAVED)).toBeInTheDocument();
    expect(screen.getByLabelText("Your message")).toHaveValue("Everything I wanted to say");
    expect(harness.drafts.pendingKeys).toEqual([MESSAGE_DRAFT]);
    // A reload of the page finds it in this browser.
    view.unmount();
    const reloaded = renderInStudy(page, makeHarness());
    expect(screen.getByLabelText("Your message")).toHaveValue("Everything I wanted to say");
    reloaded.unmount();
    // Taken on the next try: the notice goes.
    renderInStudy(page, harness);
    refuse = false;
    await act(() => harness.drafts.flush());
    expect(screen.queryByText(DRAFTS_NOT_SAVED)).toBeNull();
    expect(harness.drafts.pendingKeys).toEqual([]);
  });

  it("says nothing when the server could not be reached", async () => {
    const harness = makeHarness();
    harness.server.on("PUT", "/api/study/drafts/message", () => Promise.reject(new TypeError("Failed to fetch")));
    const user = userEvent.setup();
    renderInStudy(page, harness);
    await user.type(screen.getByLabelText("Your message"), "Offline words");
    await act(() => harness.drafts.flush());
    expect(harness.drafts.pendingKeys).toEqual([MESSAGE_DRAFT]);
    expect(harness.drafts.refused).toBe(false);
    expect(screen.queryByText(DRAFTS_NOT_SAVED)).toBeNull();
  });
});
