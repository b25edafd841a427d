/**
 * The pi-ai APIs a Paddock worker streams (agent-worker/agent/stream-simple.ts loads each one's module on first use):
 * what a model from pi's `models.json` may name as its `api`. Pure data.
 */
export const STREAM_APIS = [
  "anthropic-messages",
  "azure-openai-responses",
  "bedrock-converse-stream",
  "google-generative-ai",
  "google-vertex",
  "mistral-conversations",
  "openai-codex-responses",
  "openai-completions",
  "openai-responses",
] as const;
