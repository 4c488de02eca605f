import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface SignVector {
  name: string;
  secret: string;
  params: Record<string, string | number | boolean | null>;
  canonical?: string;
  sign: string;
}

const file = fileURLToPath(new URL('../fixtures/sign-vectors.json', import.meta.url));

/** The gateway's signature vectors (a copy of the shared vectors: see test/fixtures/README.md). */
export const vectors: SignVector[] = (JSON.parse(readFileSync(file, 'utf8')) as { cases: SignVector[] }).cases;

export function vector(namePrefix: string): SignVector {
  const found = vectors.find((v) => v.name.startsWith(namePrefix));
  if (!found) throw new Error(`no vector named ${namePrefix}`);
  return found;
}
