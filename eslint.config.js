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

/** An import whose path passes through one of these src folders (relative paths climb out to them by name). */
function srcFolders(folders, message) {
  return { regex: `(^|/)(${folders.join("|")})(/|$)`, message };
}

/**
 * The options of the one import rule a folder gets. Flat config replaces a rule's options rather than merging them,
 * so each folder's entry repeats the Electron boundary.
 */
function restrictImports({ electronAllowed = false, patterns = [], paths = [] } = {}) {
  return [
    "error",
    {
      paths: electronAllowed ? paths : [electron, ...paths],
      patterns: electronAllowed ? patterns : [electronSubpaths, ...patterns],
    },
  ];
}

const nodeBuiltinsBanned = (where) => ({
  paths: nodeBuiltins.map((name) => ({ name, message: `${where} has no Node: no Node built-ins.` })),
  patterns: [{ regex: "^node:", message: `${where} has no Node: no Node built-ins.` }],
});

/** Files that run in a browser page rather than under Node. */
const pageFiles = ["src/renderer/**", "test/e2e/fixtures/**/*.{js,jsx}", "testkit/fake-app.js", "bench/renderer-page/**"];

const rendererBoundary = nodeBuiltinsBanned("The renderer runs in a sandboxed page; it");
const sharedBoundary = nodeBuiltinsBanned("src/shared runs everywhere, including the page; it");

export default defineConfig(
  {
    ignores: ["out/", "dist/", "node_modules/", "test-results/", "bench/results/", ".paddock-dev/"],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports(),
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

  // Where Electron may be loaded: its adapters, the preload bridge and the suite that drives the real app.
  {
    files: ["src/main/electron/**", "src/preload/**", "test/electron/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports({ electronAllowed: true }),
    },
  },

  // The page: browser globals, React's hook rules, and nothing from main, the workers, the web host or Node.
  {
    files: pageFiles,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["src/renderer/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports({
        paths: rendererBoundary.paths,
        patterns: [
          ...rendererBoundary.patterns,
          srcFolders(
            ["main", "agent-worker", "web-host"],
            "The renderer reaches main, the workers and the web host only through the bridge (src/shared's contracts).",
          ),
        ],
      }),
    },
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

  // Shared code runs in every process, so it depends on no other src folder (and on no Node built-in).
  {
    files: ["src/shared/**"],
    languageOptions: { globals: { ...globals["shared-node-browser"] } },
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports({
        paths: sharedBoundary.paths,
        patterns: [
          ...sharedBoundary.patterns,
          srcFolders(
            ["main", "agent-worker", "web-host", "preload", "renderer"],
            "src/shared depends on no other src folder: the others depend on it.",
          ),
        ],
      }),
    },
  },
);
