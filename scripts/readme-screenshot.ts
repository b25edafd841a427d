/**
 * Regenerates docs/screenshot.png: the real app in the browser host, chatting with a scripted loopback model
 * (a tool call, then a markdown answer with code). Run after `npm run build`:
 *   node --import tsx scripts/readme-screenshot.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium } from "../testkit/launch-chromium";
import { startOpenAIServer } from "../src/web-host/openai-test-server";
import { REPO_ROOT, startWebHostProcess } from "../testkit/web-host-process";

const answer = [
  "## 1234 × 5678",
  "",
  "The calculator says **7,006,652**. In TypeScript, with an overflow check:",
  "",
  "```ts",
  "export function multiply(a: number, b: number): number {",
  "  const product = a * b;",
  "  if (!Number.isSafeInteger(product)) throw new RangeError(`${a} * ${b} overflows`);",
  "  return product;",
  "}",
  "```",
  "",
  "- exact for results below 2^53",
  "- use `bigint` beyond that",
].join("\n");

const server = await startOpenAIServer();
server.enqueue({ toolCalls: [{ id: "calc", name: "calculate", arguments: { expression: "1234 * 5678" } }] }, { text: answer, chunkChars: 12, tokensPerSecond: 400 });
const dataDir = mkdtempSync(join(tmpdir(), "paddock-shot-"));
const host = await startWebHostProcess(["--data-dir", dataDir, "--loopback-url", server.baseUrl]);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(host.url);
  const composer = page.getByTestId("composer");
  await composer.waitFor();
  await composer.fill("What is 1234 × 5678? Show me how to do it safely in TypeScript.");
  await composer.press("Enter");
  await page.locator(".hljs-keyword").first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(REPO_ROOT, "docs", "screenshot.png") });
  console.log("wrote docs/screenshot.png");
} finally {
  await browser.close();
  await host.stop();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
