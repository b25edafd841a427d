/**
 * Temporary folders with files in them, for tests that need a workspace (or a HOME): made on demand, real paths
 * (symlinks in tmpdir resolved, as main resolves a chosen workspace), all removed by `removeAll()`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export class TempFolders {
  private readonly made: string[] = [];

  constructor(private readonly prefix = "paddock-ws-") {}

  /** A new folder holding `files` (relative path -> content; parent folders created). */
  make(files: Record<string, string> = {}): string {
    const root = realpathSync(mkdtempSync(join(tmpdir(), this.prefix)));
    this.made.push(root);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    return root;
  }

  removeAll(): void {
    for (const folder of this.made.splice(0)) rmSync(folder, { recursive: true, force: true });
  }
}
