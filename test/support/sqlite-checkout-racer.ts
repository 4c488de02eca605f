// One of the processes of test/stores/sqlite.test.ts's check-out race: opens the store on the shared file, waits
// for the parent's "go", checks out due tracked orders a small page at a time until none is left (10 ms between
// pages, as a sweep queries the gateway between them: long enough that a process started late on a loaded machine
// still finds orders left), and sends back the ids it was handed.
import { sqliteStore } from '../../src/stores/sqlite.js';

const [path, dueBy, checkedAt] = process.argv.slice(2);
const store = sqliteStore({ path: path! });

process.once('message', async () => {
  const taken: string[] = [];
  for (let page = await store.tracking!.checkOut(Number(dueBy), Number(checkedAt), 7); page.length > 0; page = await store.tracking!.checkOut(Number(dueBy), Number(checkedAt), 7)) {
    taken.push(...page.map((order) => order.payOrderId));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  store.close();
  process.send!(taken, () => process.exit(0));
});
process.send!('ready');
