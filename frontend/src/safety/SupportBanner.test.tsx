import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { saveStoredSession } from "../session/storage";
import { expectNoAxeViolations } from "../test/axe";
import { session } from "../test/fixtures";
import { makeHarness, renderInStudy } from "../test/renderInStudy";
import { SupportBanner } from "./SupportBanner";

const RESOURCES = "Samaritans: 116 123\nIn danger: 112";

function signedIn(prolificPid: string) {
  saveStoredSession("test-study", { token: "t", prolificPid, studyId: "", sessionId: "" });
}

describe("SupportBanner", () => {
  it("appears in full: announced inside its named region, leaving the focus where it was", async () => {
    const { container } = renderInStudy(
      <>
        <label htmlFor="message">Your message</label>
        <textarea id="message" autoFocus />
        <SupportBanner resources={RESOURCES} turn={1} />
      </>,
      makeHarness(),
    );
    const region = screen.getByRole("region", { name: "Support is available" });
    const announced = screen.getByRole("alert", { name: "Support is available" });
    expect(region).toContainElement(announced);
    expect(region.tagName).toBe("SECTION"); // not an <aside> with role="alert" (axe)
    expect(announced).toHaveTextContent("Samaritans: 116 123");
    expect(screen.getByLabelText("Your message")).toHaveFocus();
    for (const name of ["Take a break", "Hide this message", "Withdraw from the study"]) {
      expect(region).toContainElement(screen.getByRole("button", { name }));
    }
    await expectNoAxeViolations(container);
  });

  it("folds into a one-line bar that takes the focus, and opens again from it", async () => {
    const user = userEvent.setup();
    const { container } = renderInStudy(<SupportBanner resources={RESOURCES} turn={1} />, makeHarness());
    await user.click(screen.getByRole("button", { name: "Hide this message" }));
    expect(screen.queryByRole("region", { name: "Support is available" })).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    const bar = screen.getByRole("button", { name: "Show the support resources" });
    expect(bar).toHaveFocus();
    await expectNoAxeViolations(container);

    await user.click(bar);
    const region = screen.getByRole("region", { name: "Support is available" });
    expect(region).toHaveTextContent("Samaritans: 116 123");
    expect(screen.getByRole("heading", { name: "Support is available" })).toHaveFocus();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument(); // asked for: not announced again
    await expectNoAxeViolations(container);
  });

  it("stays folded after a reload of the page, until the participant opens it again", async () => {
    const user = userEvent.setup();
    signedIn("PID1");
    const first = renderInStudy(<SupportBanner resources={RESOURCES} turn={1} />, makeHarness());
    await user.click(screen.getByRole("button", { name: "Hide this message" }));
    first.unmount();

    const reloaded = renderInStudy(<SupportBanner resources={RESOURCES} turn={1} />, makeHarness());
    expect(screen.queryByRole("region", { name: "Support is available" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show the support resources" }));
    reloaded.unmount();

    renderInStudy(<SupportBanner resources={RESOURCES} turn={1} />, makeHarness());
    expect(screen.getByRole("alert", { name: "Support is available" })).toBeInTheDocument();
  });

  it("comes back in full when a later message raises it, or for another participant of this tab", async () => {
    const user = userEvent.setup();
    signedIn("PID1");
    const first = renderInStudy(<SupportBanner resources={RESOURCES} turn={1} />, makeHarness());
    await user.click(screen.getByRole("button", { name: "Hide this message" }));
    first.unmount();

    const later = renderInStudy(<SupportBanner resources={RESOURCES} turn={3} />, makeHarness());
    expect(screen.getByRole("alert", { name: "Support is available" })).toBeInTheDocument();
    later.unmount();

    const nextConversation = makeHarness({
      session: session({ conversation: { number: 2, topic_category: "work", topic_subtopic: "", topic_other: "" } }),
    });
    const second = renderInStudy(<SupportBanner resources={RESOURCES} turn={1} />, nextConversation);
    expect(screen.getByRole("alert", { name: "Support is available" })).toBeInTheDocument();
    second.unmount();

    signedIn("PID2"); // a shared computer: someone else's session in this tab
    renderInStudy(<SupportBanner resources={RESOURCES} turn={1} />, makeHarness());
    expect(screen.getByRole("alert", { name: "Support is available" })).toBeInTheDocument();
  });

  it("offers a pause that says nothing is lost", async () => {
    const user = userEvent.setup();
    renderInStudy(<SupportBanner resources="Call 112" />, makeHarness());
    await user.click(screen.getByRole("button", { name: "Take a break" }));
    expect(screen.getByText(/Everything you wrote is saved/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "I am ready to go on" })).toHaveAttribute("aria-pressed", "true");
  });
});
