// Docs a merchant can navigate: the README links every guide, the site lists the guides in reading order,
// the flow diagram is the rendering of its Graphviz source and is shown in the README and the site, and every
// install line names the repository package.json names.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const guides = readdirSync(new URL('../../docs/guides/', import.meta.url)).filter((name) => name.endsWith('.md')).sort();
const typedoc = JSON.parse(read('typedoc.json')) as { projectDocuments: string[]; readme: string };
const manifest = JSON.parse(read('package.json')) as { repository: { url: string } };

/** What Graphviz prints of a label: its lines, with the escapes undone as dot does and the text entities as SVG writes them. */
function labelLines(dot: string): string[] {
  return [...dot.matchAll(/label="((?:[^"\\]|\\.)*)"/g)].flatMap(([, label]) => label!.split(/\\[nlr]/).map((line) => line.replaceAll('\\"', '"').trim()).filter((line) => line !== ''));
}
const svgTexts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map(([, text]) => text!.replaceAll('&#45;', '-').replaceAll('&#160;', ' ').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', "'").trim());

describe('the guides', () => {
  it.each(guides)('the README links docs/guides/%s', (guide) => {
    expect(readme).toContain(`](docs/guides/${guide})`);
  });

  it('the site lists every guide once, opening on getting started, then notifications in production, testing, errors, signing, migrating', () => {
    expect([...typedoc.projectDocuments].sort()).toEqual(guides.map((guide) => `docs/guides/${guide}`));
    expect(typedoc.projectDocuments.slice(0, 6)).toEqual(
      ['getting-started', 'notifications-in-production', 'testing', 'errors-and-retries', 'signing', 'migrating-from-jeepay-sdk'].map((name) => `docs/guides/${name}.md`),
    );
    expect(typedoc.readme).toBe('README.md');
    // The README's numbered list reads in the same order.
    const numbered = [...readme.matchAll(/^\d+\. \[[^\]]+\]\(docs\/guides\/([\w-]+\.md)\)/gm)].map(([, file]) => `docs/guides/${file}`);
    expect(numbered).toEqual(typedoc.projectDocuments.slice(0, 6));
  });
});

describe('the flow diagram', () => {
  const dot = read('docs/images/flow.dot');
  const svg = read('docs/images/flow.svg');

  it('is the rendering of its Graphviz source: every label of the source is in the SVG, and no other text', () => {
    const labels = labelLines(dot);
    expect(labels).toEqual(expect.arrayContaining(['client.unifiedOrder(params)', 'processor.handle(body)', 'onPaid(notification, { db })', 'client.settleRequest']));
    expect([...svgTexts(svg)].sort()).toEqual([...labels].sort());
    expect(svg).toMatch(/^<\?xml[\s\S]*<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).not.toMatch(/<script|\bon\w+=|xlink:href="http/i);
  });

  it('is shown in the README (the site\'s first page) and the getting-started guide', () => {
    expect(readme).toMatch(/!\[A payment: [^\]]+\]\(docs\/images\/flow\.svg\)/);
    expect(read('docs/guides/getting-started.md')).toContain('](../images/flow.svg)');
  });
});

describe('installing', () => {
  it('the README and the getting-started guide install from the repository package.json names', () => {
    expect(readme).toContain(`npm install ${manifest.repository.url}`);
    expect(read('docs/guides/getting-started.md')).toContain(`npm install ${manifest.repository.url}`);
    expect(readme.indexOf('## Install')).toBeLessThan(readme.indexOf('## Quick start'));
    // The first lines say how to install today.
    expect(readme.split('\n').slice(0, 10).join('\n')).toContain(`\`npm install ${manifest.repository.url}\``);
  });
});
