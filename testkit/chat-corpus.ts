/**
 * Generated chats for search tests and benchmarks: English-like text with a Zipf-shaped vocabulary (a few hundred
 * common words and thousands of rarer made-up ones, like real chats' names and jargon), deterministic for a seed.
 * Each chat alternates user questions (~25 words) and assistant replies (~110 words, some with a code block).
 */
import { toolCallLines, transcriptLine } from "./transcripts";

const COMMON = (
  "the be to of and a in that have it for not on with he as you do at this but his by from they we say her she or an " +
  "will my one all would there their what so up out if about who get which go me when make can like time no just him " +
  "know take people into year your good some could them see other than then now look only come its over think also " +
  "back after use two how our work first well way even new want because any these give day most us is are was were " +
  "file function error code test build run server data value list string number array object type class method call " +
  "return request response model message chat reply question answer problem issue change update install config option"
).split(" ");
const SYLLABLES = ["ka", "ri", "to", "me", "sa", "lo", "pen", "dar", "vu", "qui", "ster", "ion", "al", "ex", "or", "un", "bel", "gra", "fi", "no", "tz", "mor", "ash", "ek"];

export interface CorpusOptions {
  chats: number;
  messagesPerChat: number;
  seed?: number;
}

/** A deterministic generator of message texts; `rare(i)` is a word that occurs in few messages (to search for). */
export class ChatCorpus {
  private state: number;
  private readonly vocabulary: string[];

  constructor(seed = 1) {
    this.state = seed;
    const made = new Set<string>();
    while (made.size < 20_000) {
      let word = "";
      const parts = 2 + Math.floor(this.random() * 3);
      for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(this.random() * SYLLABLES.length)];
      made.add(word);
    }
    this.vocabulary = [...COMMON, ...made];
  }

  /** A word; common ones far more often (Zipf-like, exponent about one). */
  word(): string {
    const rank = Math.floor(Math.exp(this.random() * Math.log(this.vocabulary.length)));
    return this.vocabulary[Math.min(rank, this.vocabulary.length) - 1];
  }

  sentence(words: number): string {
    const out: string[] = [];
    for (let i = 0; i < words; i++) out.push(this.word());
    const text = out.join(" ");
    return `${text[0].toUpperCase()}${text.slice(1)}.`;
  }

  userText(): string {
    return `${this.sentence(12 + Math.floor(this.random() * 14))} ${this.sentence(4 + Math.floor(this.random() * 8))}`;
  }

  assistantText(): string {
    const parts = [this.sentence(20 + Math.floor(this.random() * 20)), this.sentence(15 + Math.floor(this.random() * 25))];
    if (this.random() < 0.2) parts.push(`\`\`\`js\nconst ${this.word()} = ${this.word()}(${Math.floor(this.random() * 100)});\n\`\`\``);
    parts.push(this.sentence(10 + Math.floor(this.random() * 30)));
    return parts.join("\n\n");
  }

  random(): number {
    this.state = (Math.imul(this.state, 1103515245) + 12345) & 0x7fffffff;
    return this.state / 0x80000000;
  }
}

/** One generated chat as transcript records (JSONL), message `i` of it carrying `marker(i)` when given. */
export function corpusTranscript(corpus: ChatCorpus, messages: number, marker?: (i: number) => string | undefined): string {
  const lines: string[] = [];
  for (let i = 0; i < messages; i++) {
    const extra = marker?.(i);
    const text = i % 2 === 0 ? corpus.userText() : corpus.assistantText();
    lines.push(transcriptLine(i, extra ? `${text} ${extra}` : text));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The output of a command as a coding agent sees it, about `bytes` long: npm's warnings, test runners' lines,
 * compiler errors with paths and positions, short commit ids, prose; words from the corpus.
 */
export function toolOutputText(corpus: ChatCorpus, bytes: number): string {
  const lines: string[] = [];
  const n = (max: number) => Math.floor(corpus.random() * max);
  let size = 0;
  while (size < bytes) {
    const r = corpus.random();
    const line =
      r < 0.25 ? `npm WARN deprecated ${corpus.word()}@${n(9)}.${n(20)}.${n(30)}: ${corpus.sentence(6)}`
      : r < 0.5 ? `  ✓ src/${corpus.word()}/${corpus.word()}.test.ts (${n(40)} tests) ${n(900)}ms`
      : r < 0.65 ? `src/${corpus.word()}/${corpus.word()}.ts:${n(400)}:${n(80)} - error TS${2300 + n(400)}: ${corpus.sentence(8)}`
      : r < 0.68 ? `${(0x1000000 + n(0xf000000)).toString(16)} ${corpus.sentence(5)}`
      : corpus.sentence(12);
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

/**
 * One generated chat of a coding agent at work (JSONL), `turns` times: a request, a reply running a command, the
 * command's output (about `outputBytes`, `marker(turn)` appended when given), and a reply about it: 4 messages a turn.
 */
export function toolOutputTranscript(corpus: ChatCorpus, turns: number, outputBytes: number, marker?: (turn: number) => string | undefined): string {
  const lines: string[] = [];
  for (let t = 0; t < turns; t++) {
    const i = t * 4;
    lines.push(transcriptLine(i, corpus.userText()));
    const extra = marker?.(t);
    const output = toolOutputText(corpus, outputBytes);
    lines.push(...toolCallLines(i + 1, `npm run ${corpus.word()}`, extra ? `${output}\n${extra}` : output, corpus.random() < 0.2));
    lines.push(transcriptLine(i + 3, corpus.assistantText()));
  }
  return `${lines.join("\n")}\n`;
}
