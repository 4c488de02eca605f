// The docs site as readers get it: `npm run docs` builds it with no warning, and Chromium crawls it from its
// first page over a loopback server: every internal link (page and #anchor) and image resolves, no page has
// a script error, and the navigation opens on the guides in reading order. Nothing leaves 127.0.0.1.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npm, repoRoot, scratchDir } from '../../scripts/lib/shipped-package.mjs';
import { listenOnLoopback, type Running } from '../support/loopback-server.js';

const SITE = join(repoRoot, 'docs', 'api');
const TYPES: Readonly<Record<string, string>> = { '.ts': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8', '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

let build: string;
let server: Running;
let origin: string;
let browser: BrowserContext;
let profile: { dir: string; dispose(): Promise<void> };

interface Crawl {
  pages: string[];
  broken: string[];
  errors: string[];
  navigation: string[];
  /** The images of the first page. */
  images: string[];
}
let crawl: Crawl;

beforeAll(async () => {
  const { stdout, stderr } = await npm(['run', 'docs'], { timeoutMs: 600_000 });
  build = stdout + stderr;
  server = await listenOnLoopback(
    createServer(async (request, response) => {
      const path = normalize(join(SITE, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
      if (!path.startsWith(SITE + sep) && path !== SITE) return void response.writeHead(403).end();
      try {
        const file = path.endsWith(sep) || path === SITE ? join(path, 'index.html') : path;
        const body = await readFile(file);
        response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
      } catch {
        response.writeHead(404).end('not found');
      }
    }),
    '/',
  );
  origin = new URL(server.url).origin;
  profile = await scratchDir('docs-chromium');
  browser = await chromium.launchPersistentContext(profile.dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // Nothing but the loopback server: a link or asset elsewhere is not fetched (and shows as broken below).
  await browser.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
  crawl = await crawlSite(browser, `${origin}/index.html`);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await profile?.dispose();
});

/**
 * What a reader types into the site's search box, and the guide (its page under documents/) that must be among
 * the first results. Add a row when a guide is added.
 */
const SEARCHES: readonly (readonly [query: string, guide: string])[] = [
  ['webhook', 'Notifications_in_production.html'],
  ['idempotent', 'Notifications_in_production.html'],
  ['exactly once', 'Notifications_in_production.html'],
  ['refund', 'Refunds.html'],
  ['idempotency key', 'Errors_and_retries.html'],
  ['onRefunded', 'Refunds.html'],
  ['onRefundFailed', 'Refunds.html'],
];
const FIRST_RESULTS = 3;

/** The pages the site's search box lists for `query`, best first, as a reader gets them. */
async function searchSite(context: BrowserContext, query: string): Promise<string[]> {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
    await page.click('#tsd-search-trigger');
    await page.fill('#tsd-search-input', query);
    await page.waitForSelector('#tsd-search-results li a', { timeout: 10_000 });
    return await page.$$eval('#tsd-search-results li a', (links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  } finally {
    await page.close();
  }
}

/** Visits every internal page reachable from `start`; checks each link's page, anchor and each image. */
async function crawlSite(context: BrowserContext, start: string): Promise<Crawl> {
  const page = await context.newPage();
  const errors: string[] = [];
  let current = start;
  page.on('pageerror', (error) => errors.push(`${current}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${current}: console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${current}: ${response.status()} ${response.url()}`);
  });
  const anchors = new Map<string, Set<string>>();
  // Some pages draw part of themselves with their script (the class hierarchy): look for the anchor once it has run.
  const drawnLater = async (url: string, fragment: string): Promise<boolean> => {
    current = url;
    await page.goto(url, { waitUntil: 'load' });
    return page.waitForFunction((id) => document.getElementById(id) !== null, decodeURIComponent(fragment), { timeout: 3000 }).then(() => true, () => false);
  };
  const links: [from: string, to: string][] = [];
  const queue = [start];
  const seen = new Set(queue);
  let navigation: string[] = [];
  let images: string[] = [];
  while (queue.length > 0) {
    current = queue.shift()!;
    if (!/\.html$|\/$/.test(new URL(current).pathname)) {
      // A file the pages link to (an example's source, an image): it must be there; it is not a page to crawl.
      if ((await fetch(current)).ok) anchors.set(current, new Set());
      continue;
    }
    const response = await page.goto(current, { waitUntil: 'load' });
    if (!response?.ok()) continue;
    // The sidebar is drawn by the site's script: wait for it, so that its links are crawled too.
    await page.waitForSelector('.tsd-navigation a', { timeout: 10_000 }).catch(() => undefined);
    const found = await page.evaluate(() => ({
      ids: [...document.querySelectorAll('[id], a[name]')].map((element) => element.id || element.getAttribute('name') || ''),
      hrefs: [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
      images: [...document.images].map((image) => ({ src: image.src, ok: image.complete && image.naturalWidth > 0 })),
      nav: [...document.querySelectorAll('.tsd-navigation a')].map((a) => a.textContent?.trim() ?? ''),
    }));
    if (current === start) {
      navigation = found.nav;
      images = found.images.map((image) => image.src);
    }
    anchors.set(current, new Set(found.ids));
    for (const image of found.images) if (!image.ok) errors.push(`${current}: image ${image.src} did not load`);
    for (const href of found.hrefs) {
      if (!href.startsWith(origin)) continue;
      links.push([current, href]);
      const target = href.split('#')[0]!;
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  const broken: string[] = [];
  for (const [from, to] of links) {
    const [target, fragment] = to.split('#') as [string, string | undefined];
    const ids = anchors.get(target);
    if (!ids) broken.push(`${from} -> ${to}: not found`);
    // typedoc's own "view the full hierarchy" links name a class on hierarchy.html, whose tree has no ids: the page is checked, not the anchor.
    else if (fragment && ids.size > 0 && !target.endsWith('/hierarchy.html') && !ids.has(decodeURIComponent(fragment)) && !(await drawnLater(to, fragment))) {
      broken.push(`${from} -> ${to}: no such anchor`);
    }
  }
  await page.close();
  return { pages: [...anchors.keys()], broken, errors, navigation, images };
}

describe('the docs site (npm run docs), crawled in Chromium', () => {
  it('builds with no warning', () => {
    expect(build).toContain('html generated at ./docs/api');
    expect(build).not.toMatch(/\[warning\]|\[error\]/);
  });

  it('every internal link resolves, to its page and its anchor; every image loads', () => {
    console.log(`crawled ${crawl.pages.length} pages`);
    expect(crawl.pages.length).toBeGreaterThan(150);
    expect(crawl.broken).toEqual([]);
  });

  it('no page has a script error or a failed request', () => {
    expect(crawl.errors).toEqual([]);
  });

  // The search reads the guides' text (typedoc.json searchInDocuments; scripts/typedoc-search.mjs ranks them).
  it.each(SEARCHES)('the search box answers %o with the guide %s among its first results', async (query, guide) => {
    const results = await searchSite(browser, query);
    expect(results.slice(0, FIRST_RESULTS), results.join('\n')).toContain(`/documents/${guide}`);
  });

  it('opens on the guides in reading order, with the flow diagram on its first page', () => {
    expect(crawl.navigation[0]).toBe('payment-gateway-sdk'); // the first page: the README, with the guides' list and the diagram
    expect(crawl.navigation.slice(1, 7)).toEqual(['Getting started', 'Notifications in production', 'Testing with the mock gateway', 'Errors and retries', 'Signing, for any language', 'Migrating from the community Jeepay Node SDK']);
    expect(crawl.pages.some((page) => page.endsWith('/documents/Getting_started.html'))).toBe(true);
    expect(crawl.images.some((src) => /\/media\/flow\.svg$/.test(src)), crawl.images.join(', ')).toBe(true);
  });
});
