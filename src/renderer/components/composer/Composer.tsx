import { memo, useCallback, useEffect, useId, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from "react";
import { composerIntent } from "./composerKeys";
import { focusIsHeld } from "../../context/focus-hold";
import { PaperclipIcon, SendIcon } from "../common/icons";
import { errorText } from "../../../shared/error-text";
import { useComposerAttachments } from "../attachments/useComposerAttachments";
import { ComposerAttachments } from "../attachments/AttachmentViews";
import type { PendingAttachment } from "../attachments/attachment-files";
import { MAX_ATTACHMENTS, MAX_IMAGE_BYTES, MAX_TEXT_FILE_BYTES, formatBytes } from "../../../shared/protocol/attachments";
import { expandPromptTemplate } from "../../../shared/prompts/template-expansion";
import { usePromptTemplates } from "./usePromptTemplates";
import { matchMcpPrompts, matchTemplates, slashQuery } from "./slash-menu";
import { McpPromptForm } from "./McpPromptForm";
import { useServices } from "../../context/ServicesContext";
import type { McpPromptInfo, McpResourceInfo } from "../../../shared/protocol/mcp-host-protocol";
import { SlashMenu } from "./SlashMenu";
import { draftCacheFor, type DraftFiles } from "./draft-cache";
import { MentionMenu } from "./MentionMenu";
import { useMentionMenu, type WorkspaceFileSource } from "./useMentionMenu";
import { withMention, withoutMention, type MentionAt } from "./mention-menu";
import { storedAttachment } from "../attachments/attachment-files";
import { ofChatServers } from "../../../shared/mcp/chat-servers";
import type { WorkspaceEntry } from "../../../shared/protocol/workspace-files";
import type { ComposerMode } from "../../../shared/agent/plan-mode";

interface ComposerProps {
  running: boolean;
  /**
   * Why sending is impossible right now (no model, connecting, the host is away), shown instead of sending;
   * undefined if it is possible. While a run goes on, it also disables Steer, Follow-up and Stop.
   */
  blockedReason?: string;
  onSend(text: string, attachments: PendingAttachment[]): Promise<void>;
  onSteer(text: string, attachments: PendingAttachment[]): Promise<void>;
  onFollowUp(text: string, attachments: PendingAttachment[]): Promise<void>;
  /** Why images cannot go with a message now (the chat's model does not read them); undefined if they can. */
  imagesRefusal?: string;
  onStop(): void;
  /** Changes when the composer should take focus (a session was opened). */
  focusKey?: unknown;
  /** The chat, and its workspace: the `/` menu offers their prompt templates. */
  sessionId?: string;
  workspace?: string;
  /**
   * The chat's attachment folder, where a draft's files are kept; absent while the chat is not connected (a stored
   * draft is loaded once it is, so its files come with it).
   */
  draftFiles?: DraftFiles;
  /** Opens Settings (the draft stays: it is the chat's, kept by main); absent: no link to Settings is offered. */
  onOpenSettings?(): void;
  /** No model is set up for this chat: Enter says so (and where to set one up) instead of sending. */
  noModel?: boolean;
  /** The chat's workspace files for the `@` menu (absent: no workspace, no menu). Keep it the same object between renders. */
  workspaceFiles?: WorkspaceFileSource;
  /**
   * The chat's choice of MCP servers (its options' `mcpServers`; absent: every enabled one): only their prompts are in
   * the `/` menu and resources in the `@` menu, as only their tools are the agent's.
   */
  mcpServers?: readonly string[];
  /**
   * The mode a message is sent in (agent/plan-mode.ts, ComposerMode), shown beside the box: the act profile's name,
   * "Plan (this message)" or "Plan mode", with a tooltip saying what it does and what comes next. Shift+Tab in the box
   * (or the chip) cycles it; absent: no modes offered.
   */
  mode?: { mode: ComposerMode; label: string; title: string; onCycle(): void };
}

/**
 * The message box. The draft (text and attachments) is the chat's: held by the page's draft cache and saved by main
 * (draft-cache.ts), so it comes back after switching chats, Settings, a reload or a restart. It is cleared when a
 * message goes out and put back if the call rejects, so nothing the user typed or attached is ever lost; a rejection
 * is shown above the box. Files come by paste, drop or the paperclip's picker.
 */
export const Composer = memo(function Composer(props: ComposerProps) {
  const { running, blockedReason, onSend, onSteer, onFollowUp, onStop, focusKey, imagesRefusal, sessionId, workspace, draftFiles, onOpenSettings, noModel, workspaceFiles, mcpServers, mode } = props;
  const { app } = useServices();
  const drafts = draftCacheFor(app);
  const [held] = useState(() => (sessionId ? drafts.cached(sessionId) : undefined));
  const [draft, setDraft] = useState(held?.text ?? "");
  /** Where the caret is in the draft: the `@` menu completes the word it ends. */
  const [caret, setCaret] = useState(0);
  /** Where the caret goes once the draft a choice made is on screen. */
  const caretAfter = useRef<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** Why the draft could not be kept by main (it stays here); undefined while it is. */
  const [draftProblem, setDraftProblem] = useState<string | undefined>();
  /** Enter was pressed while nothing can be sent: says why, until the user types on. */
  const [blockedSend, setBlockedSend] = useState(false);
  const [dragging, setDragging] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const attachments = useComposerAttachments(held?.items);
  /** The chat's draft is on screen (held, or loaded from main): changes from then on are the chat's draft. */
  const [draftReady, setDraftReady] = useState(held !== undefined || !sessionId);
  const { restore: restoreFiles } = attachments;
  /** For leaving the chat: whether its draft had loaded, and what the box held. */
  const readyNow = useRef(draftReady);
  readyNow.current = draftReady;
  const typedNow = useRef(draft);
  typedNow.current = draft;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (draftReady || !sessionId) return;
    let live = true;
    drafts.load(sessionId).then((stored) => {
      if (!live) return;
      // Anything typed while it loaded goes after it, so neither is lost.
      setDraft((now) => (now && stored.text ? `${stored.text}\n${now}` : now || stored.text));
      setDraftReady(true);
    }, (error: unknown) => {
      if (!live) return;
      setDraftProblem(errorText(error));
      setDraftReady(true);
    });
    return () => {
      live = false;
    };
  }, [draftReady, sessionId, drafts]);
  useEffect(() => {
    // The stored draft's files, once the chat is connected (its attachment folder is reached through it).
    if (!draftReady || !sessionId || !draftFiles) return;
    // The cache has them in the draft from now on: shown here if this composer is still there, else when it next is.
    void drafts.fetchFiles(sessionId, draftFiles).then((fetched) => {
      if (mounted.current && fetched.length > 0) restoreFiles(fetched);
    });
  }, [draftReady, sessionId, drafts, draftFiles, restoreFiles]);
  useEffect(() => {
    if (draftReady && sessionId) drafts.change(sessionId, { text: draft, items: attachments.items }, draftFiles);
  }, [draftReady, sessionId, drafts, draft, attachments.items, draftFiles]);
  useEffect(() => {
    // A reload, a closed tab or window: drafts changed in the last moment are saved as far as the page lives to.
    const flush = () => void drafts.flush();
    const onHidden = () => {
      if (document.visibilityState === "hidden") flush();
    };
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("visibilitychange", onHidden);
    };
  }, [drafts]);
  /** The chat's attachment folder now, for another window's files. */
  const filesNow = useRef(draftFiles);
  filesNow.current = draftFiles;
  const { replace: replaceFiles } = attachments;
  useEffect(() => {
    if (!sessionId) return;
    // Another window on this chat saved its draft, and this one has no newer edit (draft-cache.ts): the box shows it.
    // The caret stays where it was (at most the new end); the draft cache already holds it, so nothing is saved back.
    return drafts.onRemote((id) => {
      const held = drafts.cached(id);
      if (id !== sessionId || !held || !readyNow.current) return;
      if (held.text !== typedNow.current) {
        const el = textarea.current;
        if (el && document.activeElement === el) caretAfter.current = Math.min(el.selectionStart, held.text.length);
        setDraft(held.text);
      }
      replaceFiles(held.items);
      const files = filesNow.current;
      if (files) {
        void drafts.fetchFiles(id, files).then((fetched) => {
          if (mounted.current && fetched.length > 0) restoreFiles(fetched);
        });
      }
    });
  }, [drafts, sessionId, replaceFiles, restoreFiles]);
  useEffect(() => {
    if (!sessionId) return;
    const stop = drafts.onProblem((id, problem) => {
      if (id === sessionId) setDraftProblem(problem);
    });
    // Leaving the chat saves its draft now (the cache keeps it for switching back either way); text typed before the
    // stored draft had loaded is added to it.
    return () => {
      stop();
      if (!readyNow.current && typedNow.current) void drafts.keepTyped(sessionId, typedNow.current);
      else void drafts.flush(sessionId);
    };
  }, [drafts, sessionId]);
  const prompts = usePromptTemplates(sessionId, workspace);
  const menuId = useId();
  const [menuActive, setMenuActive] = useState(0);
  /** The draft for which the user closed the menu (Esc): it stays closed until the user types. */
  const [menuClosedFor, setMenuClosedFor] = useState<string | null>(null);
  const query = slashQuery(draft);
  const matches = query === undefined ? [] : matchTemplates(prompts.templates, query);
  const mcpMatches = query === undefined ? [] : matchMcpPrompts(ofChatServers(prompts.mcpPrompts, mcpServers), query);
  /** The MCP prompt whose arguments are being asked for, and whether it is being fetched. */
  const [asking, setAsking] = useState<{ prompt: McpPromptInfo; busy: boolean } | null>(null);
  const mentionId = useId();
  const chooseMention = useCallback((entry: WorkspaceEntry, at: MentionAt) => {
    if (!workspaceFiles) return;
    const next = withMention(draft, at, entry.path, entry.kind === "folder");
    setDraft(next.draft);
    setCaret(next.caret);
    caretAfter.current = next.caret;
    // The worker reads it now: a refusal (binary, too large, outside the workspace, a FIFO) is said once, above the
    // box, and the `@path` it inserted leaves the draft (mention-menu.ts, withoutMention: why).
    workspaceFiles.attach(entry.path).then(
      ({ ref, file }) => attachments.addStored(storedAttachment(ref, file)),
      (error: unknown) => {
        attachments.refuse(errorText(error));
        if (!mounted.current) return;
        const now = typedNow.current;
        const el = textarea.current;
        const removed = withoutMention(now, next.inserted, at.start, el && document.activeElement === el ? el.selectionStart : now.length);
        if (!removed) return;
        caretAfter.current = removed.caret;
        setCaret(removed.caret);
        setDraft(removed.draft);
      },
    );
  }, [draft, workspaceFiles, attachments]);
  /** An MCP resource chosen with `@`: read through main, attached as a file (the usual upload and checks). */
  const chooseResource = useCallback((resource: McpResourceInfo, at: MentionAt) => {
    const next = withMention(draft, at, resource.name, false);
    setDraft(next.draft);
    setCaret(next.caret);
    caretAfter.current = next.caret;
    app.mcpReadResource(resource.serverId, resource.uri).then(
      (content) => {
        const bytes = content.text !== undefined ? new TextEncoder().encode(content.text) : Uint8Array.from(atob(content.blob ?? ""), (c) => c.charCodeAt(0));
        const type = content.text !== undefined ? "text/plain" : content.mimeType;
        return attachments.add([new File([bytes], content.name || resource.name, { type })]);
      },
      (error: unknown) => attachments.refuse(errorText(error)),
    );
  }, [draft, app, attachments]);
  const mention = useMentionMenu(workspaceFiles, draft, caret, chooseMention, chooseResource, mcpServers);
  const menuOpen = !asking && query !== undefined && menuClosedFor !== draft && (matches.length > 0 || mcpMatches.length > 0 || prompts.pending !== undefined || query === "");
  const menuRows = matches.length + mcpMatches.length + (prompts.pending ? 1 : 0);
  const wasOpen = useRef(false);
  useEffect(() => {
    // Opening: ask main again, so a template added or edited since is offered as it is now.
    if (menuOpen && !wasOpen.current) prompts.refresh();
    wasOpen.current = menuOpen;
  }, [menuOpen, prompts]);
  useEffect(() => setMenuActive(0), [query]);
  /** The workspace whose waiting skills the user said "not now" to: not mentioned again for it in this window. */
  const [skillsNoteClosedFor, setSkillsNoteClosedFor] = useState<string | undefined>();
  const pendingSkills = prompts.pending && prompts.pending.skills > 0 && skillsNoteClosedFor !== prompts.pending.workspace ? prompts.pending : undefined;

  useEffect(() => {
    // A chat opens only when the user asks (a click, Ctrl+Shift+O from the search box): its box takes the keys then,
    // except while the chat list holds the focus (a chat deleted from the keyboard opened this one).
    if (!focusIsHeld()) textarea.current?.focus();
  }, [focusKey]);

  useEffect(() => {
    const el = textarea.current;
    if (el && caretAfter.current !== null) {
      el.setSelectionRange(caretAfter.current, caretAfter.current);
      caretAfter.current = null;
    }
  }, [draft]);

  useEffect(() => {
    const el = textarea.current;
    if (!el) return;
    // Grow with the text up to the CSS max-height, then scroll.
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight}px`;
  }, [draft]);

  const submit = (kind: "send" | "steer" | "follow-up") => {
    const text = draft;
    if (!text.trim() && attachments.items.length === 0) return;
    if (blockedReason) {
      // Nothing goes, and nothing is lost: the box keeps the text; the user hears why.
      setBlockedSend(true);
      return;
    }
    setDraft("");
    setFailure(null);
    const files = attachments.take();
    const call = kind === "send" ? onSend : kind === "steer" ? onSteer : onFollowUp;
    // `/name args` calling a prompt template goes as the template's text (pi's expansion); anything else as typed.
    call(expandPromptTemplate(text, prompts.templates), files).catch((error: unknown) => {
      // Put the text back in front of anything typed since, so neither is lost; the same for the files.
      setDraft((current) => (current ? `${text}\n${current}` : text));
      attachments.restore(files);
      setFailure(errorText(error));
    });
  };

  // A paste with text keeps its text (an office app also offers a picture of it); a screenshot comes as a file.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    if (files.length === 0 || e.clipboardData.types.includes("text/plain")) return;
    e.preventDefault();
    void attachments.add(files);
  };
  const carriesFiles = (e: DragEvent) => e.dataTransfer.types.includes("Files");
  const onDragOver = (e: DragEvent<HTMLDivElement>) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    setDragging(false);
    if (!carriesFiles(e)) return;
    e.preventDefault();
    void attachments.add([...e.dataTransfer.files]);
  };
  const hasImages = attachments.items.some((a) => a.kind === "image");

  const pick = (name: string) => {
    setDraft(`/${name} `);
    textarea.current?.focus();
  };
  /** An MCP prompt chosen: fetched at once, or after its arguments are asked for; its text becomes the draft to send. */
  const fetchMcp = (prompt: McpPromptInfo, args: Record<string, string>) => {
    setAsking({ prompt, busy: true });
    app.mcpGetPrompt(prompt.serverId, prompt.name, args).then(
      (text) => {
        setDraft(text);
        setCaret(text.length);
        caretAfter.current = text.length;
        setAsking(null);
        textarea.current?.focus();
      },
      (error: unknown) => {
        setAsking(prompt.arguments.length > 0 ? { prompt, busy: false } : null);
        attachments.refuse(`/${prompt.name} could not be inserted: ${errorText(error)}`);
      },
    );
  };
  const pickMcp = (prompt: McpPromptInfo) => {
    if (prompt.arguments.length === 0) fetchMcp(prompt, {});
    else setAsking({ prompt, busy: false });
  };
  const agree = () => {
    prompts.agree().catch((error: unknown) => setFailure(errorText(error)));
  };

  /** The `/` menu's keys: arrows move, Enter or Tab take the highlighted row, Esc closes it. True when handled. */
  const menuKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!menuOpen || menuRows === 0 || e.nativeEvent.isComposing) {
      if (menuOpen && e.key === "Escape") {
        setMenuClosedFor(draft);
        return true;
      }
      return false;
    }
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      setMenuActive((i) => (i + (e.key === "ArrowDown" ? 1 : menuRows - 1)) % menuRows);
      return true;
    }
    if (e.key === "Escape") {
      setMenuClosedFor(draft);
      return true;
    }
    if ((e.key === "Enter" && !e.shiftKey && !e.altKey) || e.key === "Tab") {
      const chosen = matches[menuActive];
      if (!chosen) {
        const mcp = mcpMatches[menuActive - matches.length];
        if (mcp) pickMcp(mcp);
        else agree();
        return true;
      }
      // A template typed out in full is sent at once with Enter (it takes no arguments, or none are wanted).
      if (e.key === "Enter" && chosen.name === query) return false;
      pick(chosen.name);
      return true;
    }
    return false;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mention.onKey(e) || menuKey(e)) {
      e.preventDefault();
      e.stopPropagation(); // Esc closes the menu here; it does not stop the run too
      return;
    }
    const intent = composerIntent({ ...e, isComposing: e.nativeEvent.isComposing }, running);
    // Esc is left to bubble: the chat view handles it wherever the focus is.
    if (intent === "none" || intent === "newline" || intent === "escape") return;
    e.preventDefault();
    if (intent === "cycle-mode") {
      mode?.onCycle();
      return;
    }
    submit(intent);
  };

  const canSend = (draft.trim().length > 0 || attachments.items.length > 0) && !blockedReason;
  return (
    <div className={`composer-wrap${dragging ? " composer-dragging" : ""}`} onDragOver={onDragOver} onDrop={onDrop}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}>
      {failure ? (
        <div className="composer-failure" role="alert">
          <span>
            Not sent: {failure}
            {failure === imagesRefusal && onOpenSettings ? <> An endpoint's models can be set to read images in{" "}
              <button type="button" className="link-button inline-link" onClick={onOpenSettings}>Settings</button>.</> : null}
          </span>
          <button type="button" className="link-button" onClick={() => setFailure(null)} aria-label="Dismiss">✕</button>
        </div>
      ) : null}
      {blockedSend && blockedReason ? (
        <div className="composer-failure" role="alert" data-testid="composer-blocked">
          <span>
            Not sent: {noModel ? "no model is set up for this chat. Choose one in the model picker above" : blockedReason}
            {noModel && onOpenSettings ? <>, or set up a provider in{" "}
              <button type="button" className="link-button inline-link" onClick={onOpenSettings}>Settings</button></> : null}
            {noModel ? "." : null} Your message is still here.
          </span>
          <button type="button" className="link-button" onClick={() => setBlockedSend(false)} aria-label="Dismiss">✕</button>
        </div>
      ) : null}
      {draftProblem ? (
        <div className="composer-note" role="status" data-testid="draft-problem">Draft not saved: {draftProblem}</div>
      ) : null}
      {attachments.problems.length > 0 ? (
        <div className="composer-failure" role="alert" data-testid="attachment-problems">
          <span>{attachments.problems.join(" ")}</span>
          <button type="button" className="link-button" onClick={attachments.dismissProblems} aria-label="Dismiss">✕</button>
        </div>
      ) : null}
      {hasImages && imagesRefusal && failure !== imagesRefusal ? (
        <div className="composer-note" role="status" data-testid="images-refused">{imagesRefusal}</div>
      ) : null}
      {pendingSkills ? (
        // Skills are listed to the model, not typed: without this a project's would wait unseen behind the `/` menu.
        <div className="composer-note" role="status" data-testid="project-skills-note">
          <span>
            This project has {pendingSkills.skills} skill{pendingSkills.skills === 1 ? "" : "s"} of its own for the agent
            {pendingSkills.templates > 0 ? ` and ${pendingSkills.templates} prompt template${pendingSkills.templates === 1 ? "" : "s"}` : ""}:
            only for a project you trust.
          </span>{" "}
          <button type="button" className="link-button" onClick={agree}>
            Use {pendingSkills.skills + pendingSkills.templates === 1 ? "it" : "them"}
          </button>{" "}
          <button type="button" className="link-button" onClick={() => setSkillsNoteClosedFor(pendingSkills.workspace)}>Not now</button>
        </div>
      ) : null}
      <div className={`composer${running ? " composer-running" : ""}`}>
        <ComposerAttachments items={attachments.items} onRemove={attachments.remove} />
        <button type="button" className="icon-button attach-button" onClick={() => picker.current?.click()} data-testid="attach-button"
          aria-label="Attach files" title={`Attach images or text files (up to ${MAX_ATTACHMENTS}; images ${formatBytes(MAX_IMAGE_BYTES)}, text ${formatBytes(MAX_TEXT_FILE_BYTES)} each)`}>
          <PaperclipIcon />
        </button>
        <input ref={picker} type="file" multiple hidden data-testid="attach-input" onChange={(e) => {
          void attachments.add([...(e.target.files ?? [])]);
          e.target.value = ""; // the same file can be picked again
        }} />
        {mention.open ? (
          <MentionMenu id={mentionId} entries={mention.entries} active={mention.active} note={mention.note}
            onPick={mention.choose} onHover={mention.setActive} />
        ) : null}
        {menuOpen ? (
          <SlashMenu id={menuId} matches={matches} mcpMatches={mcpMatches} active={menuActive} pending={prompts.pending}
            onPick={(t) => pick(t.name)} onPickMcp={pickMcp} onAgree={agree} onHover={setMenuActive} />
        ) : null}
        {asking ? (
          <McpPromptForm key={`${asking.prompt.serverId}:${asking.prompt.name}`} prompt={asking.prompt} busy={asking.busy}
            onInsert={(args) => fetchMcp(asking.prompt, args)}
            onCancel={() => {
              setAsking(null);
              textarea.current?.focus();
            }} />
        ) : null}
        <label htmlFor="composer-input" className="visually-hidden">Message</label>
        <textarea
          id="composer-input"
          ref={textarea}
          data-testid="composer"
          dir="auto"
          rows={1}
          value={draft}
          placeholder={blockedReason ?? (running ? "Steer the agent (Enter) or queue a follow-up (Alt+Enter)…" : "Message Paddock…")}
          onChange={(e) => {
            setDraft(e.target.value);
            setBlockedSend(false);
            setCaret(e.target.selectionStart);
            setMenuClosedFor(null); // typing on opens the `/` menu again
            mention.reopen();
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          aria-describedby="composer-hint"
          // Shift+Tab here switches the chat's mode (as in Claude Code); Tab moves on to the chip, which does the same.
          aria-keyshortcuts={mode ? "Shift+Tab" : undefined}
          // A textbox that controls the `/` menu (a textarea may not be a combobox): the highlighted row is its active
          // descendant, so screen readers follow the arrows while the focus stays here.
          aria-autocomplete="list"
          aria-controls={mention.open ? mentionId : menuOpen ? menuId : undefined}
          aria-activedescendant={mention.open ? (mention.entries.length > 0 ? `${mentionId}-${mention.active}` : undefined)
            : menuOpen && menuRows > 0 ? `${menuId}-${menuActive}` : undefined}
        />
        <div className="composer-actions">
          {running ? (
            <>
              <button type="button" className="btn btn-ghost" disabled={!canSend} onClick={() => submit("follow-up")}
                title="Queue a follow-up (Alt+Enter)">Follow-up</button>
              <button type="button" className="btn btn-secondary" disabled={!canSend} onClick={() => submit("steer")}
                title="Steer (Enter)">Steer</button>
              <button type="button" className="btn btn-danger" data-testid="stop-button" onClick={onStop}
                disabled={Boolean(blockedReason)} title={blockedReason ?? "Stop (Esc)"} aria-label="Stop">
                <span className="stop-square" aria-hidden="true" /> Stop
              </button>
            </>
          ) : (
            <button type="button" className="btn btn-primary send-button" data-testid="send-button" disabled={!canSend}
              onClick={() => submit("send")} aria-label="Send" title="Send (Enter)">
              <SendIcon />
            </button>
          )}
        </div>
      </div>
      <div id="composer-hint" className="composer-hint">
        {mode ? (
          <button type="button" className={`composer-mode${mode.mode === "act" ? "" : ` composer-mode-plan composer-mode-${mode.mode}`}`} data-testid="composer-mode"
            data-mode={mode.mode} onClick={mode.onCycle} aria-label={`Mode: ${mode.label}. Shift+Tab switches`} title={mode.title}>
            {mode.label}
          </button>
        ) : null}
        {running
          ? "Enter steers · Alt+Enter queues a follow-up · Esc stops"
          : `Enter to send · Shift+Enter for a new line${mode ? ` · Shift+Tab: ${MODE_HINTS[mode.mode]}` : ""} · / for prompt templates${workspaceFiles ? " · @ for files" : ""} · paste or drop images and files`}
      </div>
    </div>
  );
});

/** The footer's word on Shift+Tab in each mode: what it switches to. */
const MODE_HINTS: Readonly<Record<ComposerMode, string>> = {
  act: "plan this message",
  once: "Plan mode for the chat",
  plan: "leave Plan mode",
};
