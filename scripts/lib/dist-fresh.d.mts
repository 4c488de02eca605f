// Types of dist-fresh.mjs, for its test (test/docs/dist-fresh.test.ts).
export declare function distIsFresh(root: string): boolean;
