/**
 * A loopback HTTP server that speaks the OpenAI chat-completions STREAMING protocol, scripted turn by turn.
 * Tests, `npm run dev:web` and the benchmarks point the app's custom OpenAI-compatible provider at it.
 *
 * Bounded by design: it listens on loopback only, answers requests, and runs no loops of its own; every timer it
 * starts belongs to a response in flight and stops when that response's socket closes or `close()` is called.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { errorText } from "../shared/error-text";

export interface ScriptedTurn {
  text?: string;
  reasoning?: string;
  toolCalls?: { id?: string; name: string; arguments: unknown /* object or raw string */ }[];
  /** Characters per SSE chunk for text, reasoning and tool-call arguments (default 8). */
  chunkChars?: number;
  /** Pacing, counting 4 characters as a token; undefined = as fast as the socket takes it. */
  tokensPerSecond?: number;
  /** Reported in the usage chunk; default: estimated at 4 characters per token. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Answer with a plain HTTP error response instead of a stream (401, 429, 500...). */
  error?: { status: number; message: string; retryAfterSeconds?: number };
  /** Destroy the socket after N content chunks (a lost connection). */
  dropAfterChunks?: number;
  /** Stop sending after N content chunks but keep the socket open (for timeouts and abort). */
  hangAfterChunks?: number;
  /** Take the request but never answer, not even with headers (a provider that does not respond). */
  hangBeforeHeaders?: boolean;
  /** Overrides the final chunk's finish_reason (default "tool_calls" when there are tool calls, else "stop"). */
  finishReason?: "stop" | "tool_calls" | "length" | "content_filter";
}

export interface RecordedRequest {
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/** When a text chunk of a reply left for the socket: what latency benchmarks measure from. */
export interface ChunkWrite {
  /** Characters of the reply's text written once this chunk is out (its end offset). */
  endOffset: number;
  /** performance.now() just after the chunk was handed to the socket. */
  writtenAt: number;
}

export interface OpenAITestServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  /** Every chat-completions request, in arrival order. */
  requests: RecordedRequest[];
  /** Every model-list request (`/v1/models`, `/api/tags`, `/v1beta/models`), in arrival order; `body` is the path. */
  listRequests: RecordedRequest[];
  /** The text chunks of the latest streamed reply, in order; emptied when the next reply starts. */
  writes: ChunkWrite[];
  /** Queue turns served in order; when the queue is empty, `fallback` answers (default: `defaultFallback`). */
  enqueue(...turns: ScriptedTurn[]): void;
  setFallback(fn: (body: any) => ScriptedTurn): void;
  /** Stops listening and destroys open connections, including hanging streams. */
  close(): Promise<void>;
}

export interface OpenAIServerOptions {
  port?: number;
  /** Must be a loopback address; anything else is refused. Default 127.0.0.1. */
  host?: string;
  /** Model ids listed by `GET /v1/models` and Ollama's `GET /api/tags` (any id is accepted by chat completions). */
  models?: string[];
  /**
   * Which model lists it serves (default all): OpenAI's `GET /v1/models`, Ollama's `GET /api/tags`, Anthropic's
   * (`GET /v1/models` asked with an `anthropic-version` header) and Google's `GET /v1beta/models`. An Ollama that
   * predates the OpenAI-compatible list has only "ollama".
   */
  modelLists?: ("openai" | "ollama" | "anthropic" | "google")[];
  /** What a model list answers: the list (default), text that is not JSON, or JSON that is no list. */
  modelListAnswer?: "list" | "bad-json" | "not-a-list";
  /**
   * When set, every request must carry the key (`Authorization: Bearer <apiKey>`; on Anthropic's list `x-api-key`;
   * on Google's `x-goog-api-key` or `?key=`); others get a 401, as from a gateway.
   */
  apiKey?: string;
}

/** Prefix of the directive a user message can carry to script the reply: `[[turn: {"text":"hi"}]]`. */
export const TURN_DIRECTIVE = "[[turn:";

const MAX_BODY_BYTES = 64 * 1024 * 1024;
const CHARS_PER_TOKEN = 4;

/**
 * The default answer when nothing is queued:
 * - last message is a tool result: a short plain text answer (so a directive that asked for tool calls does not
 *   loop: the request after the tool round ends the run);
 * - last user text contains `[[turn: {json}]]`: that JSON is the turn;
 * - otherwise: echo the last user text.
 * Throws on a malformed directive; the server turns that into a 400 response naming the problem.
 */
export function defaultFallback(body: any): ScriptedTurn {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const last = messages[messages.length - 1];
  if (last?.role === "tool") {
    let results = 0;
    for (let i = messages.length - 1; i >= 0 && messages[i]?.role === "tool"; i--) results++;
    return { text: `Received ${results} tool result${results === 1 ? "" : "s"}.` };
  }
  const lastUser = [...messages].reverse().find((m) => m?.role === "user");
  const text = lastUser ? messageText(lastUser) : "";
  const directive = parseTurnDirective(text);
  return directive ?? { text: text || "(empty)" };
}

/** The ScriptedTurn in a `[[turn: {json}]]` directive, or undefined when the text has none. Throws when malformed. */
/** A directive for a prompt: the test model answers that prompt as `turn` says (see parseTurnDirective). */
export function turnDirective(turn: ScriptedTurn): string {
  return `${TURN_DIRECTIVE} ${JSON.stringify(turn)}]]`;
}

export function parseTurnDirective(text: string): ScriptedTurn | undefined {
  const start = text.indexOf(TURN_DIRECTIVE);
  if (start === -1) return undefined;
  const jsonStart = start + TURN_DIRECTIVE.length;
  // The JSON may itself contain "]]", so try each closing "]]" until the slice parses.
  for (let end = text.indexOf("]]", jsonStart); end !== -1; end = text.indexOf("]]", end + 1)) {
    try {
      const turn: unknown = JSON.parse(text.slice(jsonStart, end));
      if (turn && typeof turn === "object" && !Array.isArray(turn)) return turn as ScriptedTurn;
    } catch {
      // not the closing bracket yet
    }
  }
  throw new Error(`malformed ${TURN_DIRECTIVE} ...]] directive: expected a JSON object before "]]"`);
}

function messageText(message: any): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) {
    return message.content
      .filter((part: any) => part?.type === "text" && typeof part.text === "string")
      .map((part: any) => part.text)
      .join("\n");
  }
  return "";
}

/** Whether a request carries `key` the way its API sends one (see OpenAIServerOptions.apiKey). */
function carriesKey(req: IncomingMessage, list: string | undefined, query: URLSearchParams, key: string): boolean {
  if (list === "anthropic") return req.headers["x-api-key"] === key;
  if (list === "google") return req.headers["x-goog-api-key"] === key || query.get("key") === key;
  return req.headers.authorization === `Bearer ${key}`;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startOpenAIServer(options: OpenAIServerOptions = {}): Promise<OpenAITestServer> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host)) throw new Error(`openai test server listens on loopback only, not ${host}`);
  const models = options.models ?? ["paddock-test"];
  const queue: ScriptedTurn[] = [];
  const requests: RecordedRequest[] = [];
  const listRequests: RecordedRequest[] = [];
  const writes: ChunkWrite[] = [];
  const sockets = new Set<Socket>();
  let fallback: (body: any) => ScriptedTurn = defaultFallback;
  let completionCount = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `test server failure: ${String(error)}`);
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path, search = ""] = (req.url ?? "").split("?");
    const lists = options.modelLists ?? ["openai", "ollama", "anthropic", "google"];
    const anthropic = req.headers["anthropic-version"] !== undefined;
    const list = req.method !== "GET" ? undefined
      : path === "/v1/models" && anthropic && lists.includes("anthropic") ? "anthropic"
      : path === "/v1/models" && !anthropic && lists.includes("openai") ? "openai"
      : path === "/api/tags" && lists.includes("ollama") ? "ollama"
      : path === "/v1beta/models" && lists.includes("google") ? "google"
      : undefined;
    if (list) listRequests.push({ body: path, headers: { ...req.headers } });
    if (options.apiKey !== undefined && !carriesKey(req, list, new URLSearchParams(search), options.apiKey)) {
      return sendError(res, 401, "Incorrect API key provided");
    }
    if (list && options.modelListAnswer === "bad-json") {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end("<html>not a model list</html>");
    }
    if (list && options.modelListAnswer === "not-a-list") return sendJson(res, 200, { object: "list", data: "none", models: 3 });
    if (list === "openai") {
      const data = models.map((id) => ({ id, object: "model", created: 0, owned_by: "paddock-test" }));
      return sendJson(res, 200, { object: "list", data });
    }
    if (list === "anthropic") {
      const data = models.map((id) => ({ type: "model", id, display_name: id, created_at: "2026-01-01T00:00:00Z" }));
      return sendJson(res, 200, { data, has_more: false, first_id: models[0] ?? null, last_id: models[models.length - 1] ?? null });
    }
    if (list === "google") {
      const chat = models.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ["generateContent", "countTokens"] }));
      // Google lists embedding models too; a client offers only those that generate content.
      const embedding = { name: "models/text-embedding-004", displayName: "Text Embedding 004", supportedGenerationMethods: ["embedContent"] };
      return sendJson(res, 200, { models: [...chat, embedding] });
    }
    if (list === "ollama") {
      // Ollama's own list, for probes of servers that have no OpenAI-compatible one.
      return sendJson(res, 200, { models: models.map((name) => ({ name, model: name, size: 0, details: {} })) });
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      return sendError(res, 404, `no route for ${req.method} ${path}`);
    }
    const raw = await readBody(req);
    if (raw === undefined) return sendError(res, 413, `request body over ${MAX_BODY_BYTES} bytes`);
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendError(res, 400, "request body is not JSON");
    }
    requests.push({ body, headers: { ...req.headers } });
    if (body?.stream !== true) return sendError(res, 400, "this server only speaks stream: true");

    let turn: ScriptedTurn;
    try {
      turn = queue.shift() ?? fallback(body);
    } catch (error) {
      return sendError(res, 400, errorText(error));
    }
    if (turn.hangBeforeHeaders) {
      // Held until the client gives up (its abort closes the socket) or close() destroys it.
      return new Promise<void>((resolve) => res.once("close", () => resolve()));
    }
    if (turn.error) {
      const headers: Record<string, string> = {};
      if (turn.error.retryAfterSeconds !== undefined) headers["retry-after"] = String(turn.error.retryAfterSeconds);
      return sendError(res, turn.error.status, turn.error.message, headers);
    }
    await streamTurn(res, body, turn, `chatcmpl-${++completionCount}`);
  }

  async function streamTurn(res: ServerResponse, body: any, turn: ScriptedTurn, id: string): Promise<void> {
    const model = typeof body.model === "string" ? body.model : models[0];
    const created = Math.floor(Date.now() / 1000);
    const envelope = { id, object: "chat.completion.chunk", created, model };
    const chunk = (delta: object, finish: string | null) => ({ ...envelope, choices: [{ index: 0, delta, finish_reason: finish }] });
    const content = contentDeltas(turn, completionCount);
    if (content.length > 0) content[0].delta = { role: "assistant", ...content[0].delta };

    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    const untilGone = new Promise<void>((resolve) => gone.signal.addEventListener("abort", () => resolve()));
    const stopAt = (n: number | undefined) => (n === undefined ? -1 : Math.min(Math.max(0, n), content.length));
    const dropAt = stopAt(turn.dropAfterChunks);
    const hangAt = stopAt(turn.hangAfterChunks);

    writes.length = 0;
    let textWritten = 0;
    const startedAt = performance.now();
    let tokensSent = 0;
    let flushed: Promise<void> = Promise.resolve();
    for (let i = 0; i <= content.length; i++) {
      if (i === dropAt) {
        // Destroy only once the chunks reached the kernel, so the client sees them and then a reset.
        await flushed;
        res.socket?.destroy();
        return;
      }
      if (i === hangAt) return untilGone; // the client's abort or close() ends it
      if (i === content.length) break;
      if (turn.tokensPerSecond) {
        const wait = startedAt + (tokensSent / turn.tokensPerSecond) * 1000 - performance.now();
        if (wait > 0) await sleep(wait, undefined, { signal: gone.signal }).catch(() => undefined);
      }
      if (gone.signal.aborted) return;
      const written = new Promise<void>((resolve) => res.write(sse(chunk(content[i].delta, null)), () => resolve()));
      flushed = written;
      if (content[i].text) writes.push({ endOffset: (textWritten += content[i].chars), writtenAt: performance.now() });
      if (res.writableNeedDrain) await Promise.race([written, untilGone]);
      tokensSent += content[i].chars / CHARS_PER_TOKEN;
    }
    if (gone.signal.aborted) return;

    const finish = turn.finishReason ?? (turn.toolCalls?.length ? "tool_calls" : "stop");
    res.write(sse(chunk(content.length === 0 ? { role: "assistant" } : {}, finish)));
    if (body.stream_options?.include_usage) {
      const outputChars = content.reduce((sum, c) => sum + c.chars, 0);
      const usage = turn.usage ?? {
        prompt_tokens: Math.ceil(JSON.stringify(body.messages ?? []).length / CHARS_PER_TOKEN),
        completion_tokens: Math.ceil(outputChars / CHARS_PER_TOKEN),
      };
      const total_tokens = usage.prompt_tokens + usage.completion_tokens;
      res.write(sse({ ...envelope, choices: [], usage: { ...usage, total_tokens } }));
    }
    res.end("data: [DONE]\n\n");
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    baseUrl: `http://${urlHost}:${address.port}/v1`,
    requests,
    listRequests,
    writes,
    enqueue: (...turns) => void queue.push(...turns),
    setFallback: (fn) => void (fallback = fn),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

interface ContentDelta {
  delta: Record<string, unknown>;
  /** Characters of text, reasoning or arguments this chunk carries (for pacing and usage estimates). */
  chars: number;
  /** Whether the chunk carries reply text (not reasoning or a tool call). */
  text?: boolean;
}

/** Every content-bearing chunk of a turn, in the order a real server sends them: reasoning, text, tool calls. */
function contentDeltas(turn: ScriptedTurn, completion: number): ContentDelta[] {
  const size = Math.max(1, Math.floor(turn.chunkChars ?? 8));
  const out: ContentDelta[] = [];
  for (const piece of split(turn.reasoning ?? "", size)) out.push({ delta: { reasoning_content: piece }, chars: piece.length });
  for (const piece of split(turn.text ?? "", size)) out.push({ delta: { content: piece }, chars: piece.length, text: true });
  (turn.toolCalls ?? []).forEach((call, index) => {
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {});
    const head = { index, id: call.id ?? `call_${completion}_${index}`, type: "function", function: { name: call.name, arguments: "" } };
    out.push({ delta: { tool_calls: [head] }, chars: 0 });
    for (const piece of split(args, size)) {
      out.push({ delta: { tool_calls: [{ index, function: { arguments: piece } }] }, chars: piece.length });
    }
  });
  return out;
}

/** Splits by code points so a chunk never ends inside a surrogate pair. */
function split(text: string, size: number): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(""));
  return pieces;
}

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function sendJson(res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(data));
}

/** OpenAI's error shape, which the openai SDK turns into "<status> <message>". */
function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const type = status === 401 ? "authentication_error" : status === 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "invalid_request_error";
  sendJson(res, status, { error: { message, type, code: null, param: null } }, headers);
}

/** The body as text, or undefined when it exceeds MAX_BODY_BYTES (the rest is drained, not buffered). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (part: Buffer) => {
      size += part.length;
      if (size <= MAX_BODY_BYTES) parts.push(part);
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

