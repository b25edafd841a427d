/**
 * The MCP host process's entry (built as out/main/mcp-host.js). Like the agent worker's: V8's compile cache in the
 * folder main named (never Node's shared default), then the host itself, loaded dynamically so the cache is on before
 * anything compiles. Before it, the system's certificates are trusted (system-certificates.ts).
 */
import { trustSystemCertificates } from "../shared-node/process/system-certificates";
import { enableCompileCache } from "../shared-node/process/compile-cache";

enableCompileCache(process.env);
trustSystemCertificates({ sayUnsupported: false }); // main has said it once if the runtime cannot
await import("./host-main");
