// typedoc plugin: files the API reference by topic (Client, Notifications, Errors, Schemas, Telemetry, Testing) instead of
// one flat list, from the folder each export is declared in; the folders already follow the architecture,
// so a new export lands in its topic without a tag. A file no rule covers is a warning (docs must build clean).
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';
import ts from 'typescript';

/** First match wins; paths are relative to src/ and follow its layers (docs/architecture.md). */
export const TOPICS = [
  // A kind's folder (kinds/<kind>/) holds its mock desk (mock*.ts), its group of public names and its declaration (schemas).
  ['Testing', /^testing\/|^kinds\/[^/]+\/mock(?:-[a-z-]+)?\.ts$/],
  ['Kinds', /^kinds\/[^/]+\/public\.ts$/],
  // The entry declares only each other kind's verifier, next to its group (one line of notify/verify.ts's verifyKind).
  ['Notifications', /^notify\/|^stores\/|^index\.ts$/],
  ['Errors', /^errors\//],
  ['Telemetry', /^telemetry\//],
  ['Schemas', /^protocol\/schemas\/|^protocol\/json\/|^kinds\/[^/]+\/[^/]+\.ts$/],
  ['Client', /^client\/|^operations\/|^protocol\/signing\/|^transport\/|^util\/log-levels/],
];

export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (reflection.kindOf(ReflectionKind.Module) || !reflection.parent?.kindOf(ReflectionKind.Module | ReflectionKind.Project)) return;
    let symbol = context.getSymbolFromReflection(reflection);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = context.checker.getAliasedSymbol(symbol);
    const file = symbol?.declarations?.[0]?.getSourceFile().fileName.replaceAll('\\', '/');
    const path = file?.split('/src/').at(-1);
    const topic = path && TOPICS.find(([, pattern]) => pattern.test(path))?.[0];
    if (!topic) {
      app.logger.warn(`typedoc-topics: no topic for ${reflection.getFullName()} (declared in ${path ?? 'an unknown file'}); add a rule to scripts/typedoc-topics.mjs`);
      return;
    }
    reflection.comment ??= new Comment();
    if (!reflection.comment.hasModifier('@category') && reflection.comment.getTags('@category').length === 0) {
      reflection.comment.blockTags.push(new CommentTag('@category', [{ kind: 'text', text: topic }]));
    }
  });
}
