import type { WorktreeRecord } from "../../../shared/protocol/worktrees";
import { WorktreeActions } from "./WorktreeActions";
import "../../styles/worktrees.css";

/**
 * Under a worktree chat's header: "Worktree: paddock/<branch> of <repository>", and what can be done with it. The
 * agent's tools and sandbox are confined to the worktree (its workspace), never the repository itself.
 */
export function WorktreeStrip({ sessionId, worktree }: { sessionId: string; worktree: Pick<WorktreeRecord, "branch" | "repositoryRoot"> }) {
  return (
    <div className="worktree-strip" data-testid="worktree-strip">
      <span className="worktree-label" title={`The agent works in a git worktree of ${worktree.repositoryRoot}, on its own branch: the repository's files change only when applied.`}>
        Worktree: <strong>{worktree.branch}</strong> of <code>{baseName(worktree.repositoryRoot)}</code>
      </span>
      <WorktreeActions sessionId={sessionId} branch={worktree.branch} />
    </div>
  );
}

function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}
