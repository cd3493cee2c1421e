/**
 * ts-morph's structure printer and TypeScript's parser, as `GeneratedFile` uses them: a file's
 * body is printed from structures built whole (never `addX` in a loop), statements given as
 * strings being generated text whose symbols the builder has imported. The printer is used alone,
 * with no project or source file: the text is parsed once, by `assertParses`.
 */
import type { StatementStructures, ts } from 'ts-morph';
import { tsMorph } from './ts-morph.js';

/** The body of a file (the text under its header), ending in one newline. */
export function printFile(statements: readonly (string | StatementStructures)[]): string {
  const { printStructure, StructureKind } = tsMorph();
  const text = printStructure({ kind: StructureKind.SourceFile, statements: [...statements] }, { indentNumberOfSpaces: 2, useSingleQuote: true });
  return `${text.trimEnd()}\n`;
}

/**
 * Re-parses an emitted file: a syntax error here is a generator bug (or an escaping hole), and the
 * run fails before anything is written. Parse only (no transform or emit), so it stays cheap; the
 * inside of doc comments is not parsed as JSDoc (where a comment ends is the scanner's, and is
 * still checked).
 */
export function assertParses(path: string, text: string): void {
  const { ts } = tsMorph();
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  const file = ts.createSourceFile(path, text, options, false, ts.ScriptKind.TS);
  // `parseDiagnostics` holds the parser's syntax errors; it is not in the public typings.
  const diagnostics = (file as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics;
  if (diagnostics === undefined) throw new Error('internal: this TypeScript version does not expose parse diagnostics');
  if (diagnostics.length > 0) {
    const first = ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, '\n');
    throw new Error(`internal: generated ${path} does not parse (${first}); this is a bug in agentgen`);
  }
}
