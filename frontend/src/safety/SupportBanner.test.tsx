import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeHarness, renderInStudy } from "../test/renderInStudy";
import { SupportBanner } from "./SupportBanner";

describe("SupportBanner", () => {
  it("is announced, leaves the focus where it was, and can be hidden and shown again", async () => {
    const user = userEvent.setup();
    const harness = makeHarness();
    renderInStudy(
      <>
        <label htmlFor="message">Your message</label>
        <textarea id="message" autoFocus />
        <SupportBanner resources={"Samaritans: 116 123\nIn danger: 112"} />
      </>,
      harness,
    );
    const notice = screen.getByRole("alert", { name: "Support is available" });
    expect(notice).toHaveTextContent("Samaritans: 116 123");
    expect(screen.getByLabelText("Your message")).toHaveFocus();
    expect(screen.getByRole("button", { name: "Withdraw from the study" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Hide this message" }));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show the support resources" }));
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
