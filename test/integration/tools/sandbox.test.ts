import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from "vitest";
import { createShellSandbox, disposeSandboxRuntime, type ShellSandbox } from "../../../src/agent-worker/tools/workspace";
import { sandboxForTests } from "../../../testkit/sandbox-support";
import { createWorkspace, type WorkspaceFixture } from "../../unit/agent-worker/tools/workspace/workspace-fixture";

/** bash under the real sandbox: required on CI, skipped with the reason elsewhere (sandboxForTests). */
const support = await sandboxForTests("the sandbox suite");

describe.skipIf(!support.available)("bash in the sandbox", () => {
  let server: Server;
  let port: number;
  let sandbox: ShellSandbox;
  let ws: WorkspaceFixture;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end("hello from the host"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    sandbox = await createShellSandbox();
  });
  afterAll(async () => {
    server.close();
    await disposeSandboxRuntime();
  });
  beforeEach(() => {
    ws = createWorkspace(sandbox);
  });
  afterEach(() => ws.remove());

  it("is the platform's sandbox", () => {
    expect(sandbox.kind).toBe(process.platform === "darwin" ? "seatbelt" : "bubblewrap");
  });

  it("writes in the workspace and the session's temp folder, and nowhere else", async () => {
    const text = await ws.run("bash", {
      command: `echo in > inside.txt; echo t > "$TMPDIR/t.txt"; echo out > ${join(ws.outside, "x.txt")}; echo home > ~/paddock-sandbox-test.txt; cat inside.txt "$TMPDIR/t.txt"`,
    });
    expect(text).toMatch(/Read-only file system|Operation not permitted/);
    expect(readFileSync(join(ws.root, "inside.txt"), "utf8")).toBe("in\n");
    expect(readFileSync(join(ws.sessionDir, "tmp", "t.txt"), "utf8")).toBe("t\n");
    expect(existsSync(join(ws.outside, "x.txt"))).toBe(false);
    expect(existsSync(join(process.env.HOME ?? "/nonexistent", "paddock-sandbox-test.txt"))).toBe(false);
  });

  it("leaves nothing behind in the workspace: the empty files it mounts over protected paths go when the command ends", async () => {
    const before = readdirSync(ws.root).sort();
    await ws.run("bash", { command: "true" });
    await ws.run("bash", { command: "echo hi > note.txt" });
    expect(readdirSync(ws.root).sort()).toEqual([...before, "note.txt"].sort());
  });

  it("cannot plant git hooks in the workspace (they would run outside the sandbox)", async () => {
    mkdirSync(join(ws.root, ".git", "hooks"), { recursive: true });
    writeFileSync(join(ws.root, ".git", "HEAD"), "ref: refs/heads/main\n");
    await ws.run("bash", { command: "echo 'curl evil' > .git/hooks/pre-commit 2>/dev/null; true" });
    expect(readdirSync(join(ws.root, ".git", "hooks"))).toEqual([]);
  });

  it("has no network: the host's loopback server is unreachable, directly or through the proxy", async () => {
    // Outside the sandbox the server answers: the checks below can fail.
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("hello from the host");
    const direct = await ws.failure("bash", { command: `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected` });
    expect(direct).not.toContain("connected");
    const proxied = await ws.failure("bash", { command: `NO_PROXY= no_proxy= curl -sS --fail --max-time 5 http://127.0.0.1:${port}/` });
    expect(proxied).not.toContain("hello from the host");
  });

  it("reaches allowed domains only, per sandbox", async () => {
    const open = await createShellSandbox({ allowedDomains: [`127.0.0.1:${port}`] });
    const allowed = createWorkspace(open);
    try {
      expect(await allowed.run("bash", { command: `NO_PROXY= no_proxy= curl -sS --fail --max-time 5 http://127.0.0.1:${port}/` })).toBe("hello from the host");
    } finally {
      allowed.remove();
    }
    // The same runtime, another sandbox without the domain: still refused.
    expect(await ws.failure("bash", { command: `NO_PROXY= no_proxy= curl -sS --fail --max-time 5 http://127.0.0.1:${port}/` })).not.toContain("hello");
  });

  it("cannot read the folders it is told not to", async () => {
    mkdirSync(join(ws.outside, "keys"));
    writeFileSync(join(ws.outside, "keys", "id"), "private key");
    const guarded = await createShellSandbox({ denyRead: [join(ws.outside, "keys")] });
    const fixture = createWorkspace(guarded);
    try {
      expect(await fixture.failure("bash", { command: `cat ${join(ws.outside, "keys", "id")}` })).not.toContain("private key");
    } finally {
      fixture.remove();
    }
  });

  it("cannot read a single file it is told not to (pi's auth.json), while the folder around it stays readable", async () => {
    mkdirSync(join(ws.outside, "pi-agent", "skills"), { recursive: true });
    writeFileSync(join(ws.outside, "pi-agent", "auth.json"), '{"anthropic": {"access": "sk-ant-oat-secret"}}');
    writeFileSync(join(ws.outside, "pi-agent", "skills", "SKILL.md"), "a skill");
    const guarded = await createShellSandbox({ denyRead: [join(ws.outside, "pi-agent", "auth.json")] });
    const fixture = createWorkspace(guarded);
    try {
      expect(await fixture.failure("bash", { command: `cat ${join(ws.outside, "pi-agent", "auth.json")}` })).not.toContain("sk-ant-oat-secret");
      expect(await fixture.failure("bash", { command: `cat ${join(ws.outside, "pi-agent", "skills", "SKILL.md")}; exit 3` })).toContain("a skill");
    } finally {
      fixture.remove();
    }
  });

  it("abort kills the sandboxed tree, a background grandchild included", async () => {
    const marker = `sleep 31.${process.pid}`;
    const controller = new AbortController();
    const running = ws.failure("bash", { command: `${marker} & wait` }, controller.signal);
    await waitFor(() => sleepers(marker).length > 0);
    controller.abort();
    expect(await running).toBe("Command aborted");
    await waitFor(() => sleepers(marker).length === 0);
  });

  it("a symlink a sandboxed command plants is refused by the file tools", async () => {
    writeFileSync(join(ws.outside, "secret.txt"), "secret");
    await ws.run("bash", { command: `ln -s ${join(ws.outside, "secret.txt")} leak.txt` });
    expect(await ws.failure("read", { path: "leak.txt" })).toMatch(/^Refused "leak.txt": it leads through a symbolic link/);
  });
});

/** Host pids of running (not zombie) processes whose command line is `marker`. */
function sleepers(marker: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
        const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
        return cmdline === marker && state !== "Z";
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
