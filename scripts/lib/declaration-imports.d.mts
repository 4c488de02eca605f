// Types of declaration-imports.mjs, for its test (test/docs/declaration-imports.test.ts).
export declare function declarationImports(text: string, fileName?: string): string[];
export declare function bareImportsOf(packageDir: string, file: string): Promise<string[]>;
export declare function packageNameOf(specifier: string): string;
