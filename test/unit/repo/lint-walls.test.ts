/**
 * The walls `npm run lint` keeps (eslint.config.js's table of which folder may import which), through ESLint's own
 * Node API: imports planted at paths inside each folder are errors naming the wall they cross, what the table allows
 * stays clean, each named crossing is allowed only in its own file and only for its own module, and the real tree
 * lints clean.
 */
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ESLint } from "eslint";

/** The table's named crossings (eslint.config.js is plain JavaScript, loaded as ESLint loads it). */
const { crossings }: { crossings: { file: string; imports: string }[] } = await import(pathToFileURL(resolve("eslint.config.js")).href);

const eslint = new ESLint({ cwd: process.cwd() });

/** The import-rule messages ESLint gives `source` as if it were the file at `filePath` (nothing is written). */
async function importErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result.messages
    .filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports" || m.ruleId === "walls/dynamic-imports" || m.fatal)
    .map((m) => `${m.severity === 2 ? "error" : "warning"}: ${m.message}`);
}

describe("the walls between folders", () => {
  it.each([
    ["src/main/broker/planted.ts", `import { SessionHost } from "../../agent-worker/host/session-host";\nexport { SessionHost };`, "src/main → src/agent-worker"],
    ["src/main/planted.ts", `import type { Tool } from "../agent-worker/tools/index";\nexport type T = Tool;`, "src/main → src/agent-worker"],
    ["src/main/broker/planted.ts", `export { openWindow } from "../electron/chat-windows";`, "src/main → src/main/electron"],
    ["src/main/broker/planted.ts", `export * from "../../main/electron/ipc";`, "src/main → src/main/electron"],
    ["src/main/broker/planted.ts", `export const load = () => import("../../agent-worker/host/session-host");`, "src/main → src/agent-worker"],
    ["src/main/broker/planted.ts", "export const load = () => import(`../../agent-worker/host/session-host`);", "src/main → src/agent-worker"],
    ["src/mcp-host/planted.ts", `import "../main/broker/core";`, "src/mcp-host → src/main"],
    ["src/mcp-host/planted.ts", `import "../agent-worker/host/session-host";`, "src/mcp-host → src/agent-worker"],
    ["src/agent-worker/host/planted.ts", `import "../../main/broker/core";`, "src/agent-worker → src/main"],
    ["src/agent-worker/tools/planted.ts", `import "../../mcp-host/host-main";`, "src/agent-worker → src/mcp-host"],
    ["src/renderer/app/planted.tsx", `import "../../main/broker/core";`, "src/renderer → src/main"],
    ["src/renderer/app/planted.tsx", `import "../../shared-node/regular-file";`, "src/renderer → src/shared-node"],
    ["src/shared/agent/planted.ts", `import "../../shared-node/regular-file";`, "src/shared → src/shared-node"],
    ["src/shared/planted.ts", `import "../renderer/main";`, "src/shared → src/renderer"],
    ["src/shared-node/planted.ts", `import "../agent-worker/host/transcript-store";`, "src/shared-node → src/agent-worker"],
    ["src/web-host/planted.ts", `import "../main/electron/ipc";`, "src/web-host → src/main/electron"],
    ["src/preload/planted.ts", `import "../main/broker/core";`, "src/preload → src/main"],
    ["src/main/broker/planted.ts", `import "../../../testkit/worker-harness";`, "src/main → testkit"],
    ["testkit/planted.ts", `import "../test/unit/lint-walls.test";`, "testkit → test"],
    ["bench/planted.ts", `import "../test/unit/lint-walls.test";`, "bench → test"],
  ])("%s: %s is an error naming the wall %s", async (file, source, wall) => {
    const errors = await importErrors(file, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^error: /);
    expect(errors[0]).toContain(`The wall ${wall}:`);
  });

  it("keeps Node out of the page and out of src/shared, and Electron out of everything but its adapters, the preload and its suite", async () => {
    expect(await importErrors("src/renderer/app/planted.tsx", `import { readFileSync } from "node:fs";\nreadFileSync;`)).toEqual([
      expect.stringContaining("The renderer runs in a sandboxed page; it has no Node: no Node built-ins."),
    ]);
    expect(await importErrors("src/renderer/planted.ts", `import "fs";`)).toHaveLength(1);
    expect(await importErrors("src/renderer/planted.ts", `export const load = () => import("node:fs");`)).toEqual([
      expect.stringContaining("The renderer runs in a sandboxed page; it has no Node: no Node built-ins."),
    ]);
    expect(await importErrors("src/agent-worker/planted.ts", `export const load = () => import("electron");`)).toHaveLength(1);
    expect(await importErrors("src/shared/planted.ts", `import "node:path";`)).toEqual([
      expect.stringContaining("src/shared runs everywhere, including the page; it has no Node: no Node built-ins."),
    ]);
    for (const file of ["src/main/broker/planted.ts", "src/agent-worker/planted.ts", "src/web-host/planted.ts", "testkit/planted.ts", "test/unit/planted.test.ts"]) {
      expect(await importErrors(file, `import { app } from "electron";\napp;`), file).toEqual([expect.stringMatching(/Only src\/main\/electron, src\/preload and test\/electron may load Electron/)]);
    }
    for (const file of ["src/main/electron/planted.ts", "src/preload/planted.ts", "test/electron/planted.test.ts"]) {
      expect(await importErrors(file, `import { app } from "electron";\napp;`), file).toEqual([]);
    }
    expect(await importErrors("src/main/broker/planted.ts", `import type { App } from "electron";\nexport type A = App;`)).toEqual([]);
  });

  it("lets each folder import what the table allows", async () => {
    const allowed: [string, string][] = [
      ["src/main/electron/planted.ts", `import "../broker/core";`],
      ["src/main/broker/planted.ts", `import "../../shared/error-text";\nimport "../../shared-node/regular-file";\nimport "../agents/agent-catalog";`],
      ["src/web-host/planted.ts", `import "../main/broker/core";`],
      ["src/agent-worker/host/planted.ts", `import "../../shared/error-text";\nimport "../../shared-node/regular-file";\nimport "../tools/index";`],
      ["src/mcp-host/planted.ts", `import "../shared/error-text";\nimport "./host-main";`],
      ["src/agent-worker/planted.ts", `export const load = (name: string) => [import("node:http"), import("./host/entry"), import("@earendil-works/pi-ai"), import(name)];`],
      ["src/main/electron/planted.ts", `export const load = () => import("electron");`],
      ["src/shared-node/planted.ts", `import "../shared/error-text";\nimport "node:fs";`],
      ["src/renderer/planted.ts", `import "./main";\nimport "../shared/error-text";`],
      ["testkit/planted.ts", `import "../src/main/broker/core";\nimport "../src/agent-worker/host/session-host";\nimport "../scripts/electron-binary.mjs";`],
      ["test/unit/planted.test.ts", `import "../../src/agent-worker/host/session-host";\nimport "../../testkit/worker-harness";\nimport "../../scripts/electron-binary.mjs";`],
      ["bench/planted.ts", `import "../testkit/worker-harness";\nimport "../src/main/broker/core";`],
    ];
    for (const [file, source] of allowed) expect(await importErrors(file, source), `${file}: ${source}`).toEqual([]);
  });

  it("allows no crossing: main and the MCP host reach session files and process plumbing through src/shared-node", async () => {
    expect(crossings).toEqual([]);
    // What crossed before issue 23 §1 gave these modules their shared homes is walled off now, in the files that did it too.
    const former: [string, string, string][] = [
      ["src/main/broker/app-service.ts", `import { loadTranscript } from "../../agent-worker/host/transcript-store";\nloadTranscript;`, "src/main → src/agent-worker"],
      ["src/main/broker/chat-import.ts", `import { TranscriptWriter } from "../../agent-worker/host/transcript-store";\nTranscriptWriter;`, "src/main → src/agent-worker"],
      ["src/main/broker/worker-process.ts", `import { COMPILE_CACHE_ENV } from "../../agent-worker/host/compile-cache";\nCOMPILE_CACHE_ENV;`, "src/main → src/agent-worker"],
      ["src/mcp-host/entry.ts", `import { enableCompileCache } from "../agent-worker/host/compile-cache";\nenableCompileCache;`, "src/mcp-host → src/agent-worker"],
      ["src/mcp-host/host-main.ts", `import { ParentTransport } from "../agent-worker/host/parent-transport";\nParentTransport;`, "src/mcp-host → src/agent-worker"],
    ];
    for (const [file, source, wall] of former) expect(await importErrors(file, source), file).toEqual([expect.stringContaining(`The wall ${wall}:`)]);
    const homes: [string, string][] = [
      ["src/main/broker/app-service.ts", `import { loadTranscript } from "../../shared-node/session-files/transcript-store";\nloadTranscript;`],
      ["src/main/broker/worker-process.ts", `import { COMPILE_CACHE_ENV } from "../../shared-node/process/compile-cache";\nCOMPILE_CACHE_ENV;`],
      ["src/mcp-host/host-main.ts", `import { ParentTransport } from "../shared-node/process/parent-transport";\nParentTransport;`],
      ["src/agent-worker/host/planted.ts", `import { attachmentsDir } from "../../shared-node/session-files/session-folder";\nattachmentsDir;`],
    ];
    for (const [file, source] of homes) expect(await importErrors(file, source), file).toEqual([]);
  });

  it("names only crossings the tree still makes, so each goes from the table when its module moves", () => {
    for (const { file, imports } of crossings) {
      expect(readFileSync(file, "utf8"), `${file} no longer imports ${imports}: drop it from eslint.config.js's crossings`).toMatch(
        new RegExp(`["'](\\.\\./)+${imports.replace(/^src\//, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["']`),
      );
    }
  });

  // The cache (one per checkout, as `npm run lint` keeps one) spares a second run the unchanged files.
  it("lints the real tree's walled folders clean", { timeout: 180_000 }, async () => {
    const tree = new ESLint({ cwd: process.cwd(), cache: true, cacheStrategy: "content", cacheLocation: join(tmpdir(), `paddock-lint-walls-${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 12)}/`) });
    const results = await tree.lintFiles(["src", "testkit", "bench", "scripts", "eslint.config.js"]);
    const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.ruleId}: ${m.message}`));
    expect(problems).toEqual([]);
  });
});
