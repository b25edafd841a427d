import { useCallback, useEffect, useState, type KeyboardEvent } from "react";
import type { AttachmentRef } from "../../../shared/protocol/attachments";
import type { WorkspaceEntry, WorkspaceFileMatches } from "../../../shared/protocol/workspace-files";
import { errorText } from "../../../shared/error-text";
import { matchResources, mentionAt, type MentionAt } from "./mention-menu";
import type { McpResourceInfo } from "../../../shared/protocol/mcp-host-protocol";
import { useServices } from "../../context/ServicesContext";
import { ofChatServers } from "../../../shared/mcp/chat-servers";

/** A row of the `@` menu: a workspace file or folder, or an MCP server's resource. */
export type MentionRow = WorkspaceEntry | { kind: "resource"; resource: McpResourceInfo };


/** A chat's workspace files, as the composer's `@` reaches them (the worker's listWorkspaceFiles, attachWorkspaceFile). */
export interface WorkspaceFileSource {
  list(query: string): Promise<WorkspaceFileMatches>;
  /** The stored attachment, and its bytes when the composer shows them (an image's thumbnail; else an empty Blob). */
  attach(path: string): Promise<{ ref: AttachmentRef; file: Blob }>;
}

/** How long typing may pause before the worker is asked (each key would otherwise ask). */
const ASK_AFTER_MS = 40;

/**
 * The composer's `@` menu: open while the caret ends an `@word` (and the chat has a workspace), its matches asked of
 * the worker as the word changes, the highlighted row, and its keys. `onChoose` gets the chosen entry and the mention
 * it replaces.
 */
export function useMentionMenu(
  source: WorkspaceFileSource | undefined,
  draft: string,
  caret: number,
  onChoose: (entry: WorkspaceEntry, at: MentionAt) => void,
  onChooseResource: (resource: McpResourceInfo, at: MentionAt) => void,
  /** The chat's choice of MCP servers (ChatOptions.mcpServers): only their resources are offered. */
  mcpServers?: readonly string[],
) {
  const { app } = useServices();
  const at = mentionAt(draft, caret);
  const query = at?.query;
  /** The MCP servers' resources, asked for as the menu opens (a server's list may change). */
  const [resources, setResources] = useState<readonly McpResourceInfo[]>([]);
  const typingMention = query !== undefined;
  useEffect(() => {
    if (!typingMention) return;
    let live = true;
    app.mcpResources().then((list) => live && setResources(list), () => live && setResources([]));
    return () => {
      live = false;
    };
  }, [typingMention, app]);
  const [found, setFound] = useState<{ query: string; matches?: WorkspaceFileMatches; error?: string } | null>(null);
  const [active, setActive] = useState(0);
  /** The draft for which the user closed the menu (Esc): it stays closed until the user types. */
  const [closedFor, setClosedFor] = useState<string | null>(null);

  useEffect(() => {
    if (query === undefined || !source) return;
    let live = true;
    const timer = setTimeout(() => {
      source.list(query).then(
        (matches) => live && setFound({ query, matches }),
        (error: unknown) => live && setFound({ query, error: errorText(error) }),
      );
    }, ASK_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, source]);
  useEffect(() => setActive(0), [query]);

  const files = source ? (found?.matches?.entries ?? []) : [];
  const resourceRows = query === undefined ? [] : matchResources(ofChatServers(resources, mcpServers), query);
  const entries: MentionRow[] = [...files, ...resourceRows.map((resource) => ({ kind: "resource" as const, resource }))];
  const open = at !== undefined && closedFor !== draft && ((source !== undefined && found !== null) || resourceRows.length > 0);
  const note = source && entries.length === 0
    ? (found?.error ?? (found?.matches ? (found.query ? `No file or folder matches “${found.query}”` : "The workspace has no files") : undefined))
    : undefined;

  const choose = useCallback((row: MentionRow) => {
    if (!at) return;
    if (row.kind === "resource") onChooseResource(row.resource, at);
    else onChoose(row, at);
  }, [at, onChoose, onChooseResource]);

  /** Arrows move, Enter or Tab take the highlighted row, Esc closes. True when the key was the menu's. */
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || e.nativeEvent.isComposing) return false;
    if (e.key === "Escape") {
      setClosedFor(draft);
      return true;
    }
    if (entries.length === 0) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      setActive((i) => (i + (e.key === "ArrowDown" ? 1 : entries.length - 1)) % entries.length);
      return true;
    }
    if ((e.key === "Enter" && !e.shiftKey && !e.altKey) || e.key === "Tab") {
      const chosen = entries[Math.min(active, entries.length - 1)];
      if (chosen) choose(chosen);
      return true;
    }
    return false;
  };

  return { open, entries, active: Math.min(active, Math.max(entries.length - 1, 0)), note, setActive, choose, onKey, reopen: () => setClosedFor(null) };
}
