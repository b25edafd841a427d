/**
 * Main's core hands its home folder and environment to the agent catalog: `PI_CODING_AGENT_DIR` moves pi's user
 * agents for the subagent tool and for Settings' list alike (no worker is started here).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../../../src/main/broker/core";
import { NodeWorkerLauncher } from "../../../../src/main/broker/node-worker-launcher";
import { plaintextDevCipher } from "../../../../src/main/broker/secrets";
import { TempFolders } from "../../../../testkit/temp-folders";

const folders = new TempFolders("paddock-agent-folders-");
let core: Core<never>;
let home: string;
let moved: string;

beforeAll(async () => {
  home = folders.make({ ".pi/agent/agents/stale.md": "---\nname: stale\ndescription: In the old place\n---\nOld.\n" });
  moved = join(folders.make({}), "pi-agent");
  mkdirSync(join(moved, "agents"), { recursive: true });
  writeFileSync(join(moved, "agents", "moved.md"), "---\nname: moved\ndescription: In PI_CODING_AGENT_DIR\n---\nNew.\n");
  core = await createCore({
    dataDir: folders.make({}),
    homeDir: home,
    env: { PI_CODING_AGENT_DIR: moved },
    launcher: new NodeWorkerLauncher("never-started.js"),
    sessionTransport: "websocket",
    cipher: plaintextDevCipher,
    keepSpare: false,
    openSession: async () => {},
  });
});
afterAll(async () => {
  await core.shutdown();
  folders.removeAll();
});

describe("the core's agent folders", () => {
  it("follow PI_CODING_AGENT_DIR from the environment it was given", async () => {
    const overview = await core.service.listAgents();
    expect(overview.folders.pi).toBe(join(moved, "agents"));
    const names = overview.agents.map((a) => `${a.name}:${a.source}`);
    expect(names).toContain("moved:pi-user");
    expect(names).not.toContain("stale:pi-user");
  });
});
