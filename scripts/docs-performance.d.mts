// Types of docs-performance.mjs, for the test that renders docs/performance.md again.
export interface ResultsFile {
  readonly path: string;
  readonly parts?: readonly { readonly name: string; readonly code: number | string | null; readonly rows: readonly object[] }[];
}
export function readResultsFiles(root?: string): ResultsFile[];
export function formatFigure(value: number): string;
export function renderPerformancePage(page: string, files: readonly ResultsFile[]): string;
