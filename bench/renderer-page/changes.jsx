// @ts-check
/**
 * BENCH ONLY. The Changes panel (`?view=changes&files=1000`) over a synthetic change set of that many files, for
 * bench/changes-panel.ts and the panel's browser check. `window.__bench.openChanges()` opens it: the set arrives as
 * JSON (as off the session channel), is parsed and rendered, and `marks.firstRowPaintAt` is the first frame painted
 * with a file row. The set and its file diffs are made by the shared code (diff-view.ts) from synthetic versions; reverts are
 * answered in memory, every seventh file's hunks as changed outside (a conflict) until the user answers.
 */
import { useCallback, useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { ChangesPanel } from "../../src/renderer/components/changes/ChangesPanel";
import { ChangeStat } from "../../src/renderer/components/changes/ChangeStat";
import { sinceOptions } from "../../src/renderer/components/changes/changes-panel";
import { AuthorTable, changedFileOf, fileDiffOf } from "../../src/shared/changes/diff-view";
import { countChanges } from "../../src/shared/changes/summary";

/** @typedef {import("../../src/shared/protocol/changes").ChangeSet} ChangeSet */
/** @typedef {import("../../src/shared/protocol/changes").ChangeAuthor} ChangeAuthor */

/** @type {ChangeAuthor[]} */
const AUTHORS = [
  { kind: "tool", id: "call-1", name: "edit", label: "edit src/app.ts" },
  { kind: "tool", id: "call-2", name: "bash", label: "npm run format" },
  { kind: "subagent", id: "call-3", name: "test-writer" },
  { kind: "tool", id: "call-4", name: "write", label: "write docs/guide.md" },
  { kind: "subagent", id: "call-5", name: "reviewer" },
];

const lines = (/** @type {number} */ n, /** @type {string} */ tag) => Array.from({ length: n }, (_, i) => `  const value${i} = compute("${tag}", ${i}); // line ${i + 1}\n`);

/** @typedef {import("../../src/shared/changes/diff-view").FileHistory} FileHistory */

/** File `i`'s history: its start, one call's edit (two lines near the top), a second call's (one line changed, one removed, further down). */
function historyOf(/** @type {number} */ i) {
  const status = i % 10 === 1 ? "added" : i % 10 === 2 ? "deleted" : i % 25 === 3 ? "renamed" : "modified";
  const path = `src/module-${String(Math.floor(i / 27)).padStart(2, "0")}/component-${String(i).padStart(4, "0")}`;
  const [a, b = a] = (i % 3 === 0 ? [0, 2] : [i % AUTHORS.length]).map((x) => AUTHORS[x]);
  if (i % 50 === 7) return /** @type {FileHistory} */ ({ path: `${path}.png`, versions: [{ content: new Uint8Array(4_000).fill(1, 0, 3_000) }, { content: new Uint8Array(4_812 + i), by: a }] });
  if (i % 97 === 5) return /** @type {FileHistory} */ ({ path: `${path}.bin`, versions: [{ content: { tooLarge: true, size: 24_000_000 } }, { content: { tooLarge: true, size: 25_300_000 }, by: a }] });
  const start = status === "added" ? null : lines(80, `f${i}`);
  const first = (start ?? lines(40, `new${i}`)).slice();
  first[9] = first[9].replace("\n", " (changed)\n");
  first[11] = first[11].replace("\n", " (changed)\n");
  const second = first.slice();
  if (second.length > 60) {
    second[59] = second[59].replace("\n", " (changed)\n");
    second.splice(60, 1);
  }
  /** @type {FileHistory} */
  const history = { path: `${path}.ts`, status, versions: [{ content: start && start.join("") }, { content: first.join(""), by: a }, { content: status === "deleted" ? null : second.join(""), by: b }] };
  if (status === "renamed") history.oldPath = `${path.replace("component-", "old-component-")}.ts`;
  return history;
}

/** A change set of `count` files under a few folders (mostly modified, some added, deleted, renamed, binary, too large), made by the shared code from each file's history. */
export function syntheticChanges(/** @type {number} */ count) {
  const table = new AuthorTable();
  const histories = Array.from({ length: count }, (_, i) => historyOf(i));
  const files = histories.map((h) => changedFileOf(h, table));
  /** @type {ChangeSet} */
  const set = { since: { kind: "chat" }, from: "cp-1", to: "cp-2", files, authors: table.authors, totals: countChanges(files) };
  return { set, histories: new Map(histories.map((h) => [h.path, h])) };
}

/** In-memory commands: file diffs from synthetic versions; reverts that conflict for every seventh file until answered. */
function fakeCommands(/** @type {ChangeSet} */ set, /** @type {Map<string, FileHistory>} */ histories) {
  const indexOf = (/** @type {string} */ path) => set.files.findIndex((f) => f.path === path);
  /** @param {string[]} paths @param {string | undefined} answer */
  const revert = async (paths, answer) => {
    const conflicted = paths.filter((p) => indexOf(p) % 7 === 6);
    if (conflicted.length > 0 && !answer) {
      return { done: /** @type {const} */ (false), conflicts: conflicted.map((path) => ({ path, hunks: [{ header: "@@ -10,3 +10,3 @@", lines: [" line 9", "-line 10 (changed)", "+line 10, edited by the user", " line 11"], added: 1, removed: 1, authors: [] }] })) };
    }
    const kept = answer === "keep-mine" ? conflicted : [];
    return { done: /** @type {const} */ (true), actionId: `revert-${Date.now()}`, reverted: paths.filter((p) => !kept.includes(p)), kept, noCopy: [] };
  };
  return {
    fileDiff: async (/** @type {string} */ from, /** @type {string} */ to, /** @type {string} */ path) => {
      const history = histories.get(path);
      if (!history) throw new Error(`No change to ${path}`);
      return fileDiffOf(from, to, history);
    },
    revertTurn: async (/** @type {string} */ _from, /** @type {string} */ _to, /** @type {any} */ answer) => revert(set.files.map((f) => f.path), answer),
    revertFile: async (/** @type {string} */ _from, /** @type {string} */ _to, /** @type {string} */ path, /** @type {any} */ answer) => revert([path], answer),
    revertHunk: async (/** @type {string} */ _from, /** @type {string} */ _to, /** @type {string} */ path, /** @type {string} */ _header, /** @type {any} */ answer) => revert([path], answer),
  };
}

const OPTIONS = sinceOptions([
  { index: 0, text: "Set up the project and its tests" },
  { index: 6, text: "Rename every component and format the tree" },
]);

function ChangesBenchApp(/** @type {{ set: ChangeSet, histories: Map<string, FileHistory> }} */ { set, histories }) {
  const [since, setSince] = useState("chat");
  const shown = useMemo(() => {
    if (since === "chat") return set;
    const files = set.files.filter((_, i) => i % 2 === 0);
    return { ...set, since: OPTIONS.find((o) => o.key === since)?.since ?? set.since, files, totals: countChanges(files) };
  }, [set, since]);
  const commands = useMemo(() => fakeCommands(shown, histories), [shown, histories]);
  const onSinceChange = useCallback((/** @type {string} */ key) => setSince(key), []);
  return (
    <main style={{ height: "100vh", display: "flex", flexDirection: "column" }}>
      <p style={{ margin: "0.4rem 0.9rem" }}>
        A tool card's line: <ChangeStat counts={{ files: 3, added: 40, removed: 12 }} />
      </p>
      <div style={{ flex: 1, minHeight: 0 }}>
        <ChangesPanel changes={/** @type {any} */ (shown)} options={OPTIONS} since={since} onSinceChange={onSinceChange} commands={/** @type {any} */ (commands)} />
      </div>
    </main>
  );
}

/**
 * Sets up `window.__bench.openChanges()` on `root`; `marks` gets `openedAt` and `firstRowPaintAt` (the first frame
 * painted with a file row: the row exists, then one rAF, then a task after that frame).
 */
export function mountChangesBench(/** @type {HTMLElement} */ root, /** @type {Record<string, number | undefined>} */ marks, /** @type {number} */ count) {
  const { set, histories } = syntheticChanges(count);
  const json = JSON.stringify(set);
  const bench = /** @type {any} */ (window).__bench;
  bench.openChanges = () => {
    for (const key of Object.keys(marks)) delete marks[key];
    const observer = new MutationObserver(() => {
      if (!document.querySelector('[data-testid^="changed-file-"]')) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => (marks.firstRowPaintAt = performance.now()), 0));
    });
    observer.observe(document.body, { childList: true, subtree: true });
    marks.openedAt = performance.now();
    createRoot(root).render(<ChangesBenchApp set={JSON.parse(json)} histories={histories} />);
  };
}
