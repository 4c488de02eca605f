// The control routes are declared once (src/testing/http/control-routes.ts); the guides must list exactly
// them. The usage text is generated from the declaration (test/cli/mock.slow.test.ts checks it).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONTROL_ROUTES } from '../../src/testing/http/control-routes.js';
import { createMockGateway } from '../../src/testing/index.js';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const guide = read('docs/guides/mock-command.md');

/** The rows of the guide's control API table, as the declaration gives them. */
const declaredRows = CONTROL_ROUTES.map((r) => `| \`${r.method} ${r.path}\` | ${r.body ? `\`${r.body}\` ` : ''}| \`${r.calls}\` | ${r.does} |`);

/** Does `method path` (a concrete path or one with `{id}` segments) name a declared route? */
function declared(method: string, path: string): boolean {
  const segments = path.split('/');
  return CONTROL_ROUTES.some((r) => {
    const pattern = r.path.split('/');
    return r.method === method && pattern.length === segments.length && pattern.every((part, i) => part.startsWith('{') || part === segments[i]);
  });
}

describe('docs/guides/mock-command.md, the control API', () => {
  it('its table is the declaration, route by route', () => {
    const start = guide.indexOf('| route | body | JavaScript | what it does |');
    expect(start).toBeGreaterThan(-1);
    const rows = guide.slice(start).split('\n').slice(2).filter((line, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('|')));
    expect(rows).toEqual(declaredRows);
  });

  it.each(['docs/guides/mock-command.md', 'docs/guides/testing.md', 'README.md'])('%s names no route that does not exist', (file) => {
    const text = read(file);
    const named = [
      ...[...text.matchAll(/\b(GET|POST|DELETE) (\/_mock\/[^\s`,)]*)/g)].map(([, method, path]) => [method!, path!] as const),
      ...[...text.matchAll(/curl -s(?: -X (POST|DELETE))? \$?[\w:/.]*?(\/_mock\/[^\s`'"]*)/g)].map(([, method, path]) => [method ?? 'GET', path!] as const),
    ];
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter(([method, path]) => !declared(method, path))).toEqual([]);
  });

  it('GET /_mock/state: its table lists every member the state has, and no other', () => {
    const start = guide.indexOf('| member | what it holds |');
    expect(start).toBeGreaterThan(-1);
    const rows = guide.slice(start).split('\n').slice(2).filter((line, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('|')));
    const state = createMockGateway({ merchants: [{ mchNo: 'M1', appId: 'A1', secret: 's' }] }).state();
    expect(rows.map((row) => /^\| `(\w+)`/.exec(row)?.[1])).toEqual(Object.keys(state));
  });

  it('the check above fails on a route that does not exist', () => {
    expect(declared('POST', '/_mock/orders/P1/refund')).toBe(false);
    expect(declared('POST', '/_mock/orders/P1/pay')).toBe(true);
    expect(declared('GET', '/_mock/faults')).toBe(false);
  });
});
