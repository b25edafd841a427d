import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { currentSection, type SectionBox } from "./section-spy";

/** The DOM id of a Settings section (its heading's is this plus "-title"): the index links to it. */
export const sectionDomId = (id: string) => `settings-section-${id}`;

/** Keys that scroll the view: after one the user reads on by themselves, not where the index took them. */
const SCROLL_KEYS = new Set(["PageUp", "PageDown", "Home", "End", "ArrowUp", "ArrowDown", " "]);

/**
 * Follows which of `ids`' sections the reader is in as `scrollRef` scrolls (section-spy.ts decides), and takes the
 * reader to one: `choose` scrolls its section to the top and moves focus to its heading, so Tab goes on there.
 * The chosen section stays current until the user scrolls by themselves (wheel, touch, keys, the scrollbar).
 */
export function useSectionSpy(scrollRef: RefObject<HTMLElement | null>, ids: readonly string[]) {
  const [current, setCurrent] = useState<string | undefined>(ids[0]);
  const chosen = useRef<string | undefined>(undefined);
  const idsKey = ids.join("\n");

  const measure = useCallback(() => {
    const view = scrollRef.current;
    if (!view) return;
    const frame = view.getBoundingClientRect();
    const boxes: SectionBox[] = [];
    for (const id of idsKey.split("\n")) {
      const rect = document.getElementById(sectionDomId(id))?.getBoundingClientRect();
      if (rect) boxes.push({ id, top: rect.top - frame.top, bottom: rect.bottom - frame.top });
    }
    const atBottom = view.scrollTop + view.clientHeight >= view.scrollHeight - 2;
    setCurrent(currentSection(boxes, { height: view.clientHeight, readingLine: Math.min(view.clientHeight * 0.3, 200), atBottom }, chosen.current));
  }, [scrollRef, idsKey]);

  useEffect(() => {
    const view = scrollRef.current;
    if (!view) return;
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(measure);
    };
    const release = () => void (chosen.current = undefined);
    const onKey = (e: KeyboardEvent) => SCROLL_KEYS.has(e.key) && release();
    const onPointer = (e: PointerEvent) => e.target === view && release();
    view.addEventListener("scroll", onScroll, { passive: true });
    view.addEventListener("wheel", release, { passive: true });
    view.addEventListener("touchmove", release, { passive: true });
    view.addEventListener("keydown", onKey);
    view.addEventListener("pointerdown", onPointer);
    // The view's size, and its content's (a list that loads, rows that unfold), move the sections too.
    const resize = new ResizeObserver(onScroll);
    resize.observe(view);
    if (view.firstElementChild) resize.observe(view.firstElementChild);
    onScroll();
    return () => {
      cancelAnimationFrame(frame);
      resize.disconnect();
      view.removeEventListener("scroll", onScroll);
      view.removeEventListener("wheel", release);
      view.removeEventListener("touchmove", release);
      view.removeEventListener("keydown", onKey);
      view.removeEventListener("pointerdown", onPointer);
    };
  }, [scrollRef, measure]);

  const choose = useCallback((id: string) => {
    const section = document.getElementById(sectionDomId(id));
    if (!section) return;
    chosen.current = id;
    setCurrent(id);
    section.scrollIntoView({ block: "start" });
    document.getElementById(`${sectionDomId(id)}-title`)?.focus({ preventScroll: true });
  }, []);

  return { current, choose };
}
