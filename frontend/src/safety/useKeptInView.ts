// Keeps a box in view while its place in the page scrolls away. The box stays where it belongs
// in the document (right under the message that raised it: the order screen readers and the
// keyboard follow); only when that place is not fully on screen is the box pinned, fixed, to
// the top or the bottom edge of the window, over the place's own column. CSS `position: sticky`
// cannot do this: a sticky box never leaves its parent (here one message of the list), so it
// would scroll away with that message.
//
// The place keeps the box's height while the box is pinned, so the page does not jump, and the
// page's scroll padding grows by that height: a control the keyboard focuses is scrolled clear
// of the pinned box instead of under it. Without IntersectionObserver the box stays in place.
import { useEffect, useLayoutEffect, useState, type CSSProperties, type RefObject } from "react";

export type Pin = "top" | "bottom" | null;

export const PIN_GAP_PX = 8; // between the pinned box and the window's edge

interface Geometry {
  height: number;
  left: number;
  width: number;
}

export function useKeptInView(place: RefObject<HTMLElement | null>, box: RefObject<HTMLElement | null>, active: boolean) {
  const [pin, setPin] = useState<Pin>(null);
  const [geometry, setGeometry] = useState<Geometry>({ height: 0, left: 0, width: 0 });

  useEffect(() => {
    const placeElement = place.current;
    if (!active || !placeElement || typeof IntersectionObserver === "undefined") return;
    const measure = () => {
      const rect = placeElement.getBoundingClientRect();
      setGeometry({ height: box.current?.offsetHeight ?? rect.height, left: rect.left, width: rect.width });
    };
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return;
        if (entry.intersectionRatio >= 0.99) {
          setPin(null);
          return;
        }
        measure(); // the box is still where it belongs (or already pinned at this size)
        const top = entry.rootBounds?.top ?? 0;
        setPin(entry.boundingClientRect.top < top ? "top" : "bottom");
      },
      { threshold: [0, 0.99] },
    );
    observer.observe(placeElement);
    // The column's width changes with the window; the box's height with its contents.
    const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    if (box.current) resized?.observe(box.current);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      resized?.disconnect();
      window.removeEventListener("resize", measure);
      setPin(null);
    };
  }, [active, place, box]);

  // The page's scroll padding: focus and scrollIntoView keep their target clear of the box.
  useLayoutEffect(() => {
    if (!pin) return;
    const root = document.documentElement.style;
    const side = pin === "top" ? "scrollPaddingTop" : "scrollPaddingBottom";
    const before = root[side];
    root[side] = `${geometry.height + 2 * PIN_GAP_PX}px`;
    return () => {
      root[side] = before;
    };
  }, [pin, geometry.height]);

  const placeStyle: CSSProperties | undefined = pin ? { minHeight: geometry.height } : undefined;
  const boxStyle: CSSProperties | undefined = pin
    ? { position: "fixed", left: geometry.left, width: geometry.width, [pin]: PIN_GAP_PX }
    : undefined;
  return { pin, placeStyle, boxStyle };
}
