/**
 * The MCP host process's entry (built as out/main/mcp-host.js). Like the agent worker's: V8's compile cache where
 * the runtime has it, then the host itself, loaded dynamically so the cache is on before anything compiles.
 */
import * as nodeModule from "node:module";

(nodeModule as unknown as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import("./host-main");
