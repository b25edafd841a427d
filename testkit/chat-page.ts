/**
 * A chat in Chromium on a running web host, for browser e2e tests: open it ready to type, send, wait for replies,
 * take screenshots, and hand the page files as a user would (the picker, a paste, a drop).
 */
import { join } from "node:path";
import { expect } from "vitest";
import type { Browser, Page } from "playwright-core";
import { REPO_ROOT, type WebHostProcess } from "./web-host-process";

export const SCREENS = join(REPO_ROOT, "test-results", "screens");

export interface ChatPage {
  page: Page;
  sessionId: string;
  /** Page errors and console errors seen so far. */
  problems: string[];
}

/** Polls with room for paced streams (vitest's default is 1 s). */
export const poll = <T>(fn: () => Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout });

/** A chat (new, or `sessionId`) in a new page, connected and ready to type. */
export async function openChat(browser: Browser, host: WebHostProcess, sessionId?: string): Promise<ChatPage> {
  const id = sessionId ?? (await host.call<{ id: string }>("createSession")).id;
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 }, colorScheme: "light" });
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  // The console says only "the server responded with a status of 400": name the call and what it answered.
  page.on("response", (r) => {
    if (r.status() < 400) return;
    const asked = r.request().postData()?.slice(0, 200) ?? "";
    void r.text().then(
      (answer) => problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname} ${asked} -> ${answer.slice(0, 200)}`),
      () => problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname} ${asked}`),
    );
  });
  await page.goto(host.pageUrl(id));
  await poll(() => page.getByTestId("composer").getAttribute("placeholder")).toBe("Message Paddock…");
  return { page, sessionId: id, problems };
}

export async function send(page: Page, text: string, keys = "Enter"): Promise<void> {
  const composer = page.getByTestId("composer");
  await composer.fill(text);
  await composer.press(keys);
}

/** Resolves once `n` assistant messages are complete (their footers show) and the run has ended. */
export async function replies(page: Page, n: number): Promise<void> {
  await poll(() => page.locator("[data-testid=message-assistant] .message-footer").count()).toBe(n);
  await page.getByTestId("send-button").waitFor({ timeout: 15_000 });
}

/**
 * Saves what the page shows as `<dir>/<name>.png`. A screenshot is evidence, not behaviour: on a loaded 2-core CI
 * machine Chromium once went 30 s without giving a capture its frame (fonts loaded, then nothing), so a capture that
 * takes over 10 s is tried once more after the page is brought to the front. A second failure fails the test.
 */
export async function shot(page: Page, name: string, dir = SCREENS): Promise<void> {
  const path = join(dir, `${name}.png`);
  try {
    await page.screenshot({ path, timeout: 10_000 });
  } catch (error) {
    if (!(error instanceof Error) || error.name !== "TimeoutError") throw error;
    await page.bringToFront();
    await page.screenshot({ path, timeout: 20_000 });
  }
}

export interface FileToGive {
  name: string;
  mimeType: string;
  bytes: Buffer;
}

/** The page's DOM constructors, typed here (this file compiles without the DOM library; the code runs in the page). */
interface PageDom {
  DataTransfer: new () => { items: { add(file: File): void } };
  ClipboardEvent: new (type: string, init: object) => Event;
  DragEvent: new (type: string, init: object) => Event;
}

type GivenFiles = { name: string; mimeType: string; data: string }[];
const given = (files: FileToGive[]): GivenFiles => files.map((f) => ({ name: f.name, mimeType: f.mimeType, data: f.bytes.toString("base64") }));

/** Pastes files into the composer as the clipboard would (a screenshot: files and no text). */
export async function pasteFiles(page: Page, files: FileToGive[]): Promise<void> {
  await page.getByTestId("composer").evaluate((el, list: GivenFiles) => {
    const dom = globalThis as unknown as PageDom;
    const data = new dom.DataTransfer();
    for (const f of list) data.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
    el.dispatchEvent(new dom.ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, given(files));
}

/** Drops files on the composer as a file manager would. */
export async function dropFiles(page: Page, files: FileToGive[]): Promise<void> {
  await page.locator(".composer-wrap").evaluate((el, list: GivenFiles) => {
    const dom = globalThis as unknown as PageDom;
    const data = new dom.DataTransfer();
    for (const f of list) data.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
    el.dispatchEvent(new dom.DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
    el.dispatchEvent(new dom.DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, given(files));
}

/** Picks files with the composer's paperclip (its file input). */
export async function pickFiles(page: Page, files: FileToGive[]): Promise<void> {
  await page.getByTestId("attach-input").setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.mimeType, buffer: f.bytes })));
}
