/**
 * The app as electron-builder packs it from the real electron-builder.yml and out/: electron-builder runs for real,
 * with a stand-in for Electron's binary (the real one cannot be downloaded here) holding only the fuse wire, and
 * makes an unpacked Linux build. Linux only: packing for macOS or Windows edits the real binary's Info.plist or
 * resources, which a stand-in lacks.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unpackedAsarPath } from "../../src/agent-worker/tools/workspace/packaged-path";
import { TempFolders } from "../../testkit/temp-folders";

/** Electron's fuse wire follows this marker in its binary: a version byte, a length byte, one byte per fuse. */
const SENTINEL = "dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX";
/** Electron's own defaults, in @electron/fuses' order: RunAsNode, cookie encryption, NODE_OPTIONS, inspect, asar
 * integrity, only app.asar, browser V8 snapshot, file:// privileges, and one more Electron 45 has. */
const STOCK_WIRE = "101100011";

type AsarNode = { files: Record<string, AsarNode> } | { size: number; unpacked?: boolean };

/** app.asar's table of contents (its header: a pickled JSON string after 16 bytes of sizes). */
function asarHeader(file: string): AsarNode {
  const bytes = readFileSync(file);
  return JSON.parse(bytes.toString("utf8", 16, 16 + bytes.readUInt32LE(12))) as AsarNode;
}

/** Every file in an asar header, by path, and whether it is unpacked. */
function asarFiles(node: AsarNode, prefix = ""): Map<string, boolean> {
  if (!("files" in node)) return new Map([[prefix, node.unpacked === true]]);
  return new Map(Object.entries(node.files).flatMap(([name, child]) => [...asarFiles(child, prefix ? `${prefix}/${name}` : name)]));
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
}

const root = process.cwd();
const temp = new TempFolders("paddock-pack-");

describe.skipIf(process.platform !== "linux")("the packed app (electron-builder, a stand-in Electron)", () => {
  let app: string;
  let files: Map<string, boolean>;

  beforeAll(() => {
    const scratch = temp.make({ "electron/LICENSE": "stand-in", "electron/version": "45.6.0", "electron/resources/.keep": "" });
    const binary = Buffer.concat([Buffer.from("#!/bin/sh\nexit 0\n"), Buffer.from(SENTINEL), Buffer.from([1, STOCK_WIRE.length]), Buffer.from(STOCK_WIRE)]);
    writeFileSync(join(scratch, "electron/electron"), binary, { mode: 0o755 });
    const output = join(scratch, "dist");
    mkdirSync(output);
    const cli = createRequire(import.meta.url).resolve("electron-builder/cli.js");
    const args = ["--config", "electron-builder.yml", "--linux", "dir", `--${process.arch}`, "--publish", "never"];
    const run = spawnSync(process.execPath, [cli, ...args, `-c.electronDist=${join(scratch, "electron")}`, `-c.directories.output=${output}`], {
      cwd: root,
      encoding: "utf8",
      timeout: 170_000,
    });
    if (run.status !== 0) throw new Error(`electron-builder failed (${run.status ?? run.signal}):\n${run.stdout}\n${run.stderr}`);
    app = join(output, readdirSync(output).find((name) => name.endsWith("-unpacked")) as string);
    files = asarFiles(asarHeader(join(app, "resources", "app.asar")));
  }, 180_000);
  afterAll(() => temp.removeAll());

  it("holds the build main, preload and the page need, with the worker bundle beside main's as in development", () => {
    for (const file of ["out/main/index.js", "out/main/agent-worker.js", "out/main/mcp-host.js", "out/preload/index.cjs", "out/renderer/index.html", "package.json"]) {
      expect(files.get(file), file).toBe(false);
    }
  });

  it("leaves out source maps, the sandbox runtime's Windows helpers and build scripts, and other arches' ripgrep", () => {
    const paths = [...files.keys()];
    expect(paths.filter((path) => path.endsWith(".map"))).toEqual([]);
    expect(paths.filter((path) => path.includes("sandbox-runtime/vendor/srt-win/") || /sandbox-runtime\/vendor\/.*\.ts$/.test(path))).toEqual([]);
    const ripgreps = new Set(paths.filter((path) => path.startsWith("node_modules/@vscode/ripgrep-")).map((path) => path.split("/")[2]));
    expect([...ripgreps]).toEqual([`ripgrep-linux-${process.arch}`]);
  });

  it("unpacks exactly what other programs run, executable, where the code's app.asar paths lead", () => {
    const resources = join(app, "resources");
    const executed = [
      `node_modules/@vscode/ripgrep-linux-${process.arch}/bin/rg`,
      "node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/x64/apply-seccomp",
      "node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/arm64/apply-seccomp",
    ];
    const loaded = ["node_modules/@anthropic-ai/sandbox-runtime/vendor/java-proxy-agent/srt-proxy-agent.jar"];
    for (const file of [...executed, ...loaded]) {
      // In the archive's table (so Node resolves it inside app.asar), marked as living outside it.
      expect(files.get(file), file).toBe(true);
      const onDisk = unpackedAsarPath(join(resources, "app.asar", file));
      expect(onDisk).toBe(join(resources, "app.asar.unpacked", file));
      if (executed.includes(file)) expect(statSync(onDisk).mode & 0o111, file).not.toBe(0);
    }
    const unpacked = walk(join(resources, "app.asar.unpacked")).map((file) => relative(join(resources, "app.asar.unpacked"), file));
    expect(unpacked.sort()).toEqual([...executed, ...loaded].sort());
  });

  it("has the release fuses flipped in its binary", () => {
    const binary = readFileSync(join(app, "paddock"));
    const wire = binary.indexOf(SENTINEL) + SENTINEL.length;
    const fuses = binary.toString("ascii", wire + 2, wire + 2 + binary[wire + 1]);
    // RunAsNode off, cookie encryption on, NODE_OPTIONS off, inspect off, asar integrity on, only app.asar on,
    // browser V8 snapshot as Electron ships it, file:// privileges off; any later fuse as Electron ships it.
    expect(fuses.slice(0, 8)).toBe(`010011${STOCK_WIRE[6]}0`);
    expect(fuses.slice(8)).toBe(STOCK_WIRE.slice(8));
  });
});
