/**
 * The TypeScript blocks of the README and of the guides in SNIPPET_DOCUMENTS, each written from a file the
 * suite type-checks or runs: a block follows a marker `<!-- snippet: examples/readme/quick-start.ts -->` (or
 * several files, space-separated) and holds the regions of those files between `// #region readme` and
 * `// #endregion readme`, dedented, in order. `npm run docs:readme` writes them; test/docs/readme-snippets.test.ts
 * fails when one is stale, or when a TypeScript block has no marker.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);
/** The documents whose TypeScript blocks are written from files (`npm run docs:readme` rewrites each). */
export const SNIPPET_DOCUMENTS = ['README.md', 'docs/guides/refunds.md', 'docs/guides/channel-user.md'] as const;
export const MARKER = /^<!-- snippet: ([^>]+?) -->$/;
const REGION_START = /^\s*\/\/ #region readme\s*$/;
const REGION_END = /^\s*\/\/ #endregion readme\s*$/;

/** A file's README regions, each dedented, joined by a blank line. */
export function regionsOf(text: string, file: string): string {
  const regions: string[][] = [];
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (REGION_START.test(line)) current = [];
    else if (REGION_END.test(line)) {
      if (current) regions.push(current);
      current = undefined;
    } else current?.push(line);
  }
  if (regions.length === 0) throw new Error(`${file} has no // #region readme ... // #endregion readme`);
  return regions.map(dedent).join('\n\n');
}

function dedent(lines: readonly string[]): string {
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length));
  return lines.map((line) => line.slice(indent)).join('\n');
}

/** The `snippet` of a marker line: its files' regions. */
export function snippet(files: string, read: (file: string) => string = (file) => readFileSync(new URL(file, ROOT), 'utf8')): string {
  return files.split(/\s+/).map((file) => regionsOf(read(file), file)).join('\n\n');
}

/** `readme` with every block after a marker rewritten from its files. */
export function withSnippets(readme: string, read?: (file: string) => string): string {
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]!);
    if (!marker) continue;
    if (lines[i + 1] !== '```ts') throw new Error(`README.md line ${i + 1}: a snippet marker must be followed by a \`\`\`ts block`);
    let end = i + 2;
    while (end < lines.length && lines[end] !== '```') end++;
    lines.splice(i + 2, end - (i + 2), ...snippet(marker[1]!, read).split('\n'));
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const document of SNIPPET_DOCUMENTS) {
    const file = fileURLToPath(new URL(document, ROOT));
    writeFileSync(file, withSnippets(readFileSync(file, 'utf8')));
  }
}
