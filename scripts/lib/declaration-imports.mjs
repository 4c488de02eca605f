// What a declaration file really imports, read by the TypeScript parser: import and export declarations,
// `import x = require()`, `import()` types, `declare module` augmentations and `/// <reference types>`
// directives. Never text in a comment: a TSDoc @example may show `import ... from 'msw/node'`, which no
// consumer compiles. Used by check-package.mjs to find the optional peers an entry's types need.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The module specifiers the code of one declaration file imports, in the order they appear. */
export function declarationImports(text, fileName = 'index.d.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found = source.typeReferenceDirectives.map((directive) => directive.fileName);
  const literal = (node) => (node && ts.isStringLiteralLike(node) ? found.push(node.text) : undefined);
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isModuleDeclaration(node)) literal(node.name);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// A relative import in a declaration file names the JavaScript file; its types sit beside it.
const DECLARATION_OF = [
  [/\.js$/, '.d.ts'],
  [/\.cjs$/, '.d.cts'],
  [/\.mjs$/, '.d.mts'],
  [/\.d\.[cm]?ts$/, ''],
];

/**
 * The bare specifiers (`msw/node`, `@opentelemetry/api`, `node:http`...) that a declaration file of the package
 * in `packageDir` imports, itself or through the declaration files it imports by relative path. A relative
 * import that leaves the package or names no declaration file in it is an error: a consumer could not compile it.
 */
export async function bareImportsOf(packageDir, file) {
  const root = resolve(packageDir);
  const seen = new Set();
  const bare = new Set();
  const walk = async (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const specifier of declarationImports(await readFile(path, 'utf8'), path)) {
      if (!specifier.startsWith('.')) {
        bare.add(specifier);
        continue;
      }
      const target = await declarationFileOf(resolve(dirname(path), specifier));
      if (!target || !`${target}${sep}`.startsWith(`${root}${sep}`)) {
        throw new Error(`${relative(root, path)} imports '${specifier}', which names no declaration file in the package`);
      }
      await walk(target);
    }
  };
  await walk(resolve(root, file));
  return [...bare];
}

/** The package a bare specifier names: `msw/node` -> `msw`, `@scope/name/sub` -> `@scope/name`. */
export function packageNameOf(specifier) {
  return specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

/** The first declaration file that exists for an import of `path` (`x.js` -> `x.d.ts`, `x` -> `x.d.ts` or `x/index.d.ts`). */
async function declarationFileOf(path) {
  const rule = DECLARATION_OF.find(([pattern]) => pattern.test(path));
  const candidates = rule ? [rule[1] ? path.replace(rule[0], rule[1]) : path] : [`${path}.d.ts`, join(path, 'index.d.ts')];
  for (const candidate of candidates) {
    if (await readFile(candidate).then(() => true, () => false)) return candidate;
  }
  return undefined;
}
