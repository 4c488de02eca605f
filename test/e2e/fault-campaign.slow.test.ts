import { describe, expect, it } from 'vitest';
import { runCampaign } from '../support/campaign.js';

// A fixed seed in CI; `npm run campaign -- --seeds N` sweeps more.
describe('fault campaign: 1,000 creates through random faults on real loopback HTTP', () => {
  it('loses no order, duplicates none; every call resolves to the record, says "unknown" with its key, or fails having created nothing', { timeout: 180_000 }, async () => {
    const report = await runCampaign({ seed: 20261121, calls: 1000 });
    console.log(JSON.stringify(report));
    expect(report.otherFailures).toEqual([]);
    expect(report.duplicates).toBe(0);
    expect(report.lost).toBe(0);
    expect(report.wrongResults).toBe(0);
    expect(report.resolved + report.outcomeUnknown + report.failedNothingCreated).toBe(1000);
    // The campaign must really exercise the faults and the reconciliation.
    expect(Object.values(report.faults).reduce((a, b) => a + b, 0) - (report.faults.none ?? 0)).toBeGreaterThan(300);
    expect(report.resolvedByReconciliation).toBeGreaterThan(50);
  });
});
