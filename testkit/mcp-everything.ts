/**
 * `@modelcontextprotocol/server-everything`, the MCP reference server, as tests and the bench use it: a server
 * config for stdio (Paddock starts it), and a Streamable HTTP instance on a free loopback port (the test starts it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import type { ResolvedMcpServerConfig } from "../src/shared/mcp/server-config";
import { closedPort } from "./closed-port";

export const EVERYTHING_BIN = resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** The everything server over stdio, as main would hand it to the MCP host. */
export function everythingStdio(overrides: Partial<ResolvedMcpServerConfig> = {}): ResolvedMcpServerConfig {
  return {
    id: "everything",
    name: "Everything",
    enabled: true,
    trusted: false,
    transport: { type: "stdio", command: process.execPath, args: [EVERYTHING_BIN, "stdio"], env: {} },
    missingSecrets: [],
    ...overrides,
  };
}

/** A config for the server at `url` over Streamable HTTP. */
export function everythingHttp(url: string, overrides: Partial<ResolvedMcpServerConfig> = {}): ResolvedMcpServerConfig {
  return { id: "everything-http", name: "Everything (HTTP)", enabled: true, trusted: false, transport: { type: "http", url, headers: {} }, missingSecrets: [], ...overrides };
}

export interface EverythingHttpServer {
  /** http://127.0.0.1:PORT/mcp */
  url: string;
  port: number;
  process: ChildProcess;
  /** Ends the server (SIGKILL) and waits for it to be gone. */
  kill(): Promise<void>;
}

/** Starts the everything server's Streamable HTTP transport; `port` reuses one (to bring a killed server back). */
export async function startEverythingHttp(port?: number): Promise<EverythingHttpServer> {
  const chosen = port ?? (await closedPort());
  const child = spawn(process.execPath, [EVERYTHING_BIN, "streamableHttp"], { env: { ...process.env, PORT: String(chosen) }, stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  await new Promise<void>((ready, fail) => {
    let seen = "";
    const timer = setTimeout(() => fail(new Error(`the everything server did not start: ${seen}`)), 15_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port/i.test(seen)) {
        clearTimeout(timer);
        ready();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`the everything server exited (${code}): ${seen}`));
    });
  });
  return {
    url: `http://127.0.0.1:${chosen}/mcp`,
    port: chosen,
    process: child,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
