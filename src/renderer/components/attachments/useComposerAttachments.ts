import { useCallback, useRef, useState } from "react";
import { MAX_ATTACHMENTS, TOO_MANY_ATTACHMENTS } from "../../../shared/protocol/attachments";
import { acceptFiles, type FileLike, type PendingAttachment } from "./attachment-files";

/**
 * The composer's attachments: files added (paste, drop, picker) if they may be, with a sentence for each that may
 * not; taken when the message goes out and put back if it was not sent, so nothing the user attached is lost.
 */
export function useComposerAttachments(initial: readonly PendingAttachment[] = []) {
  const [items, setItems] = useState<PendingAttachment[]>(() => [...initial]);
  const [problems, setProblems] = useState<string[]>([]);
  const current = useRef(items);
  current.current = items;

  const add = useCallback(async (files: readonly FileLike[]) => {
    if (files.length === 0) return;
    const { accepted, problems: refused } = await acceptFiles(files, current.current.length);
    setItems((list) => [...list, ...accepted].slice(0, MAX_ATTACHMENTS));
    setProblems(refused);
  }, []);

  /** Adds an attachment the session stored already (a workspace file chosen with `@`); a second copy of one is not added. */
  const addStored = useCallback((item: PendingAttachment) => {
    const list = current.current;
    if (item.stored && list.some((a) => a.stored?.id === item.stored!.id && a.name === item.name)) return;
    if (list.length >= MAX_ATTACHMENTS) {
      setProblems([TOO_MANY_ATTACHMENTS]);
      return;
    }
    current.current = [...list, item];
    setItems(current.current);
    setProblems([]);
  }, []);

  /** Says why something could not be attached (a workspace file the worker refused). */
  const refuse = useCallback((problem: string) => setProblems([problem]), []);

  const remove = useCallback((key: string) => {
    setItems((list) => list.filter((item) => item.key !== key));
    setProblems([]);
  }, []);

  /** Empties the composer's list and returns what it held (for sending). */
  const take = useCallback((): PendingAttachment[] => {
    const taken = current.current;
    current.current = [];
    setItems([]);
    setProblems([]);
    return taken;
  }, []);

  /** Puts back attachments whose message was not sent, ahead of any added since. */
  const restore = useCallback((list: readonly PendingAttachment[]) => {
    if (list.length > 0) setItems((now) => [...list, ...now].slice(0, MAX_ATTACHMENTS));
  }, []);

  /** The list becomes `list` (the chat's draft as another window left it). */
  const replace = useCallback((list: readonly PendingAttachment[]) => {
    current.current = [...list];
    setItems(current.current);
  }, []);

  const dismissProblems = useCallback(() => setProblems([]), []);

  return { items, problems, add, addStored, refuse, remove, take, restore, replace, dismissProblems };
}
