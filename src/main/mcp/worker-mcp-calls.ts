/**
 * One agent worker's MCP calls, as main relays them (the broker makes one per worker). A worker runs tools, so what
 * it asks is checked, not trusted: the call must be for an enabled server (a ready one's tool on offer; a server
 * that is restarting or failed is asked anyway, so the caller hears why from it), with an object of arguments, under
 * an id of its own; progress goes back to that worker only; when the worker is gone its calls are cancelled, so a server
 * does not work on for nobody.
 */
import type { WorkerMcpCall } from "../../shared/protocol/control-protocol";
import type { McpCallOutcome, McpCallProgress, McpToolDescriptor } from "../../shared/protocol/mcp-host-protocol";
import type { McpServerStatus } from "../../shared/protocol/mcp-status";
import type { McpToolCall } from "./mcp-supervisor";

/** What the relay needs of the supervisor. */
export interface McpGateway {
  status(): McpServerStatus[];
  currentTools(): McpToolDescriptor[];
  call(call: McpToolCall, options: { signal?: AbortSignal; onProgress?: (progress: Omit<McpCallProgress, "callId">) => void }): Promise<McpCallOutcome>;
}

/** Calls one worker may have in flight at once. */
const MAX_CALLS = 64;

export class WorkerMcpCalls {
  private readonly calls = new Map<string, AbortController>();

  constructor(
    private readonly gateway: McpGateway,
    /** Sends progress to the worker; must not throw. */
    private readonly progressTo: (progress: McpCallProgress) => void,
  ) {}

  async call(request: WorkerMcpCall): Promise<McpCallOutcome> {
    const problem = callProblem(request);
    if (problem) throw new Error(`mcpCall: ${problem}`);
    const server = this.gateway.status().find((s) => s.id === request.serverId && s.state !== "disabled");
    const offered = this.gateway.currentTools().some((t) => t.serverId === request.serverId && t.name === request.tool);
    if (!server || (server.state === "ready" && !offered)) {
      throw new Error(`The MCP tool "${request.tool}" of server "${request.serverId}" is not available (the server is disabled or removed, or no longer has the tool).`);
    }
    if (this.calls.has(request.callId)) throw new Error("mcpCall: a call with this id is already running");
    if (this.calls.size >= MAX_CALLS) throw new Error(`mcpCall: at most ${MAX_CALLS} MCP calls at once`);
    const controller = new AbortController();
    this.calls.set(request.callId, controller);
    try {
      return await this.gateway.call(
        { serverId: request.serverId, tool: request.tool, arguments: request.arguments },
        { signal: controller.signal, onProgress: (progress) => this.progressTo({ ...progress, callId: request.callId }) },
      );
    } finally {
      this.calls.delete(request.callId);
    }
  }

  cancel(callId: string): void {
    this.calls.get(callId)?.abort();
  }

  /** The worker is gone: nothing it asked for should go on. */
  cancelAll(): void {
    for (const controller of this.calls.values()) controller.abort();
  }
}

function callProblem(request: WorkerMcpCall): string | undefined {
  if (typeof request !== "object" || request === null) return "expected a call";
  if (typeof request.callId !== "string" || request.callId.length === 0 || request.callId.length > 200) return "invalid call id";
  if (typeof request.serverId !== "string" || typeof request.tool !== "string") return "invalid server or tool";
  const args = request.arguments;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return "arguments must be an object";
  return undefined;
}
