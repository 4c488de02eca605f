// `npm run campaign -- --seeds 20 --calls 1000`: the fault campaign of test/e2e/fault-campaign.slow.test.ts
// over many seeds. Prints one line per seed and the totals; exits 1 on any duplicate, lost or wrong order.
import { parseArgs } from 'node:util';
import { runCampaign, type CampaignReport } from '../test/support/campaign.js';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '20' }, calls: { type: 'string', default: '1000' }, first: { type: 'string', default: '1' } } });
const seeds = Number(values.seeds);
const calls = Number(values.calls);
const first = Number(values.first);

const reports: CampaignReport[] = [];
for (let seed = first; seed < first + seeds; seed++) {
  const r = await runCampaign({ seed, calls });
  reports.push(r);
  console.log(
    `seed ${seed}: ${r.calls} calls, ${r.resolved} resolved (${r.resolvedByReconciliation} by reconciliation), ${r.outcomeUnknown} outcome unknown ` +
      `(${r.outcomeUnknownButCreated} of them created), ${r.failedNothingCreated} failed with nothing created, duplicates ${r.duplicates}, lost ${r.lost}, wrong ${r.wrongResults}, other failures ${r.otherFailures.length}, ` +
      `${r.httpRequests} HTTP requests, ${r.ms} ms`,
  );
}
const sum = (pick: (r: CampaignReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
console.log(
  `\ntotal: ${sum((r) => r.calls)} calls over ${seeds} seeds; resolved ${sum((r) => r.resolved)} (by reconciliation ${sum((r) => r.resolvedByReconciliation)}); ` +
    `outcome unknown ${sum((r) => r.outcomeUnknown)}; failed with nothing created ${sum((r) => r.failedNothingCreated)}; duplicates ${sum((r) => r.duplicates)}; lost ${sum((r) => r.lost)}; wrong ${sum((r) => r.wrongResults)}; ` +
    `other failures ${sum((r) => r.otherFailures.length)}`,
);
if (sum((r) => r.duplicates + r.lost + r.wrongResults + r.otherFailures.length) > 0) process.exitCode = 1;
