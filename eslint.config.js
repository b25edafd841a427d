// The project's lint (`npm run lint`): correctness rules for every file, plus the import boundaries that keep each
// process's code loadable where it runs (docs/architecture.md, "Folders and processes"). No formatting rules: the
// code's layout is its authors', and TypeScript (`npm run typecheck`) checks the types. No type-aware rules either:
// on two cores they took the run from ~6-11 s to ~50 s, and what they found here was `any` plumbing, not bugs.
import { builtinModules } from "node:module";
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const nodeBuiltins = [...new Set(builtinModules.map((name) => name.replace(/^node:/, "")))];

/** `electron` at run time. Type-only imports are erased, so Electron-free code may still name Electron's types. */
const electron = {
  name: "electron",
  allowTypeImports: true,
  message: "Only src/main/electron, src/preload and test/electron may load Electron: Node tests load everything else.",
};
const electronSubpaths = {
  regex: "^electron/",
  allowTypeImports: true,
  message: electron.message,
};

/**
 * The walls, VS Code style: which folder (a process's code, or code several processes share) may import which. Every
 * folder not listed under `imports` is walled off, and a nested folder is a folder of its own (src/main may not
 * import src/main/electron, which may import src/main). Type-only imports cross no wall either: one home for each
 * fact is the point, not only what each bundle carries. `noNode` marks code that may load no Node built-in (it runs in
 * the page) and says why; `electron: true` marks where Electron may be loaded at run time. `why` ends each wall's message. A folder
 * outside the table (the repository's root files) gets only the Electron rule.
 */
const walls = {
  "src/shared": { imports: [], noNode: "src/shared runs everywhere, including the page; it has no Node", why: "src/shared runs everywhere, including the page: the others depend on it, it on none of them." },
  "src/shared-node": { imports: ["src/shared"], why: "src/shared-node is Node code every Node process may load, so it loads none of theirs." },
  "src/agent-worker": { imports: ["src/shared", "src/shared-node"], why: "A worker is a process of its own: it shares code only through src/shared and src/shared-node." },
  "src/mcp-host": { imports: ["src/shared", "src/shared-node"], why: "The MCP host is a process of its own: it shares code only through src/shared and src/shared-node." },
  "src/main": { imports: ["src/shared", "src/shared-node"], why: "main is Electron-free and no worker: it reaches workers over their channels, and sees Electron only through src/main/electron." },
  "src/main/electron": { imports: ["src/main", "src/shared", "src/shared-node"], electron: true, why: "The Electron adapters wrap main's core; the other processes are reached over their channels." },
  "src/web-host": { imports: ["src/main", "src/shared", "src/shared-node"], why: "The web host runs main's Electron-free core under Node; the other processes are reached over their channels." },
  "src/preload": { imports: ["src/shared"], electron: true, why: "The preload bridge carries src/shared's contracts between the page and main, nothing else." },
  "src/renderer": { imports: ["src/shared"], noNode: "The renderer runs in a sandboxed page; it has no Node", why: "The renderer reaches main, the workers and the web host only through the bridge (src/shared's contracts)." },
  // What tests and benchmarks share may load any of the app's code, and is loaded by them, never the other way.
  testkit: { imports: ["src/*", "scripts"], why: "testkit is what tests and benchmarks share: it loads no test or benchmark." },
  bench: { imports: ["src/*", "testkit", "scripts"], why: "A benchmark loads the app and testkit, no test." },
  // Tests may load anything; Electron only in the suite that drives the real app.
  test: { imports: ["*"], why: "" },
  "test/electron": { imports: ["*"], electron: true, why: "" },
  scripts: { imports: ["src/*", "testkit"], why: "The project's scripts load the app and testkit, no test or benchmark." },
};

/**
 * Crossings: a module one file may import across a wall, allowed in that file only and for that module only, while
 * the module waits for a home both sides may import. Issue 23 §1 gave the last ones theirs (session files and process
 * plumbing in src/shared-node), so none is allowed now; a new one fails the lint unless it is named here.
 */
export const crossings = [];

/** The table's folders, each a wall to every folder whose row does not name it. */
const allFolders = Object.keys(walls);

/** Whether `folder` is one that `allowed` (a folder, `dir/*` for every folder under dir, or `*`) names. */
function names(allowed, folder) {
  if (allowed === "*") return true;
  if (allowed.endsWith("/*")) return folder.startsWith(allowed.slice(0, -1));
  return allowed === folder;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A regex for relative imports that land in `target` from a file in `from`. Imports are matched as written, so a
 * path that climbs out (`../`) and names the target folder crosses into it; one that stays below its own folder and
 * names a nested target (`./electron/...` in src/main) does too. The modules `allowed` (paths inside `target`) are let
 * through, for named crossings.
 */
function landsIn(from, target, allowed) {
  const rest = allowed.length === 0 ? "(/|$)" : `(/(?!(${allowed.map(escape).join("|")})$)|$)`;
  const byName = target.startsWith("src/") ? target.slice("src/".length) : target;
  const climbs = [`(\\.\\./)+${escape(byName)}`];
  if (target.startsWith(`${from}/`)) climbs.push(`(\\./|(\\.\\./)+)${escape(target.slice(from.length + 1))}`);
  return `^(${climbs.join("|")})${rest}`;
}

/** Whether a folder's walls keep it from importing `target`. */
const walledOff = (from, target) => target !== from && !walls[from].imports.some((allowed) => names(allowed, target));

/**
 * `no-restricted-imports` patterns for a folder's walls, one per folder it may not import, naming the wall; the
 * modules in `crossings` are let through.
 */
function wallPatterns(from, crossings = []) {
  const { imports, why } = walls[from];
  return (
    allFolders
      .filter((target) => walledOff(from, target))
      // A folder is never walled off by a folder it sits in (test/electron's imports of test/...), and a folder nested
      // in one already walled off needs no wall of its own.
      .filter((target) => !from.startsWith(`${target}/`))
      .filter((target) => !allFolders.some((outer) => target.startsWith(`${outer}/`) && walledOff(from, outer)))
      .map((target) => {
        const allowed = crossings.filter((c) => c.imports.startsWith(`${target}/`)).map((c) => c.imports.slice(target.length + 1));
        const may = imports.length ? imports.join(", ") : "no other folder";
        return {
          regex: landsIn(from, target, allowed),
          message: `The wall ${from} → ${target}: ${from} may import ${may}. ${why} (the walls table in eslint.config.js)`,
        };
      })
  );
}

/** The folders nested inside `folder` that have rows of their own. */
const nestedIn = (folder) => allFolders.filter((other) => other.startsWith(`${folder}/`));

/**
 * The import rules' options for a file in `folder` (undefined: outside the table). Flat config replaces a rule's
 * options rather than merging them, so each folder's entry repeats the Electron boundary and, where it applies, the
 * Node one.
 */
function restrictImports(folder, crossings = []) {
  const { electron: electronAllowed = false, noNode } = walls[folder] ?? {};
  const paths = [];
  const patterns = folder === undefined ? [] : wallPatterns(folder, crossings);
  if (noNode) {
    const message = `${noNode}: no Node built-ins.`;
    paths.push(...nodeBuiltins.map((name) => ({ name, message })));
    patterns.push({ regex: "^node:", message });
  }
  return [
    "error",
    {
      paths: electronAllowed ? paths : [electron, ...paths],
      patterns: electronAllowed ? patterns : [electronSubpaths, ...patterns],
    },
  ];
}

/**
 * `no-restricted-imports` reads static imports and re-exports only. This rule holds `import("...")` with a literal
 * path to the same options (a load at run time crosses a wall as surely, type-only exemptions aside).
 */
const wallsPlugin = {
  rules: {
    "dynamic-imports": {
      meta: { type: "problem", schema: false, messages: { restricted: "'{{source}}' import is restricted. {{message}}" } },
      create(context) {
        const { paths = [], patterns = [] } = context.options[0] ?? {};
        const regexes = patterns.map(({ regex, message }) => ({ regex: new RegExp(regex, "iu"), message }));
        return {
          ImportExpression(node) {
            const { source } = node;
            const path =
              source.type === "Literal" && typeof source.value === "string" ? source.value
              : source.type === "TemplateLiteral" && source.expressions.length === 0 ? source.quasis[0].value.cooked
              : undefined;
            if (path === undefined) return;
            const hit = paths.find(({ name }) => name === path) ?? regexes.find(({ regex }) => regex.test(path));
            if (hit) context.report({ node: source, messageId: "restricted", data: { source: path, message: hit.message } });
          },
        };
      },
    },
  },
};

/** A file's import rules: the static imports' and, with the same options, the dynamic imports'. */
function importRules(folder, crossings = []) {
  const options = restrictImports(folder, crossings);
  return { "@typescript-eslint/no-restricted-imports": options, "walls/dynamic-imports": options };
}

/** Files that run in a browser page rather than under Node. */
const pageFiles = ["src/renderer/**", "test/e2e/fixtures/**/*.{js,jsx}", "testkit/fake-app.js", "bench/renderer-page/**"];

/** The table's row for a file: its innermost folder with a row. */
const folderOf = (file) => allFolders.filter((folder) => file.startsWith(`${folder}/`)).sort((x, y) => y.length - x.length)[0];

/** One config entry per row of the walls table, then one per file with named crossings (its folder's walls, less those). */
const wallEntries = [
  ...allFolders.map((folder) => ({
    files: [`${folder}/**`],
    ignores: nestedIn(folder).map((nested) => `${nested}/**`),
    rules: importRules(folder),
  })),
  ...[...new Set(crossings.map((crossing) => crossing.file))].map((file) => ({
    files: [file],
    rules: importRules(
      folderOf(file),
      crossings.filter((crossing) => crossing.file === file),
    ),
  })),
];

export default defineConfig(
  {
    ignores: ["out/", "dist/", "node_modules/", "test-results/", "bench/results/", ".paddock-dev/"],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { walls: wallsPlugin },
    rules: {
      ...importRules(undefined),
      // The Agent keeps pi's public types (`Model<any>`, `AgentTool<any>`: any API, any tool), and tests and the
      // loopback server read untyped JSON; `unknown` is the habit elsewhere, and `npm run typecheck` is strict.
      "@typescript-eslint/no-explicit-any": "off",
      // A leading underscore marks a parameter or binding kept for its position or its shape, not its value.
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      // `let x!: T` declared first, read in closures wired up before `x = new T(...)` exists: objects that refer to
      // each other.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    ignores: [...pageFiles, "src/shared/**"],
    languageOptions: { globals: { ...globals.node } },
  },

  // The walls (the table above): Electron only in its adapters, the preload bridge and the suite that drives the
  // real app; no Node in the page or in src/shared; each folder's imports of the others.
  ...wallEntries,

  // The page: browser globals and React's hook rules.
  {
    files: pageFiles,
    languageOptions: { globals: { ...globals.browser } },
  },
  // The rules of hooks, not the React Compiler's rules that `recommended` adds (refs, purity, set-state-in-effect...):
  // we do not compile with it, and they reject deliberate patterns, such as render-time caches in refs (Markdown's
  // incremental blocks), latest-callback refs and effects that reset drafts when their props change.
  {
    files: ["src/renderer/**/*.{ts,tsx}", "test/e2e/fixtures/**/*.{js,jsx}", "testkit/fake-app.js", "bench/renderer-page/**/*.{js,jsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["**/*.jsx"],
    languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
  },

  // TypeBox's Type.Record checks only the keys that match its key pattern and lets every other key through: a record
  // of attachment ids once took "<hash>/../../.bashrc". KeyedRecord refuses keys that do not match.
  {
    files: ["src/**"],
    ignores: ["src/shared/keyed-record.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='Type'][callee.property.name='Record']",
          message: "Type.Record lets keys that miss its pattern through unchecked: use KeyedRecord (src/shared/keyed-record.ts).",
        },
      ],
    },
  },

  // Link checks tell ASCII from other text, and name that range from \x00.
  {
    files: ["src/shared/security/**"],
    rules: { "no-control-regex": "off" },
  },

  // Shared code runs in every process, the page too.
  {
    files: ["src/shared/**"],
    languageOptions: { globals: { ...globals["shared-node-browser"] } },
  },
);
