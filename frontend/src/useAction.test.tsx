// useAction offline (issue 39, item 3) and its unexpected errors (item 5): a step submitted
// without a connection waits with a calm notice (no alert, nothing busy) and is sent by
// itself, once and with the same answers, when the connection is back; a programming error
// is reported to the study's staff, a refusal of the server is not.
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api/client";
import { errorReporter, type ReportSender } from "./errors/report";
import { Consent } from "./screens/Consent";
import { json } from "./test/fakeServer";
import { session } from "./test/fixtures";
import { makeHarness, renderInStudy } from "./test/renderInStudy";
import { useAction, WAITING_MESSAGE } from "./useAction";

let online = true;
beforeEach(() => {
  online = true;
  vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
});
afterEach(() => errorReporter.connect(null));

const agree = () => screen.getByRole("button", { name: "I agree to take part" });

describe("A step submitted offline", () => {
  it("waits with a calm notice and goes by itself once, with the same answer, when online", async () => {
    const harness = makeHarness({ session: session({ step: "consent" }) });
    harness.server.on("POST", "/api/study/consent", () => json(session({ step: "profile" })));
    online = false;
    renderInStudy(<Consent />, harness);
    await userEvent.click(agree());
    expect(await screen.findByText(WAITING_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText(WAITING_MESSAGE).closest("[role=status]")).not.toBeNull();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(agree()).toHaveAttribute("aria-disabled", "false"); // nothing spins
    expect(harness.server.calls("POST", "/api/study/consent")).toHaveLength(0);
    online = true;
    act(() => void window.dispatchEvent(new Event("online")));
    await waitFor(() => expect(harness.context.setSession).toHaveBeenCalledTimes(1));
    act(() => void window.dispatchEvent(new Event("online")));
    expect(harness.server.calls("POST", "/api/study/consent").map((r) => r.body)).toEqual([{ consent_version: "v1", agree: true }]);
    expect(screen.queryByText(WAITING_MESSAGE)).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("waits when the request never arrives and goes on the next answer from the server, no stale error left", async () => {
    const harness = makeHarness({ session: session({ step: "consent" }) });
    harness.server.on("POST", "/api/study/consent", () => json(session({ step: "profile" }))).on("GET", "/api/study/session", session());
    harness.server.fetch.mockImplementationOnce(async () => {
      throw new TypeError("Failed to fetch");
    });
    renderInStudy(<Consent />, harness);
    await userEvent.click(agree());
    expect(await screen.findByText(WAITING_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText(/could not reach the study server/)).not.toBeInTheDocument();
    await act(() => harness.client.session());
    await waitFor(() => expect(harness.context.setSession).toHaveBeenCalledTimes(1));
    expect(harness.server.calls("POST", "/api/study/consent")).toHaveLength(1);
    expect(screen.queryByText(WAITING_MESSAGE)).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});

function Thrower({ error }: { error: unknown }) {
  const { run, error: shown } = useAction();
  return (
    <>
      <button type="button" onClick={() => void run(async () => Promise.reject(error))}>
        Go
      </button>
      {shown ? <p>{shown.message}</p> : null}
    </>
  );
}

describe("An unexpected error of a step's action", () => {
  it("is reported with the screen (and still shown as 'Something went wrong')", async () => {
    const sender = vi.fn<ReportSender>(async () => undefined);
    errorReporter.connect(sender);
    renderInStudy(<Thrower error={new TypeError("step.items is undefined")} />, makeHarness({ session: session({ step: "profile" }) }));
    fireEvent.click(screen.getByRole("button", { name: "Go" }));
    expect(await screen.findByText("Something went wrong. Please try again.")).toBeInTheDocument();
    expect(sender).toHaveBeenCalledWith(expect.objectContaining({ message: "TypeError: step.items is undefined", screen: "profile" }));
  });

  it("is not reported when it is the server's refusal", async () => {
    const sender = vi.fn<ReportSender>(async () => undefined);
    errorReporter.connect(sender);
    renderInStudy(<Thrower error={new ApiError(400, "invalid", "Please answer.")} />, makeHarness());
    fireEvent.click(screen.getByRole("button", { name: "Go" }));
    expect(await screen.findByText("Please answer.")).toBeInTheDocument();
    expect(sender).not.toHaveBeenCalled();
  });
});


