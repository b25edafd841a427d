/**
 * What each built process carries (out/main after `npm run build`): main's entry and the MCP host's, with every chunk
 * they load, hold no worker code, so a worker module that main or the MCP host needs has a home both may import
 * (src/shared-node) instead of riding along. The bundler names each module's source in a `// src/...` comment.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** The source modules bundled into `entry` and the chunks it loads, statically or by `import()`. */
function bundledSources(entry: string): string[] {
  const seen = new Set<string>();
  const sources = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, "utf8");
    for (const [, source] of code.matchAll(/^\/\/ (src\/\S+)$/gm)) sources.add(source);
    for (const [, spec] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)) visit(join(dirname(file), spec));
  };
  visit(resolve("out/main", entry));
  return [...sources].sort();
}

describe("the built processes' code", () => {
  it("main's bundle carries no worker code, and reaches session files through src/shared-node", () => {
    const sources = bundledSources("index.js");
    expect(sources).toContain("src/main/broker/core.ts");
    expect(sources).toContain("src/shared-node/session-files/transcript-store.ts");
    expect(sources.filter((source) => source.startsWith("src/agent-worker/"))).toEqual([]);
  });

  it("the MCP host's bundle carries no worker or main code", () => {
    const sources = bundledSources("mcp-host.js");
    expect(sources).toContain("src/shared-node/process/parent-transport.ts");
    expect(sources.filter((source) => source.startsWith("src/agent-worker/") || source.startsWith("src/main/"))).toEqual([]);
  });
});
