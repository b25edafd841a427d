/** The tests' picture of a folder: every entry's kind, mode, bytes (files) or target (links); `.git` left out. */
import { lstatSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";

export type Listing = Record<string, { kind: "file" | "dir" | "symlink"; mode: number; content?: string }>;

export function listTree(root: string, skip: readonly string[] = [".git"]): Listing {
  const out: Listing = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      if (skip.includes(name)) continue;
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, path));
      if (st.isSymbolicLink()) out[path] = { kind: "symlink", mode: 0, content: readlinkSync(join(root, path)) };
      else if (st.isDirectory()) {
        out[path] = { kind: "dir", mode: st.mode & 0o7777 };
        walk(path);
      } else if (st.isFile()) out[path] = { kind: "file", mode: st.mode & 0o7777, content: readFileSync(join(root, path)).toString("base64") };
    }
  };
  walk("");
  return out;
}
