import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keepDataFolderPrivate } from "../../../../src/main/broker/data-folder-modes";
import { TempFolders } from "../../../../testkit/temp-folders";

const temp = new TempFolders("paddock-modes-");
afterEach(() => temp.removeAll());
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe.skipIf(process.platform === "win32")("keepDataFolderPrivate", () => {
  it("takes only group and other access away, from files and folders, never from what is not the user's", () => {
    const dir = temp.make({ "read-only.txt": "x", "sessions/a.jsonl": "" });
    chmodSync(dir, 0o755);
    chmodSync(join(dir, "read-only.txt"), 0o444);
    chmodSync(join(dir, "sessions"), 0o750);
    chmodSync(join(dir, "sessions", "a.jsonl"), 0o640);
    spawnSync("mkfifo", ["-m", "666", join(dir, "fifo")]);
    const theirs = join(dir, "theirs.txt");
    writeFileSync(theirs, "", { mode: 0o644 });
    const root = process.getuid?.() === 0;
    if (root) chownSync(theirs, 65534, 65534);

    keepDataFolderPrivate(dir, [join(dir, "sessions")]);
    expect(modeOf(dir)).toBe("700");
    expect(modeOf(join(dir, "read-only.txt"))).toBe("400");
    expect(modeOf(join(dir, "sessions"))).toBe("700");
    expect(modeOf(join(dir, "sessions", "a.jsonl"))).toBe("600");
    expect(modeOf(join(dir, "fifo"))).toBe("666");
    if (root) expect(modeOf(theirs)).toBe("644");
  });

  it("skips a folder already private: its mode says the pass was done, so later starts cost a few stats", () => {
    const dir = temp.make({ "sessions/a.jsonl": "" });
    chmodSync(join(dir, "sessions"), 0o700);
    chmodSync(join(dir, "sessions", "a.jsonl"), 0o644);
    mkdirSync(join(dir, "sessions", "chat"), { mode: 0o755 });
    keepDataFolderPrivate(dir, [join(dir, "sessions")]);
    expect(modeOf(join(dir, "sessions", "a.jsonl"))).toBe("644");
  });
});
