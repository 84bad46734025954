import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { COMMIT_AFTER_MS, EditReply } from "./EditReply";
import { EDIT_ID } from "./model";

describe("EditReply", () => {
  afterEach(() => vi.useRealTimers());

  it("keeps the text while typing and hands it on once typing pauses", () => {
    vi.useFakeTimers();
    const onChange = vi.fn();
    render(<EditReply original="Hello." value={null} invalid={false} onChange={onChange} />);
    const box = document.getElementById(EDIT_ID) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "Hello, you." } });
    fireEvent.change(box, { target: { value: "Hello, you!" } });
    expect(box).toHaveValue("Hello, you!");
    expect(onChange).not.toHaveBeenCalled();
    vi.advanceTimersByTime(COMMIT_AFTER_MS);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith("Hello, you!");
  });

  it("hands the text on at once when the box is left, the page is hidden, or the panel goes", () => {
    const onChange = vi.fn();
    const { unmount } = render(<EditReply original="Hello." value={null} invalid={false} onChange={onChange} />);
    const box = document.getElementById(EDIT_ID) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "A" } });
    fireEvent.blur(box);
    expect(onChange).toHaveBeenLastCalledWith("A");
    fireEvent.change(box, { target: { value: "AB" } });
    window.dispatchEvent(new Event("pagehide"));
    expect(onChange).toHaveBeenLastCalledWith("AB");
    fireEvent.change(box, { target: { value: "ABC" } });
    unmount();
    expect(onChange).toHaveBeenLastCalledWith("ABC");
    expect(onChange).toHaveBeenCalledTimes(3);
  });

  it("undoes the participant's changes back to the reply", () => {
    const onChange = vi.fn();
    render(<EditReply original="Hello." value="Mine." invalid={false} onChange={onChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Undo my changes" }));
    expect(document.getElementById(EDIT_ID)).toHaveValue("Hello.");
    expect(onChange).toHaveBeenCalledWith(null);
  });
});
