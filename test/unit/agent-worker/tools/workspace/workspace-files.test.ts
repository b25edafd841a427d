import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../../../../src/agent-worker/tools/workspace/workspace-files";
import { WorkspacePaths } from "../../../../../src/agent-worker/tools/workspace/workspace-paths";
import { privateFolders } from "../../../../../src/agent-worker/tools/workspace/private-folders";
import { MAX_TEXT_FILE_BYTES } from "../../../../../src/shared/protocol/attachments";
import { bandsPng } from "../../../../../testkit/png";

let base: string;
let root: string;
let outside: string;
let files: WorkspaceFiles;

function put(at: string, content: string | Buffer = "") {
  mkdirSync(dirname(at), { recursive: true });
  writeFileSync(at, content);
}
const text = (base64: string) => Buffer.from(base64, "base64").toString("utf8");

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "paddock-mentions-")));
  root = join(base, "workspace");
  outside = join(base, "outside");
  put(join(root, ".gitignore"), "build/\n*.log\n");
  put(join(root, "src/csv.ts"), "export const csv = 1;\n");
  put(join(root, "src/deep/parse.ts"), "parse\n");
  put(join(root, "build/out.js"), "built\n");
  put(join(root, "debug.log"), "log\n");
  put(join(root, ".git/config"), "[core]\n");
  put(join(outside, "secret.txt"), "the secret outside\n");
  put(join(base, "private/keys.json"), "{}\n");
  const folders = privateFolders({ sessionDir: join(base, "session"), dataDir: join(base, "private") });
  files = new WorkspaceFiles(new WorkspacePaths(root, [], folders));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("listing", () => {
  it("lists files and the folders on their way, leaving out ignored files and .git", async () => {
    const { entries, files: count, truncated } = await files.search("", 50);
    const paths = entries.map((e) => `${e.path}${e.kind === "folder" ? "/" : ""}`);
    expect(paths.sort()).toEqual([".gitignore", "src/", "src/csv.ts", "src/deep/", "src/deep/parse.ts"]);
    expect(count).toBe(3);
    expect(truncated).toBe(false);
    expect((await files.search("csv")).entries[0]).toEqual({ path: "src/csv.ts", kind: "file" });
  });

  it("does not follow a symlinked folder out of the workspace while listing", async () => {
    symlinkSync(outside, join(root, "linked"));
    const { entries } = await files.search("secret");
    expect(entries).toEqual([]);
  });
});

describe("reading for a message", () => {
  it("reads a text file whole under its workspace path, a folder as its listing, an image as an image", async () => {
    const read = await files.read("src/csv.ts");
    expect(read).toMatchObject({ name: "src/csv.ts", mimeType: "text/plain" });
    expect(text(read.base64)).toBe("export const csv = 1;\n");
    const listing = await files.read("src");
    expect(listing.name).toBe("src/");
    expect(text(listing.base64)).toBe("Folder src/: 2 files, ignored files left out.\nsrc/csv.ts\nsrc/deep/\nsrc/deep/parse.ts");
    put(join(root, "logo.png"), bandsPng(8, 8));
    expect(await files.read("logo.png")).toMatchObject({ name: "logo.png", mimeType: "image/png" });
  });

  it("refuses paths that climb out, absolute paths elsewhere and the home folder, naming the workspace", async () => {
    await expect(files.read("../../etc/passwd")).rejects.toThrow(/outside the workspace/);
    await expect(files.read("@../outside/secret.txt")).rejects.toThrow(/outside the workspace/);
    await expect(files.read("/etc/passwd")).rejects.toThrow(/outside the workspace/);
    await expect(files.read("~/.ssh/id_rsa")).rejects.toThrow(/home folder/);
    await expect(files.read(join(base, "private/keys.json"))).rejects.toThrow(/outside the workspace/);
  });

  it("refuses a symlink that leads out of the workspace, to a file or through a folder", async () => {
    symlinkSync(join(outside, "secret.txt"), join(root, "innocent.txt"));
    symlinkSync(outside, join(root, "docs"));
    await expect(files.read("innocent.txt")).rejects.toThrow(/symbolic link.*outside the workspace/);
    await expect(files.read("docs/secret.txt")).rejects.toThrow(/symbolic link.*outside the workspace/);
    await expect(files.read("docs")).rejects.toThrow(/symbolic link.*outside the workspace/);
  });

  it("refuses a binary file and one over the size limit with a clear note, and a missing one", async () => {
    put(join(root, "tool.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    await expect(files.read("tool.bin")).rejects.toThrow("tool.bin is a binary file: only text files and PNG, JPEG, GIF or WebP images can be attached. Nothing was read into the message.");
    put(join(root, "huge.txt"), "x".repeat(MAX_TEXT_FILE_BYTES + 10));
    await expect(files.read("huge.txt")).rejects.toThrow(/huge\.txt is .*: a text file attached with @ can be at most 1 MB/);
    await expect(files.read("nothing-here.ts")).rejects.toThrow(/nothing-here\.ts is not in the workspace/);
    await expect(files.read("  ")).rejects.toThrow(/Name a file/);
  });
});
