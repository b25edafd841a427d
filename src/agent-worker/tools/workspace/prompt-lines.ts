/**
 * What pi's system prompt says about each tool: a one-line snippet for the tool list and guidelines for the rules
 * section. For whoever builds the system prompt, so a session reads as a pi session does.
 */
export const WORKSPACE_TOOL_PROMPTS: Record<string, { snippet: string; guidelines: string[] }> = {
  read: { snippet: "Read file contents", guidelines: ["Use read to examine files instead of cat or sed."] },
  bash: { snippet: "Execute bash commands (ls, grep, find, etc.)", guidelines: [] },
  edit: {
    snippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
    guidelines: [
      "Use edit for targeted changes. Batch changes to one file in a single call.",
      "Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions.",
    ],
  },
  write: { snippet: "Create or overwrite files", guidelines: ["Use write only for new files or complete rewrites."] },
  grep: { snippet: "Search file contents for patterns (respects .gitignore)", guidelines: [] },
  find: { snippet: "Find files by glob pattern (respects .gitignore)", guidelines: [] },
  ls: { snippet: "List directory contents", guidelines: [] },
};
