// The import graph of src/ (issue 17): no circle, no import pointing up a layer, checked by dependency-cruiser
// with the rules in .dependency-cruiser.mjs.
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import config from '../.dependency-cruiser.mjs';

describe('architecture: the import graph of src/', () => {
  it('has no import circle and no import that points up a layer', async () => {
    const { output } = await cruise(['src'], { validate: true, ruleSet: { forbidden: config.forbidden }, ...config.options });
    const { summary, modules } = output as ICruiseResult;
    const violations = summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`);
    expect(violations).toEqual([]);
    expect(modules.filter((m) => m.source.startsWith('src/')).length).toBeGreaterThan(60); // the whole of src/ was read
  }, 60_000);
});
