// typedoc plugin: the site's search reads the guides' text (typedoc.json `searchInDocuments`) and ranks a guide
// that explains a word with the symbols named by it. Without this a guide loses to any name holding the word
// ("exactly once" gave five `runOnce` first): its text is weighed 1 against a name's 10, and lunr divides a
// field's score by its length against the average, which the ~1000 symbols without text bring near zero.
import { IndexEvent } from 'typedoc';

/** The weight of a guide's text, as typedoc weighs a name (it weighs text 1). */
export const DOCUMENT_TEXT_WEIGHT = 10;
/** A guide's whole score against a symbol's, for the length penalty above. */
export const DOCUMENT_BOOST = 10;

export function load(app) {
  app.renderer.on(IndexEvent.PREPARE_INDEX, (event) => {
    event.searchFieldWeights.document = DOCUMENT_TEXT_WEIGHT;
    for (const reflection of event.searchResults) if (reflection.isDocument()) reflection.relevanceBoost = DOCUMENT_BOOST;
  });
}
