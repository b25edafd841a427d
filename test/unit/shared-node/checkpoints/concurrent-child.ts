/**
 * A second process for checkpoint-store.test.ts: snapshots the workspace it is given, as its own session, `rounds`
 * times, writing files of its own between snapshots, then prints its checkpoint ids as JSON.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openCheckpointStore } from "../../../../src/shared-node/checkpoints/checkpoint-store";

const [dataFolder, workspace, session, rounds] = process.argv.slice(2);
const store = openCheckpointStore(dataFolder, workspace, session, { saveStateDelayMs: 0 });
const ids: string[] = [await store.baseline()];
for (let i = 0; i < Number(rounds); i++) {
  writeFileSync(join(workspace, `${session}-${i}.txt`), `${session} round ${i}\n`.repeat(50));
  writeFileSync(join(workspace, "shared.txt"), `written by ${session} in round ${i}\n`);
  ids.push(await store.snapshot(i % 2 === 0 ? {} : { paths: [`${session}-${i}.txt`, "shared.txt"] }));
}
await store.close();
process.stdout.write(JSON.stringify(ids));
