/**
 * Permission profiles (issue 27 §2): what a chat's agent may do without asking, chosen per chat in its header and
 * defaulted in Settings. One table says, for each profile, what happens to each kind of tool call; the worker's
 * approval gate (agent-worker/host/approvals/approval-gate.ts) applies it, never the page alone. Plan mode reuses
 * Read-only. No typebox or Node here: pages import this module.
 */

/** The profiles, narrowest first: a profile later in the list never lets through less than one before it. */
export const PERMISSION_PROFILES = ["read-only", "ask", "edits", "sandboxed-auto"] as const;
export type PermissionProfile = (typeof PERMISSION_PROFILES)[number];

/** What a chat runs under when neither it nor Settings chose: today's behaviour. */
export const DEFAULT_PROFILE: PermissionProfile = "ask";

/**
 * The kinds of tool call a profile decides on:
 * - `read`: read, ls, find, grep (they change nothing);
 * - `inert`: calculate, wait (touch nothing outside the worker);
 * - `edit`: write and edit (always inside the workspace: the tools are confined to it);
 * - `command`: bash;
 * - `network`: a sandboxed command's connection to a host no rule allows;
 * - `mcp-read`: an MCP tool its server marks read-only; `mcp`: any other MCP tool;
 * - `subagent`: starting a subagent (its own calls are decided under its own, never wider, profile);
 * - `worktree`: applying, keeping or discarding a subagent's worktree.
 */
export type ToolKind = "read" | "inert" | "edit" | "command" | "network" | "mcp-read" | "mcp" | "subagent" | "worktree";

/**
 * What a profile does with a kind of call:
 * - `settings`: as in Ask: Settings' word on the tool, the chat's and the project's grants, else the user is asked;
 * - `allow`: runs without asking (a change of a file the sandbox protects still asks, every time);
 * - `refuse`: not run; the model is told why;
 * - `read-only-command`: a command runs only in the sandbox with the workspace read-only (Settings' word and grants
 *   apply as in Ask); without a sandbox it is refused.
 */
export type ProfileDecision = "settings" | "allow" | "refuse" | "read-only-command";

/** The one table: profile → per tool kind decision. */
export const PROFILE_TABLE: Readonly<Record<PermissionProfile, Readonly<Record<ToolKind, ProfileDecision>>>> = {
  "read-only": {
    read: "settings", inert: "settings", edit: "refuse", command: "read-only-command", network: "settings",
    "mcp-read": "settings", mcp: "refuse", subagent: "settings", worktree: "refuse",
  },
  ask: {
    read: "settings", inert: "settings", edit: "settings", command: "settings", network: "settings",
    "mcp-read": "settings", mcp: "settings", subagent: "settings", worktree: "settings",
  },
  edits: {
    read: "settings", inert: "settings", edit: "allow", command: "settings", network: "settings",
    "mcp-read": "settings", mcp: "settings", subagent: "settings", worktree: "settings",
  },
  "sandboxed-auto": {
    read: "allow", inert: "allow", edit: "allow", command: "allow", network: "settings",
    "mcp-read": "settings", mcp: "settings", subagent: "settings", worktree: "settings",
  },
};

/** What the header and Settings call each profile, and what each allows, in a line. */
export const PROFILE_TEXT: Readonly<Record<PermissionProfile, { label: string; allows: string }>> = {
  "read-only": {
    label: "Read-only",
    allows: "Only reads: read, ls, find, grep and read-only MCP tools; commands only in the sandbox with the workspace read-only. Writing and editing are refused.",
  },
  ask: { label: "Ask", allows: "Asks before every change and command, unless Settings or an earlier answer allow it." },
  edits: { label: "Edits allowed", allows: "Writes and edits inside the workspace run without asking; commands and MCP tools ask." },
  "sandboxed-auto": {
    label: "Sandboxed auto",
    allows: "Everything the sandbox confines runs without asking (commands, edits; network only to allowed domains). Anything outside it still asks.",
  },
};

/** The order the picker lists them in: today's behaviour first. */
export const PROFILE_MENU_ORDER: readonly PermissionProfile[] = ["ask", "edits", "sandboxed-auto", "read-only"];

export function isPermissionProfile(value: unknown): value is PermissionProfile {
  return typeof value === "string" && (PERMISSION_PROFILES as readonly string[]).includes(value);
}

/** Whether `profile` lets through more without asking than `than`. */
export function isWider(profile: PermissionProfile, than: PermissionProfile): boolean {
  return PERMISSION_PROFILES.indexOf(profile) > PERMISSION_PROFILES.indexOf(than);
}

/** The narrower of two profiles (a subagent runs under the narrower of its parent's and its definition's). */
export function narrowest(...profiles: (PermissionProfile | undefined)[]): PermissionProfile {
  let out: PermissionProfile | undefined;
  for (const p of profiles) if (p !== undefined && (out === undefined || isWider(out, p))) out = p;
  return out ?? DEFAULT_PROFILE;
}

/**
 * The profile a chat runs under: its own choice, else Settings' default; Sandboxed auto where commands run in no
 * sandbox falls back to Ask, saying so (`fallback`). `sandboxed` undefined: not known yet (taken as no sandbox).
 */
export function effectiveProfile(
  chosen: PermissionProfile | undefined,
  settingsDefault: PermissionProfile | undefined,
  sandboxed: boolean | undefined,
): { profile: PermissionProfile; fallback?: string } {
  const wanted = chosen ?? settingsDefault ?? DEFAULT_PROFILE;
  if (wanted === "sandboxed-auto" && sandboxed !== true) {
    return { profile: "ask", fallback: "Sandboxed auto needs a sandbox for commands, and there is none here: this chat runs under Ask." };
  }
  return { profile: wanted };
}

/** The kind of a call to `toolName`; `mcpReadOnly` says whether an MCP tool is marked read-only (undefined: not MCP). */
export function toolKind(toolName: string, mcpReadOnly?: boolean): ToolKind {
  if (mcpReadOnly !== undefined) return mcpReadOnly ? "mcp-read" : "mcp";
  switch (toolName) {
    case "read":
    case "ls":
    case "find":
    case "grep":
      return "read";
    case "calculate":
    case "wait":
      return "inert";
    case "write":
    case "edit":
      return "edit";
    case "bash":
      return "command";
    case "network":
      return "network";
    case "subagent":
      return "subagent";
    case "worktree":
      return "worktree";
    default:
      // A tool this table does not know is treated as one that may change anything.
      return "mcp";
  }
}

/** What `profile` does with a call of `kind`, given whether commands run in a sandbox here. */
export type ProfileVerdict =
  | { decision: "settings"; readOnlyWorkspace?: boolean }
  | { decision: "allow" }
  | { decision: "refuse"; reason: string };

/** `label`: what a refusal calls the chat's state ("This chat is …"); Plan mode says so, under its Read-only row. */
export function decide(profile: PermissionProfile, kind: ToolKind, sandboxed: boolean, label = PROFILE_TEXT[profile].label): ProfileVerdict {
  const decision = PROFILE_TABLE[profile][kind];
  switch (decision) {
    case "settings":
      return { decision: "settings" };
    case "allow":
      return { decision: "allow" };
    case "refuse":
      return { decision: "refuse", reason: refusal(label, kind) };
    case "read-only-command":
      return sandboxed
        ? { decision: "settings", readOnlyWorkspace: true }
        : { decision: "refuse", reason: `This chat is ${label}: commands run only in a sandbox with the workspace read-only, and this system has no sandbox. Use read, ls, find and grep instead.` };
  }
}

function refusal(label: string, kind: ToolKind): string {
  const what = kind === "edit" ? "Writing and editing files are" : kind === "worktree" ? "Applying, keeping or discarding a worktree is" : "MCP tools not marked read-only are";
  return `This chat is ${label}: ${what} not allowed, so the call was not made. Only read-only tools (read, ls, find, grep, read-only MCP tools) may run; describe the change instead of making it.`;
}
