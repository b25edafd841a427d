#!/usr/bin/env node
/**
 * The Electron half of `npm run lint:security`: electronegativity (Doyensec's Electron security checks) over the
 * app's sources, for the Electron version package.json pins. Fails on every HIGH or MEDIUM finding that
 * scripts/electronegativity-accepted.json does not accept with a reason, on every file it could not parse (a file
 * it skipped is a file nobody checked), and on every accepted entry that no longer matches a finding (so the list
 * stays a list of things that exist). LOW and informational findings are printed, not judged, except Node
 * integration's, judged whatever their rating.
 *
 * Offline by design: electronegativity downloads its translations and Electron's release list at run time; here
 * both downloads fail at once without touching the network, so it reports in its bundled English and skips the
 * release-list check (which version we pin, and that it is supported, is package.json's business).
 *
 * Usage: node scripts/lint-security.mjs [--src DIR] [--accepted FILE]   (defaults: src, the accept list beside this)
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const JUDGED = new Set(["HIGH", "MEDIUM"]);
/**
 * Electronegativity rates Node in a page as merely informational when it sees no remote content loaded. Our page
 * renders model output and tool results: Node there would be the worst finding of all, whatever loads it.
 */
const ALWAYS_JUDGED = new Set(["NODE_INTEGRATION_JS_CHECK", "NODE_INTEGRATION_HTML_CHECK", "NODE_INTEGRATION_ATTACH_EVENT_JS_CHECK"]);
/** Needs Electron's release list from GitHub: not offline. */
const EXCLUDED_CHECKS = ["AvailableSecurityFixesGlobalCheck"];

/** The exact Electron version package.json pins (a range would leave the checks guessing). */
function electronVersion() {
  const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
  const pinned = pkg.devDependencies?.electron ?? pkg.dependencies?.electron;
  if (typeof pinned !== "string" || !/^\d+\.\d+\.\d+$/.test(pinned)) {
    throw new Error(`package.json must pin electron to an exact version (x.y.z); found ${JSON.stringify(pinned)}`);
  }
  return pinned;
}

/**
 * The accept list: `{ accepted: [{ check, file, reason }] }`. An entry accepts every finding of `check` in `file`
 * (relative to the folder that holds the scanned one, so `src/...`; "N/A" for the app-wide checks). Lines are not
 * part of the key: they move with every edit.
 */
function readAccepted(path) {
  let list;
  try {
    list = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read the accept list ${path}: ${error.message}`, { cause: error });
  }
  if (!Array.isArray(list?.accepted)) throw new Error(`${path}: expected { "accepted": [ ... ] }`);
  return list.accepted.map((entry, i) => {
    for (const key of ["check", "file", "reason"]) {
      if (typeof entry?.[key] !== "string" || entry[key].trim() === "") {
        throw new Error(`${path}: accepted[${i}] needs a non-empty "${key}" (every accepted finding says why)`);
      }
    }
    return entry;
  });
}

/** Loads electronegativity's runner with its one HTTP client answering "not found" for every request. */
function loadElectronegativity() {
  const require = createRequire(import.meta.url);
  const home = dirname(require.resolve("@doyensec/electronegativity/package.json"));
  const gotPath = createRequire(join(home, "dist", "runner.js")).resolve("got");
  require.cache[gotPath] = {
    id: gotPath,
    filename: gotPath,
    loaded: true,
    exports: async () => ({ statusCode: 404, body: undefined, headers: {} }),
  };
  // Its CLI does not start: it expects commander's old default export, and npm hoists a newer commander.
  return require(home);
}

async function scan(srcDir, version) {
  const run = loadElectronegativity();
  const root = dirname(srcDir);
  const result = await run({ input: srcDir, electronVersionOverride: version, excludeFromScan: EXCLUDED_CHECKS });
  const issues = result.issues.map((issue) => ({
    check: issue.id,
    file: issue.file === "N/A" ? "N/A" : relative(root, issue.file),
    line: issue.location?.line ?? 0,
    column: issue.location?.column ?? 0,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    manualReview: Boolean(issue.manualReview),
  }));
  const unparsed = result.errors.filter((e) => !e.tolerable).map((e) => ({ file: relative(root, e.file), message: e.message }));
  return { issues, unparsed, checks: result.globalChecks + result.atomicChecks };
}

async function main() {
  const { values } = parseArgs({
    options: {
      src: { type: "string", default: join(repoRoot, "src") },
      accepted: { type: "string", default: join(repoRoot, "scripts", "electronegativity-accepted.json") },
    },
  });
  const version = electronVersion();
  const accepted = readAccepted(values.accepted);
  const started = performance.now();
  const { issues, unparsed, checks } = await scan(resolve(values.src), version);
  const matched = new Set();
  const failures = [];
  console.log(`electronegativity: ${checks} checks, Electron ${version}, ${relative(repoRoot, resolve(values.src)) || "."}`);
  for (const issue of issues) {
    const entry = accepted.find((a) => a.check === issue.check && a.file === issue.file);
    if (entry) matched.add(entry);
    const judged = JUDGED.has(issue.severity) || ALWAYS_JUDGED.has(issue.check);
    const verdict = entry ? "accepted" : judged ? "NOT ACCEPTED" : "noted";
    const where = issue.file === "N/A" ? "(whole app)" : `${issue.file}:${issue.line}:${issue.column}`;
    const review = issue.manualReview ? "  (electronegativity asks for a manual review)" : "";
    console.log(`  ${verdict.padEnd(12)} ${issue.severity.padEnd(6)} ${issue.confidence.padEnd(9)} ${issue.check}  ${where}${review}`);
    if (entry) console.log(`               ${entry.reason}`);
    if (judged && !entry) failures.push(`${issue.check} (${issue.severity}) at ${where}`);
  }
  for (const { file, message } of unparsed) failures.push(`could not parse ${file} (so it was not checked): ${message}`);
  for (const entry of accepted) {
    if (!matched.has(entry)) failures.push(`accepted ${entry.check} in ${entry.file} no longer occurs: remove it from the accept list`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (failures.length === 0) {
    console.log(`electronegativity: no unexplained high or medium finding (${issues.length} findings, ${seconds} s)`);
    return 0;
  }
  console.error(`electronegativity: ${failures.length} problem(s):`);
  for (const failure of failures) console.error(`  - ${failure}`);
  console.error(
    "Fix the code, or, where the check cannot see why it is safe, add { check, file, reason } to " +
      relative(repoRoot, resolve(values.accepted)),
  );
  return 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`lint:security: ${error.message}`);
    process.exitCode = 2;
  },
);
