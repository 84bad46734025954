// Keeps a box in view while its place in the page scrolls away. The box stays where it belongs
// in the document (right under the message that raised it: the order screen readers and the
// keyboard follow); only when that place is not fully on screen is the box pinned, fixed, to
// the top or the bottom edge of the window, over the place's own column. CSS `position: sticky`
// cannot do this: a sticky box never leaves its parent (here one message of the list), so it
// would scroll away with that message.
//
// The place keeps the box's height while the box is pinned, so the page does not jump, and the
// page's scroll padding grows by that height: a control the keyboard focuses is scrolled clear
// of the pinned box instead of under it. The place is measured again after every scroll,
// resize and change of the page's size (once per frame); the box stays in place where the
// browser has no ResizeObserver.
import { useEffect, useLayoutEffect, useState, type CSSProperties, type RefObject } from "react";

export type Pin = "top" | "bottom" | null;

export const PIN_GAP_PX = 8; // between the pinned box and the window's edge

interface Placement {
  pin: Pin;
  height: number;
  left: number;
  width: number;
}

const UNPINNED: Placement = { pin: null, height: 0, left: 0, width: 0 };

function same(a: Placement, b: Placement): boolean {
  return a.pin === b.pin && a.height === b.height && a.left === b.left && a.width === b.width;
}

export function useKeptInView(place: RefObject<HTMLElement | null>, box: RefObject<HTMLElement | null>, active: boolean) {
  const [placement, setPlacement] = useState<Placement>(UNPINNED);

  useEffect(() => {
    const placeElement = place.current;
    if (!active || !placeElement || typeof ResizeObserver === "undefined") return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const rect = placeElement.getBoundingClientRect();
      const height = box.current?.offsetHeight ?? rect.height;
      // Fully on screen: in its place. Otherwise pinned to the edge it left by.
      const onScreen = rect.top >= 0 && rect.bottom <= window.innerHeight;
      const pin: Pin = onScreen ? null : rect.top < 0 ? "top" : "bottom";
      const next = pin ? { pin, height, left: rect.left, width: rect.width } : UNPINNED;
      setPlacement((current) => (same(current, next) ? current : next));
    };
    const soon = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    soon();
    window.addEventListener("scroll", soon, { passive: true });
    window.addEventListener("resize", soon);
    // The page grows (a reply streams in, questions open) and the box changes (a pause, a
    // withdraw confirmation) without any scroll.
    const resized = new ResizeObserver(soon);
    resized.observe(document.body);
    if (box.current) resized.observe(box.current);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", soon);
      window.removeEventListener("resize", soon);
      resized.disconnect();
      setPlacement(UNPINNED);
    };
  }, [active, place, box]);

  // The page's scroll padding: focus and scrollIntoView keep their target clear of the box.
  const { pin, height } = placement;
  useLayoutEffect(() => {
    if (!pin) return;
    const root = document.documentElement.style;
    const side = pin === "top" ? "scrollPaddingTop" : "scrollPaddingBottom";
    const before = root[side];
    root[side] = `${height + 2 * PIN_GAP_PX}px`;
    return () => {
      root[side] = before;
    };
  }, [pin, height]);

  const placeStyle: CSSProperties | undefined = pin ? { minHeight: height } : undefined;
  const boxStyle: CSSProperties | undefined = pin
    ? { position: "fixed", left: placement.left, width: placement.width, [pin]: PIN_GAP_PX }
    : undefined;
  return { pin, placeStyle, boxStyle };
}
