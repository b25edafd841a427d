/**
 * Parts of Settings that are not saved as they change (the endpoints editor: Save endpoints) tell Settings whether
 * they hold unsaved edits and how to save them, so leaving Settings never throws edits away silently: Settings asks
 * (Save / Discard / Keep editing) first (UnsavedChangesDialog.tsx).
 */
import { createContext, useContext, useEffect, useRef } from "react";

export interface UnsavedPart {
  /** What holds the edits, for the question ("Endpoints"). */
  label: string;
  dirty(): boolean;
  /** Saves the edits; false when they could not be (the part says why, next to its fields). */
  save(): Promise<boolean>;
  /** Brings the part's unsaved edits into view (Keep editing). */
  show?(): void;
}

/** Settings' parts with edits of their own, by key. */
export type UnsavedParts = Map<string, UnsavedPart>;

export const UnsavedPartsContext = createContext<UnsavedParts | null>(null);

/** Registers this part with Settings while mounted; `part` is read afresh at each question. */
export function useUnsavedPart(key: string, part: UnsavedPart): void {
  const parts = useContext(UnsavedPartsContext);
  const current = useRef(part);
  current.current = part;
  useEffect(() => {
    if (!parts) return;
    parts.set(key, {
      get label() {
        return current.current.label;
      },
      dirty: () => current.current.dirty(),
      save: () => current.current.save(),
      show: () => current.current.show?.(),
    });
    return () => void parts.delete(key);
  }, [parts, key]);
}

/** The parts holding unsaved edits now. */
export function dirtyParts(parts: UnsavedParts): UnsavedPart[] {
  return [...parts.values()].filter((p) => p.dirty());
}
