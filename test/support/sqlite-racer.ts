// One of the processes of test/stores/sqlite.test.ts's race: opens the store on the shared file, waits for the
// parent's "go", runs the keys two at a time, each effect 5-10 ms (in its given order: the other process goes the other way, so they
// meet) and sends back what the store answered for each.
import { sqliteStore } from '../../src/stores/sqlite.js';

const [path, keysJson, order] = process.argv.slice(2);
const keys = JSON.parse(keysJson!) as string[];
if (order === 'reversed') keys.reverse();
const store = sqliteStore({ path: path! });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

process.once('message', async () => {
  const statuses: [string, string][] = [];
  const next = keys.values();
  const lane = async () => {
    for (const key of next) statuses.push([key, (await store.runOnce(key, () => sleep(5 + Math.random() * 5))).status]);
  };
  await Promise.all([lane(), lane()]);
  store.close();
  process.send!(Object.fromEntries(statuses), () => process.exit(0));
});
process.send!('ready');
