import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Complete } from "../screens/Exit";
import { Topic } from "../screens/Topic";
import { session } from "../test/fixtures";
import { makeHarness, renderInStudy } from "../test/renderInStudy";

const support = { resources: "Samaritans: 116 123", turn: 1 };

describe("the support notice names only what is on the page", () => {
  it("leaves out the withdraw button on the thank-you page, which has none", () => {
    renderInStudy(<Complete exit={null} />, makeHarness({ session: session({ step: "complete", support }) }));
    const notice = screen.getByRole("region", { name: "Support is available" });
    expect(notice).toHaveTextContent("Samaritans: 116 123");
    expect(notice).not.toHaveTextContent(/withdraw/i);
  });

  it("names the withdraw button on a step that has one", () => {
    renderInStudy(<Topic />, makeHarness({ session: session({ step: "topic", support }) }));
    expect(screen.getByRole("region", { name: "Support is available" })).toHaveTextContent(/withdraw from the study/);
  });
});
