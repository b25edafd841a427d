/**
 * A session's MCP tools: of the tools main offers (every enabled, ready server's), those of the servers the chat uses
 * (its options' `mcpServers`; absent: all), and for a subagent only those its definition lists (by name, or
 * `<server>__*`). Calls go through main; progress main relays comes back here by call id.
 *
 * Approval: an MCP tool asks, unless Settings name it, or the server is trusted and says the tool is read-only
 * (`readOnlyHint`). The hint is the server's claim; only the user's trust makes it count.
 */
import type { AgentTool } from "../../../shared/agent/types";
import type { MainControlApi } from "../../../shared/protocol/control-protocol";
import type { McpCallProgress, McpToolDescriptor } from "../../../shared/protocol/mcp-host-protocol";
import { listsMcpTool } from "../../../shared/mcp/agent-tool-names";
import { chatUsesServer } from "../../../shared/mcp/chat-servers";
import type { ToolPolicy } from "../../../shared/settings/schema";
import { mcpTool, type McpCaller } from "../../tools/mcp/mcp-tool";
import { formatArguments } from "../approvals/call-summary";

export interface SessionMcpOptions {
  main: Pick<MainControlApi, "mcpTools" | "mcpCall" | "mcpCancel">;
  /** The chat's choice of servers (ChatOptions.mcpServers); undefined: every enabled one. */
  chosenServers(): readonly string[] | undefined;
  /** A subagent's definition's `tools`; undefined for a chat of the user's. */
  subagentTools?: readonly string[];
  /** The set of tools changed: the session updates the Agent's tools and prompt. Must not throw. */
  changed(): void;
}

export class SessionMcp {
  private offered: McpToolDescriptor[] = [];
  /** An agent tool for each offered one, built once per offer (building compiles its schema). */
  private built: { descriptor: McpToolDescriptor; tool: AgentTool<any> }[] = [];
  private tools: AgentTool<any>[] = [];
  private readonly progress = new Map<string, (progress: Omit<McpCallProgress, "callId">) => void>();
  private nextCall = 0;

  constructor(private readonly options: SessionMcpOptions) {}

  /** Asks main for the tools on offer (at start; later changes are pushed). Never rejects: without main, none. */
  async load(): Promise<void> {
    const tools = await this.options.main.mcpTools().catch(() => undefined);
    if (tools) this.offer(tools);
  }

  /** Main's list of the tools on offer (all of them; this session keeps its own). */
  offer(tools: McpToolDescriptor[]): void {
    if (!Array.isArray(tools)) return;
    this.offered = tools;
    this.built = tools.map((descriptor) => ({ descriptor, tool: mcpTool(descriptor, this.call) }));
    this.rebuild();
  }

  /** The chat's choice of servers changed. */
  rebuild(): void {
    const chosen = this.options.chosenServers();
    const listed = this.options.subagentTools;
    const before = this.tools.map((t) => t.name).join("\n");
    this.tools = this.built
      .filter(({ descriptor: t }) => chatUsesServer(chosen, t.serverId) && (listed === undefined || listsMcpTool(listed, t)))
      .map(({ tool }) => tool);
    // Schemas or descriptions may change under the same names: rebuilding is cheap, telling the Agent is too.
    if (before !== "" || this.tools.length > 0) this.options.changed();
  }

  agentTools(): AgentTool<any>[] {
    return this.tools;
  }

  /**
   * The gate's word on an MCP tool by its agent name (any server's on offer, so a subagent's call is judged in its
   * parent's chat even when the parent does not use that server); undefined for a name that is not one.
   */
  policy(toolName: string, settings: Readonly<Record<string, ToolPolicy>>): ToolPolicy | undefined {
    const tool = this.offered.find((t) => t.agentName === toolName);
    if (!tool) return undefined;
    return settings[toolName] ?? (tool.trusted && tool.readOnly ? "allow" : "ask");
  }

  /**
   * Whether an MCP tool (by its agent name) says it only reads (`readOnlyHint`, from a server the user trusts): its
   * calls are not checkpointed. Undefined for a name that is not an MCP tool.
   */
  readOnly(toolName: string): boolean | undefined {
    const tool = this.offered.find((t) => t.agentName === toolName);
    return tool ? tool.trusted && tool.readOnly : undefined;
  }

  /**
   * What an approval question says about a call: the server, the tool and every argument (the server gets them all,
   * so none may hide behind a long one; see call-summary.ts).
   */
  describe(toolName: string, args: unknown): { summary: string } | undefined {
    const tool = this.offered.find((t) => t.agentName === toolName);
    if (!tool) return undefined;
    return { summary: `${tool.serverName}: ${tool.name} ${formatArguments(args)}`.trimEnd() };
  }

  /** Progress main relays for one of this session's calls. */
  onProgress(progress: McpCallProgress): void {
    const { callId, ...rest } = progress ?? {};
    if (typeof callId === "string") this.progress.get(callId)?.(rest);
  }

  private readonly call: McpCaller = async (tool, args, signal, onProgress) => {
    const callId = `m${++this.nextCall}`;
    this.progress.set(callId, onProgress);
    const cancel = () => void this.options.main.mcpCancel(callId).catch(() => undefined);
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      return await this.options.main.mcpCall({ callId, serverId: tool.serverId, tool: tool.name, arguments: args });
    } finally {
      signal?.removeEventListener("abort", cancel);
      this.progress.delete(callId);
    }
  };
}

/** The most tools one request may carry: OpenAI refuses more than 128 (other providers take as many or more). */
export const MAX_TOOLS_PER_REQUEST = 128;

/**
 * The chat's own tools, then as many MCP tools as fit in one request (in the servers' order); `leftOut` says how many
 * did not. Never drops one of the chat's own tools.
 */
export function withMcpTools<T>(own: readonly T[], mcp: readonly T[]): { tools: T[]; leftOut: number } {
  const room = Math.max(0, MAX_TOOLS_PER_REQUEST - own.length);
  return { tools: [...own, ...mcp.slice(0, room)], leftOut: Math.max(0, mcp.length - room) };
}

export function mcpToolsLeftOutText(leftOut: number): string {
  return `${leftOut} MCP tool${leftOut === 1 ? " was" : "s were"} left out: models take at most ${MAX_TOOLS_PER_REQUEST} tools a request. Choose fewer servers in this chat's settings.`;
}
