/**
 * The agent worker's entry. Turns on V8's compile cache where the runtime has it (Node >= 22.1, so Electron's
 * utility processes) before loading the worker, so every worker after the first skips parsing and compiling its
 * code; under older Node this is a no-op. Static imports would load first, hence the dynamic import.
 */
import * as nodeModule from "node:module";

(nodeModule as unknown as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import("./worker-main");
