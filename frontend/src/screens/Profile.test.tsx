// The profile step: questions and options come from the instrument; choices are sent as option
// ids; an "other" option opens a text box; an under-age answer is confirmed before the study
// ends; errors are on screen before the focus moves to them.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { expectNoAxeViolations } from "../test/axe";
import { errorResponse } from "../test/fakeServer";
import { instrument, session } from "../test/fixtures";
import { makeHarness, renderInStudy } from "../test/renderInStudy";
import { nextChoices, Profile } from "./Profile";

const next = session({ step: "pre_panas", chat: null });
const diagnoses = instrument.profile[2]!;

describe("Profile", () => {
  it("renders the instrument's questions and sends option ids with the other text", async () => {
    const harness = makeHarness({ session: session({ step: "profile", chat: null }) });
    harness.server.on("POST", "/api/study/profile", next);
    const user = userEvent.setup();
    const { container } = renderInStudy(<Profile />, harness);
    await expectNoAxeViolations(container);
    await user.type(screen.getByLabelText("Your age in years"), "34");
    await user.click(screen.getByRole("radio", { name: "Woman" }));
    const group = screen.getByRole("group", { name: "Diagnosed conditions" });
    await user.click(screen.getByRole("checkbox", { name: "Anxiety" }));
    expect(screen.queryByLabelText("Please describe (in your own words)")).toBeNull();
    await user.click(within(group, "Something else"));
    const other = screen.getByLabelText("Please describe (in your own words)");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    // The text box is required once its option is chosen: error first, then the focus.
    expect(other).toHaveFocus();
    expect(other).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Please describe it in a few words.")).toBeInTheDocument();
    await user.type(other, "OCD");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(harness.server.calls("POST", "/api/study/profile")[0]?.body).toEqual({
      age: 34,
      age_confirmed: false,
      answers: { gender: "woman", diagnoses: ["anxiety", "other"] },
      other_text: { diagnoses: "OCD" },
    });
    await expectNoAxeViolations(container);
  });

  it("marks the age invalid before moving the focus to it", async () => {
    const harness = makeHarness({ session: session({ step: "profile", chat: null }) });
    const user = userEvent.setup();
    renderInStudy(<Profile />, harness);
    const age = screen.getByLabelText("Your age in years");
    const invalidWhenFocused: (string | null)[] = [];
    age.addEventListener("focus", () => invalidWhenFocused.push(age.getAttribute("aria-invalid")));
    await user.type(age, "thirty");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(age).toHaveFocus();
    expect(invalidWhenFocused.at(-1)).toBe("true");
    expect(screen.getByText("Enter your age as a whole number.")).toBeInTheDocument();
    expect(harness.server.calls("POST", "/api/study/profile")).toHaveLength(0);
  });

  it("asks 'You entered 15. Is that right?' before the screen-out ends the study", async () => {
    const harness = makeHarness({ session: session({ step: "profile", chat: null }) });
    harness.server.on("POST", "/api/study/profile", () =>
      errorResponse(400, "invalid", "You entered 15. Is that right?", "age", { needs_confirmation: true }),
    );
    const user = userEvent.setup();
    renderInStudy(<Profile />, harness);
    await user.type(screen.getByLabelText("Your age in years"), "15");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    const question = await screen.findByText("You entered 15. Is that right?");
    expect(question).toHaveFocus();
    // "No": back to the age, nothing ended.
    await user.click(screen.getByRole("button", { name: "No, let me correct it" }));
    expect(screen.getByLabelText("Your age in years")).toHaveFocus();
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await screen.findByText("You entered 15. Is that right?");
    harness.server.on("POST", "/api/study/profile", session({ step: "screened_out", chat: null }));
    await user.click(screen.getByRole("button", { name: "Yes, that is my age" }));
    const bodies = harness.server.calls("POST", "/api/study/profile").map((c) => (c.body as { age_confirmed: boolean }).age_confirmed);
    expect(bodies).toEqual([false, false, true]);
    expect(harness.context.setSession).toHaveBeenCalledWith(expect.objectContaining({ step: "screened_out" }));
  });

  it("keeps 'none' and 'prefer not to say' on their own", () => {
    expect(nextChoices(diagnoses, ["anxiety"], ["anxiety", "none"])).toEqual(["none"]);
    expect(nextChoices(diagnoses, ["none"], ["none", "anxiety"])).toEqual(["anxiety"]);
    expect(nextChoices(diagnoses, ["none"], ["none", "prefer_not_to_say"])).toEqual(["prefer_not_to_say"]);
    expect(nextChoices(diagnoses, ["anxiety", "other"], ["anxiety"])).toEqual(["anxiety"]);
  });
});

function within(group: HTMLElement, name: string): HTMLElement {
  const label = Array.from(group.querySelectorAll("label")).find((l) => l.textContent === name);
  const input = label?.querySelector("input");
  if (!input) throw new Error(`no option ${name}`);
  return input;
}
