/**
 * `npm run lint:security`'s electronegativity gate (scripts/lint-security.mjs), run on small source folders: it
 * must catch an insecure window, hold an accepted finding to its reason, and drop nothing it could not read.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding `src/main.ts` with `source`, and an accept list holding `accepted`. */
function project(source: string, accepted: unknown[] = []): { src: string; accepted: string } {
  const dir = mkdtempSync(join(tmpdir(), "paddock-lint-security-"));
  dirs.push(dir);
  const src = join(dir, "src");
  mkdirSync(src);
  writeFileSync(join(src, "main.ts"), source);
  writeFileSync(join(dir, "accepted.json"), JSON.stringify({ accepted }));
  return { src, accepted: join(dir, "accepted.json") };
}

function lintSecurity(p: { src: string; accepted: string }): { code: number | null; output: string } {
  const run = spawnSync(process.execPath, ["scripts/lint-security.mjs", "--src", p.src, "--accepted", p.accepted], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, output: run.stdout + run.stderr };
}

const INSECURE_WINDOW = `
import { BrowserWindow } from "electron";
export const win = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });
`;

describe("lint:security (electronegativity)", () => {
  it("fails on a window with Node in its page, no isolation and no sandbox, naming the checks", () => {
    const { code, output } = lintSecurity(project(INSECURE_WINDOW));
    expect(code).toBe(1);
    // Node integration fails the run whatever electronegativity rates it (here: informational, no remote content).
    expect(output).toMatch(/NODE_INTEGRATION_JS_CHECK \(\w+\) at src\/main\.ts/);
    expect(output).toMatch(/CONTEXT_ISOLATION_JS_CHECK \(HIGH\)/);
    expect(output).toMatch(/SANDBOX_JS_CHECK \(MEDIUM\)/);
  });

  it("passes findings that the accept list explains, and prints the reasons", () => {
    // This "app" has no navigation lock, permission handler or CSP at all, so the app-wide checks fire too.
    const p = project(`import { shell } from "electron";\nexport const open = (url: string) => shell.openExternal(url);\n`, [
      { check: "OPEN_EXTERNAL_JS_CHECK", file: "src/main.ts", reason: "only https here" },
      ...["CSP_GLOBAL_CHECK", "LIMIT_NAVIGATION_GLOBAL_CHECK", "PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK"].map((check) => ({
        check,
        file: "N/A",
        reason: "a test without pages",
      })),
    ]);
    const { code, output } = lintSecurity(p);
    expect(output).toContain("only https here");
    expect(code).toBe(0);
  });

  it("fails on the same finding where the accept list does not name its file", () => {
    const p = project(`import { shell } from "electron";\nexport const open = (url: string) => shell.openExternal(url);\n`, [
      { check: "OPEN_EXTERNAL_JS_CHECK", file: "src/other.ts", reason: "only https there" },
    ]);
    const { code, output } = lintSecurity(p);
    expect(code).toBe(1);
    expect(output).toMatch(/OPEN_EXTERNAL_JS_CHECK \(MEDIUM\) at src\/main\.ts/);
  });

  it("refuses an accepted finding without a reason", () => {
    const p = project(INSECURE_WINDOW, [{ check: "SANDBOX_JS_CHECK", file: "src/main.ts" }]);
    const { code, output } = lintSecurity(p);
    expect(code).toBe(2);
    expect(output).toContain('accepted[0] needs a non-empty "reason"');
  });

  it("fails on an accepted finding that no longer occurs", () => {
    const p = project(`export const nothing = 1;\n`, [{ check: "SANDBOX_JS_CHECK", file: "src/gone.ts", reason: "was safe" }]);
    const { code, output } = lintSecurity(p);
    expect(code).toBe(1);
    expect(output).toContain("accepted SANDBOX_JS_CHECK in src/gone.ts no longer occurs");
  });

  it("fails on a file it cannot parse, since that file went unchecked", () => {
    const { code, output } = lintSecurity(project(`export const broken = ;\n`));
    expect(code).toBe(1);
    expect(output).toMatch(/could not parse .*main\.ts/);
  });
});
