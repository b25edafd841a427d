/**
 * The agent worker's entry. Turns on V8's compile cache in the folder main named (compile-cache.ts; never Node's
 * shared default) where the runtime has it, before loading the worker, so every worker after the first skips parsing
 * and compiling its code. Static imports would load first, hence the dynamic import.
 */
import { enableCompileCache } from "../../shared-node/process/compile-cache";

enableCompileCache(process.env);
await import("./worker-main");
