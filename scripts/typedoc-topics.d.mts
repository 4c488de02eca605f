/** The topics of the API reference, first match wins, by file path below src/. */
export declare const TOPICS: readonly (readonly [topic: string, file: RegExp])[];
/** The typedoc plugin's entry. */
export declare function load(app: unknown): void;
