/**
 * The agent worker's entry. Turns on V8's compile cache in the folder main named (compile-cache.ts; never Node's
 * shared default) where the runtime has it, before loading the worker, so every worker after the first skips parsing
 * and compiling its code. Static imports would load first, hence the dynamic import. Before it, the system's
 * certificates are trusted (system-certificates.ts), so every provider request does.
 */
import { trustSystemCertificates } from "../../shared-node/process/system-certificates";
import { enableCompileCache } from "../../shared-node/process/compile-cache";

enableCompileCache(process.env);
trustSystemCertificates({ sayUnsupported: false }); // main has said it once if the runtime cannot
await import("./worker-main");
