import { useCallback, useEffect, useRef, useState } from "react";
import type { PromptTemplateInfo, SkillsOverview } from "../../../shared/protocol/skills";
import type { McpPromptInfo } from "../../../shared/protocol/mcp-host-protocol";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";

export interface PromptTemplates {
  templates: readonly PromptTemplateInfo[];
  /** The prompts of the MCP servers running now (main's `mcpPrompts`), asked for again as the menu opens. */
  mcpPrompts: readonly McpPromptInfo[];
  /** The chat's workspace has templates or skills the user has not agreed to use (main's count). */
  pending?: NonNullable<SkillsOverview["projectPending"]>;
  /** Why they could not be loaded, in words. */
  problem?: string;
  /** Asks main again (the `/` menu opens: a template edited since counts as it is now). */
  refresh(): void;
  /** The user agrees to the workspace's templates and skills as they are now; then they are offered. */
  agree(): Promise<void>;
}

/** The prompt templates a chat's `/` menu offers (main's `listSkills`), loaded with the chat and when its workspace changes. */
export function usePromptTemplates(sessionId: string | undefined, workspace: string | undefined): PromptTemplates {
  const { app } = useServices();
  const [overview, setOverview] = useState<SkillsOverview | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const [mcpPrompts, setMcpPrompts] = useState<readonly McpPromptInfo[]>([]);
  const asked = useRef(0);

  const refresh = useCallback(() => {
    const ask = ++asked.current;
    app.listSkills(sessionId ?? null).then(
      (found) => {
        if (ask !== asked.current) return; // a later ask (another chat) overtook this one
        setOverview(found);
        setProblem(undefined);
      },
      (error: unknown) => {
        if (ask === asked.current) setProblem(errorText(error));
      },
    );
    // A server that cannot list its prompts just offers none: templates still show.
    app.mcpPrompts().then(
      (prompts) => ask === asked.current && setMcpPrompts(prompts),
      () => ask === asked.current && setMcpPrompts([]),
    );
  }, [app, sessionId]);

  useEffect(refresh, [refresh, workspace]);

  const agree = useCallback(async () => {
    if (!sessionId) return;
    await app.confirmProjectSkills(sessionId);
    refresh();
  }, [app, sessionId, refresh]);

  return { templates: overview?.templates ?? [], mcpPrompts, ...(overview?.projectPending ? { pending: overview.projectPending } : {}), ...(problem ? { problem } : {}), refresh, agree };
}
