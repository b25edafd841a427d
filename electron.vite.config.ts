import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "electron-vite";
import type { Plugin } from "vite";
import { withMetaPolicy } from "./src/shared/security/content-security-policy";

/** The dev server's pages need Vite's HMR socket and inline preamble; the built page keeps the strict policy. */
const devContentSecurityPolicy: Plugin = {
  name: "paddock-dev-csp",
  apply: "serve",
  transformIndexHtml: (html) => withMetaPolicy(html, { devServer: true }),
};

/**
 * Three builds:
 * - main: Electron's main process (`index`), the agent worker (`agent-worker`), the MCP host (`mcp-host`) and main's
 *   checkpoint clean-up thread (`checkpoint-maintenance`), all
 *   ESM because pi-ai and electron-store are ESM-only. The worker and the host are output files of their own so the
 *   same file runs under Electron's utilityProcess and Node's child_process.fork (tests, `npm run dev:web`).
 * - preload: CommonJS, because a sandboxed preload cannot be an ES module.
 * - renderer: the React app.
 */
const root = dirname(fileURLToPath(import.meta.url));
/** pi-ai's model catalogue: each provider's JSON data, the modules that flatten it, and `providers/all` over them. */
const PI_AI_MODELS =
  /pi-ai[\\/]dist[\\/](models\.generated\.js|model-catalog\.js|providers[\\/](all\.js|[^\\/]+\.models\.js|data[\\/][^\\/]+\.json))$/;

export default defineConfig({
  main: {
    build: {
      outDir: "out/main",
      // Bundled rather than loaded from node_modules: resolving and loading pi-ai's and typebox's hundreds of ES
      // modules dominated worker start-up (measured: importing typebox alone took ~350 ms under Node 20). `ws` too:
      // imported from ES modules, its eight CommonJS files went through Node's CommonJS export lexer, which ran hot
      // enough in every worker's start for V8 to optimise it (compiler code and memory touched: the idle worker held
      // ~7 MB more; measured with the bench's worker group). Its optional native add-ons stay absent, as before.
      // `diff` and `picomatch` (the workspace tools', loaded when a chat opens its workspace): twenty files resolved
      // and read for every such chat, ~1 MB of its idle memory. `ignore` (the checkpoint store's .gitignore rules,
      // loaded as a chat with a workspace opens) likewise. Test: test/integration/worker-start-up.test.ts.
      externalizeDeps: { exclude: ["@earendil-works/pi-ai", "typebox", "comlink", "ws", "diff", "picomatch", "ignore"] },
      rollupOptions: {
        // pi-ai's provider SDKs stay external: each loads lazily, only when a model of that provider is used.
        external: [/^(openai|@anthropic-ai|@google|@mistralai|@aws-sdk|@smithy|undici|proxy-agent|chalk|zod-to-json-schema)(\/|$)/],
        input: {
          index: resolve(root, "src/main/electron/index.ts"),
          "agent-worker": resolve(root, "src/agent-worker/host/entry.ts"),
          // The MCP host process (src/mcp-host/): the official MCP SDK stays external, loaded from node_modules.
          "mcp-host": resolve(root, "src/mcp-host/entry.ts"),
          // The checkpoint store's clean-up, a worker thread of main (src/main/checkpoints/maintenance-thread.ts).
          "checkpoint-maintenance": resolve(root, "src/main/checkpoints/maintenance-thread.ts"),
        },
        // Loading the catalogue has no side effects a worker needs: what imports nothing from it does not load it.
        treeshake: { moduleSideEffects: (id: string) => !PI_AI_MODELS.test(id) },
        output: {
          // pi-ai's model catalogue (550 KB of literals, ~4 MB of memory) in a chunk of its own: main lists models,
          // a worker loads it only with its first provider (main resolves the worker's models; see model-resolver).
          codeSplitting: { groups: [{ name: "pi-ai-models", test: PI_AI_MODELS, includeDependenciesRecursively: false }] },
          // V8 keeps every loaded module's source in memory for the process's life, two bytes a character once a
          // single character needs it: escaped non-ASCII and no doc comments (licence comments stay) cut the idle
          // worker's strings by ~0.6 MB and its start-up parse; the sources in src/ keep their comments.
          charset: "ascii",
          comments: { legal: true, annotation: false, jsdoc: false },
        },
      },
    },
  },
  preload: {
    build: {
      outDir: "out/preload",
      rollupOptions: {
        input: { index: resolve(root, "src/preload/index.ts") },
        output: { format: "cjs", entryFileNames: "[name].cjs" },
      },
    },
  },
  renderer: {
    root: resolve(root, "src/renderer"),
    plugins: [react(), devContentSecurityPolicy],
    build: {
      outDir: "out/renderer",
      rollupOptions: { input: { index: resolve(root, "src/renderer/index.html") } },
    },
  },
});
