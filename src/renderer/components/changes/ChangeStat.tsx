import { memo } from "react";
import type { ChangeCounts } from "../../../shared/changes/summary";
import { changeSummary } from "../../../shared/changes/summary";
import "../../styles/changes.css";

/**
 * What a tool call (or a turn) changed, in a line for its card: "3 files changed, +40 −12", the counts coloured as a
 * diff colours them. Read out in words ("3 files changed, 40 lines added, 12 removed").
 */
export const ChangeStat = memo(function ChangeStat({ counts }: { counts: ChangeCounts }) {
  if (counts.files === 0) return <span className="change-stat" data-testid="change-stat">{changeSummary(counts)}</span>;
  const label = `${counts.files} ${counts.files === 1 ? "file" : "files"} changed, ${counts.added} ${counts.added === 1 ? "line" : "lines"} added, ${counts.removed} removed`;
  return (
    <span className="change-stat" data-testid="change-stat" role="img" aria-label={label}>
      {counts.files} {counts.files === 1 ? "file" : "files"} changed, <span className="change-added">+{counts.added}</span>{" "}
      <span className="change-removed">{"\u2212"}{counts.removed}</span>
    </span>
  );
});
