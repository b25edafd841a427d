/**
 * Which MCP servers a chat uses: its options' `mcpServers` (ChatOptions; undefined: every enabled server, those added
 * later too; []: none). The one rule for a server's tools (the worker's SessionMcp), its prompts (the composer's `/`
 * menu) and its resources (the `@` menu), so a server switched off for a chat offers none of them there.
 */

/** Whether a chat whose choice is `chosen` uses `serverId`'s tools, prompts and resources. */
export function chatUsesServer(chosen: readonly string[] | undefined, serverId: string): boolean {
  return chosen === undefined || chosen.includes(serverId);
}

/** The items (tools, prompts, resources) of the servers a chat with choice `chosen` uses, in their order. */
export function ofChatServers<T extends { serverId: string }>(items: readonly T[], chosen: readonly string[] | undefined): T[] {
  return chosen === undefined ? [...items] : items.filter((item) => chosen.includes(item.serverId));
}
