/**
 * Skills end to end, with the core both hosts assemble and a real worker: main finds the user's skills (Claude Code's
 * folder here), the worker lists them in the system prompt the loopback model receives, as pi's <available_skills>,
 * and the model's `read` reaches a listed SKILL.md outside the workspace, but nothing else there. A workspace's own
 * skills reach the model only after the user agreed (`confirmProjectSkills`), from the chat's next request.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { endpointUrl } from "../../src/main/broker/session-broker";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { createLoopbackCore } from "../../testkit/loopback-core";
import { TempFolders } from "../../testkit/temp-folders";
import { openWebSocket, settled } from "../../testkit/worker-harness";

let server: OpenAITestServer;
let dir: string;
let core: Core<never>;
let home: string;
const clients: SessionClient[] = [];
const folders = new TempFolders("paddock-skills-chat-");

const SKILL = "---\nname: pdf-tools\ndescription: Extract text & tables from PDF files.\n---\n\n# PDF tools\n\nRun scripts/extract.sh FILE.\n";

beforeAll(async () => {
  server = await startOpenAIServer({ models: ["test-model"] });
});
afterAll(() => server.close());
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-skills-data-"));
  home = folders.make({ ".claude/skills/pdf-tools/SKILL.md": SKILL, ".claude/private-notes.txt": "NOT-FOR-THE-MODEL" });
  core = await createLoopbackCore(dir, server, { homeDir: home });
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await core.shutdown();
  rmSync(dir, { recursive: true, force: true });
  folders.removeAll();
});

async function chat(workspace: string): Promise<{ id: string; client: SessionClient }> {
  const summary = await core.service.createSession();
  await core.service.setWorkspace(summary.id, workspace);
  const client = new SessionClient(summary.id, async () => ({ transport: await openWebSocket(endpointUrl(await core.broker.attach(summary.id, "page"))) }));
  clients.push(client);
  await client.start();
  return { id: summary.id, client };
}

const systemPrompt = () => String((server.requests.at(-1)!.body.messages as { role: string; content: unknown }[])[0].content);
const lastToolResult = () => {
  const messages = server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "tool").at(-1)?.content);
};
const read = (id: string, path: string) => turnDirective({ toolCalls: [{ id, name: "read", arguments: { path } }] });

describe("skills in a chat", () => {
  it("lists the user's skills to the model as pi does, and its read tool reaches the listed SKILL.md only", async () => {
    const workspace = folders.make({ "README.md": "hello" });
    const { client } = await chat(workspace);
    const location = join(home, ".claude", "skills", "pdf-tools", "SKILL.md");
    await client.prompt(`Load it ${read("r1", location)}`);
    await settled(client, 4);
    const prompt = systemPrompt();
    expect(prompt).toContain("The following skills provide specialized instructions for specific tasks.");
    expect(prompt).toContain("Use the read tool to load a skill's file when the task matches its description.");
    expect(prompt).toContain(
      `<available_skills>\n  <skill>\n    <name>pdf-tools</name>\n    <description>Extract text &amp; tables from PDF files.</description>\n    <location>${location}</location>\n  </skill>\n</available_skills>`,
    );
    expect(lastToolResult()).toContain("Run scripts/extract.sh FILE.");

    // Beside the skill's folder, the home folder stays out of reach.
    await client.prompt(`And this ${read("r2", join(home, ".claude", "private-notes.txt"))}`);
    await settled(client, 8);
    expect(lastToolResult()).toContain("outside the workspace");
    expect(lastToolResult()).not.toContain("NOT-FOR-THE-MODEL");
  });

  it("lists a workspace's own skills only after the user agreed to them", async () => {
    const workspace = folders.make({ ".pi/skills/deploy/SKILL.md": "---\ndescription: Deploys this project.\n---\nSteps.\n" });
    const { id, client } = await chat(workspace);
    await client.prompt("hi");
    await settled(client, 2);
    expect(systemPrompt()).not.toContain("<name>deploy</name>");
    const overview = await core.service.listSkills(id);
    expect(overview.projectPending).toMatchObject({ workspace, skills: 1, templates: 0 });

    expect(await core.service.confirmProjectSkills(id)).toBe(1);
    await client.prompt("again");
    await settled(client, 4);
    expect(systemPrompt()).toContain(`<name>deploy</name>\n    <description>Deploys this project.</description>\n    <location>${join(workspace, ".pi", "skills", "deploy", "SKILL.md")}</location>`);
    expect((await core.service.listSkills(id)).projectPending).toBeUndefined();
  });
});
