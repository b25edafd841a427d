import { createContext, type RefObject } from "react";

/**
 * The element content scrolls in (the message list). Parts that render once they near the screen watch for that
 * inside it: the viewport alone would see them only once visible, since the scroller clips them first.
 */
export const ScrollRoot = createContext<RefObject<HTMLElement | null> | null>(null);
