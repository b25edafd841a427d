/**
 * Each tool under each permission profile, through the real approval gate with Settings' default policies: whether
 * the call runs at once, asks the user, or is refused with a reason the model reads (issue 27 §2).
 */
import { describe, expect, it } from "vitest";
import { ApprovalGate, type GatePolicy } from "../../../../../src/agent-worker/host/approvals/approval-gate";
import { decide, PERMISSION_PROFILES, toolKind, type PermissionProfile } from "../../../../../src/shared/protocol/permission-profiles";
import { DEFAULT_SETTINGS } from "../../../../../src/shared/settings/schema";
import type { ApprovalRequest } from "../../../../../src/shared/protocol/session-protocol";

type Outcome = "runs" | "asks" | "refused";

/** MCP tools in the table: one its trusted server marks read-only, one not. */
const MCP_READ_ONLY: Record<string, boolean> = { "docs__search": true, "db__drop": false };

function gateFor(profile: PermissionProfile, sandboxed: boolean, opts: { grants?: string[]; project?: string[]; protection?: string } = {}) {
  const published: ApprovalRequest[][] = [];
  const settings: Record<string, GatePolicy> = { ...DEFAULT_SETTINGS.tools.approval };
  const g = new ApprovalGate(
    {
      profile: (tool) => decide(profile, toolKind(tool, MCP_READ_ONLY[tool]), sandboxed),
      policy: (tool) => (tool === "bash" && !sandboxed ? "every-call" : (settings[tool] ?? "ask")),
      describe: async (tool) => ({ summary: tool }),
      ...(opts.protection ? { protection: async () => opts.protection } : {}),
      changed: (pending) => published.push(pending),
      saveGrant: async () => undefined,
      saveProjectGrant: async () => undefined,
      timeoutMs: () => 60_000,
    },
    opts.grants ?? [],
  );
  g.setProjectGrants(opts.project ?? []);
  return { g, published };
}

async function outcome(profile: PermissionProfile, sandboxed: boolean, tool: string, args: unknown = {}, opts: Parameters<typeof gateFor>[2] = {}): Promise<{ outcome: Outcome; reason?: string }> {
  const { g, published } = gateFor(profile, sandboxed, opts);
  const decided = g.ask({ id: "c1", toolName: tool, args });
  const first = await Promise.race([decided.then((r) => ({ r })), new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), 20))]);
  if (first === "waiting") {
    expect(published.at(-1)?.[0]?.toolName).toBe(tool);
    g.denyAll("test over");
    return { outcome: "asks" };
  }
  return first.r?.block ? { outcome: "refused", reason: first.r.reason } : { outcome: "runs" };
}

const TOOLS: [tool: string, args: unknown][] = [
  ["read", { path: "a.txt" }], ["ls", {}], ["find", { pattern: "*" }], ["grep", { pattern: "x" }],
  ["calculate", { expression: "1+1" }], ["wait", { seconds: 1 }],
  ["write", { path: "a.txt", content: "x" }], ["edit", { path: "a.txt", edits: [] }],
  ["bash", { command: "ls" }], ["docs__search", { q: "x" }], ["db__drop", {}], ["subagent", {}], ["worktree", { action: "apply" }],
];

/** The expected outcome of each tool under each profile, with a sandbox (S) and without (N). */
const EXPECTED: Record<string, Record<PermissionProfile, [S: Outcome, N: Outcome]>> = {
  read: { "read-only": ["runs", "runs"], ask: ["runs", "runs"], edits: ["runs", "runs"], "sandboxed-auto": ["runs", "runs"] },
  ls: { "read-only": ["runs", "runs"], ask: ["runs", "runs"], edits: ["runs", "runs"], "sandboxed-auto": ["runs", "runs"] },
  find: { "read-only": ["runs", "runs"], ask: ["runs", "runs"], edits: ["runs", "runs"], "sandboxed-auto": ["runs", "runs"] },
  grep: { "read-only": ["runs", "runs"], ask: ["runs", "runs"], edits: ["runs", "runs"], "sandboxed-auto": ["runs", "runs"] },
  calculate: { "read-only": ["runs", "runs"], ask: ["runs", "runs"], edits: ["runs", "runs"], "sandboxed-auto": ["runs", "runs"] },
  wait: { "read-only": ["runs", "runs"], ask: ["runs", "runs"], edits: ["runs", "runs"], "sandboxed-auto": ["runs", "runs"] },
  write: { "read-only": ["refused", "refused"], ask: ["asks", "asks"], edits: ["runs", "runs"], "sandboxed-auto": ["runs", "asks"] },
  edit: { "read-only": ["refused", "refused"], ask: ["asks", "asks"], edits: ["runs", "runs"], "sandboxed-auto": ["runs", "asks"] },
  // Read-only runs a command (asked, as in Ask) only in the sandbox with the workspace read-only; none: refused.
  bash: { "read-only": ["asks", "refused"], ask: ["asks", "asks"], edits: ["asks", "asks"], "sandboxed-auto": ["runs", "asks"] },
  docs__search: { "read-only": ["asks", "asks"], ask: ["asks", "asks"], edits: ["asks", "asks"], "sandboxed-auto": ["asks", "asks"] },
  db__drop: { "read-only": ["refused", "refused"], ask: ["asks", "asks"], edits: ["asks", "asks"], "sandboxed-auto": ["asks", "asks"] },
  subagent: { "read-only": ["runs", "runs"], ask: ["runs", "runs"], edits: ["runs", "runs"], "sandboxed-auto": ["runs", "runs"] },
  worktree: { "read-only": ["refused", "refused"], ask: ["asks", "asks"], edits: ["asks", "asks"], "sandboxed-auto": ["asks", "asks"] },
};

describe("each tool under each profile", () => {
  for (const [tool, args] of TOOLS) {
    for (const profile of PERMISSION_PROFILES) {
      for (const sandboxed of [true, false]) {
        // Sandboxed auto without a sandbox is never run (the chat falls back to Ask): its row is Ask's.
        const effective: PermissionProfile = profile === "sandboxed-auto" && !sandboxed ? "ask" : profile;
        const expected = EXPECTED[tool][profile][sandboxed ? 0 : 1];
        it(`${tool} under ${profile}, ${sandboxed ? "sandboxed" : "no sandbox"}: ${expected}`, async () => {
          const got = await outcome(effective, sandboxed, tool, args);
          expect(got.outcome).toBe(expected);
          if (got.outcome === "refused") expect(got.reason).toMatch(/^This chat is Read-only: .+not (allowed|made)|no sandbox/);
        });
      }
    }
  }
});

describe("what a profile leaves alone", () => {
  it("a change of a protected file asks every time under Edits allowed and Sandboxed auto, with no grant offered", async () => {
    for (const profile of ["edits", "sandboxed-auto"] as const) {
      const { g, published } = gateFor(profile, true, { protection: "it changes .git/hooks/pre-commit" });
      void g.ask({ id: "p1", toolName: "write", args: { path: ".git/hooks/pre-commit" } });
      await new Promise((r) => setTimeout(r, 10));
      expect(published.at(-1)?.[0]?.summary).toContain(".git/hooks/pre-commit");
      expect(published.at(-1)?.[0]?.scope).toBeUndefined();
      g.denyAll("over");
    }
  });

  it("Read-only refuses a write even when the chat or the project allowed it", async () => {
    expect((await outcome("read-only", true, "write", { path: "a" }, { grants: ["tool:write"] })).outcome).toBe("refused");
    expect((await outcome("read-only", true, "edit", { path: "a" }, { project: ["tool:edit"] })).outcome).toBe("refused");
  });

  it("project and chat grants still apply on top of Ask and Edits allowed", async () => {
    expect((await outcome("ask", true, "bash", { command: "npm test" }, { project: ["bash=npm test"] })).outcome).toBe("runs");
    expect((await outcome("edits", true, "bash", { command: "npm test" }, { grants: ["bash=npm test"] })).outcome).toBe("runs");
    expect((await outcome("edits", true, "bash", { command: "npm run build" }, { grants: ["bash=npm test"] })).outcome).toBe("asks");
  });

  it("a network question still asks under Sandboxed auto (only allowed domains pass without one)", async () => {
    const { g, published } = gateFor("sandboxed-auto", true);
    void g.ask({ id: "n1", toolName: "network", args: { host: "evil.example" }, described: { summary: "curl wants evil.example" }, network: true });
    await new Promise((r) => setTimeout(r, 10));
    expect(published.at(-1)?.[0]?.network).toBe(true);
    g.denyAll("over");
  });
});
