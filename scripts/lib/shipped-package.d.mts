// Types of shipped-package.mjs, for the tests that use it (test/docs/package.slow.test.ts).
export declare const repoRoot: string;
export declare class StepError extends Error {}
export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  stdio?: 'pipe' | 'inherit';
  timeoutMs?: number;
  allowFailure?: boolean;
}
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}
export declare function run(command: string, args: readonly string[], options?: RunOptions): Promise<RunResult>;
export declare function npm(args: readonly string[], options?: RunOptions): Promise<RunResult>;
export declare function readJson(file: string): Promise<any>;
export declare function writeJson(file: string, value: unknown): Promise<void>;
export declare function scratchDir(prefix: string): Promise<{ dir: string; dispose(): Promise<void> }>;
export declare function buildAndPack(dir: string, options?: { cwd?: string }): Promise<{ tarball: string; files: string[]; size: number }>;
export declare function installTarball(dir: string, tarball: string, options?: { type?: 'module' | 'commonjs' }): Promise<any>;
export declare function entryPoints(manifest: { exports: Record<string, unknown> }): string[];
export declare function specifierOf(manifest: { name: string }, entry: string): string;
