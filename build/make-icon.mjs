/**
 * Writes Paddock's icons into build/ (see icons.mjs for what and why): `node build/make-icon.mjs`.
 * Run it after changing the drawing; test/unit/repo/packaging/icons.test.ts fails while the files are stale.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { iconFiles } from "./icons.mjs";

const here = dirname(fileURLToPath(import.meta.url));
for (const [name, bytes] of iconFiles()) {
  const path = join(here, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  console.log(`${name}: ${bytes.length} bytes`);
}
