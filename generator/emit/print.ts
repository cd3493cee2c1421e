/**
 * Prints one generated TypeScript file from ts-morph structures, built whole (never `addX` in a
 * loop), in an in-memory project. Statements given as strings are fixed text or comments.
 */
import { IndentationText, NewLineKind, Project, QuoteKind, ts, type StatementStructures } from 'ts-morph';

let project: Project | undefined;

function memoryProject(): Project {
  project ??= new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Single,
    },
  });
  return project;
}

export function printFile(name: string, header: string, statements: readonly (string | StatementStructures)[]): string {
  const file = memoryProject().createSourceFile(name, { statements: [...statements] }, { overwrite: true });
  const text = `${header.trimEnd()}\n\n${file.getFullText().trimEnd()}\n`;
  memoryProject().removeSourceFile(file);
  return text;
}

/**
 * Re-parses an emitted file: a syntax error here is a generator bug (or an escaping hole), and the
 * run fails before anything is written. Parse only (no transform or emit), so it stays cheap.
 */
export function assertParses(path: string, text: string): void {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  // `parseDiagnostics` holds the parser's syntax errors; it is not in the public typings.
  const diagnostics = (file as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics;
  if (diagnostics === undefined) throw new Error('internal: this TypeScript version does not expose parse diagnostics');
  if (diagnostics.length > 0) {
    const first = ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, '\n');
    throw new Error(`internal: generated ${path} does not parse (${first}); this is a bug in agentgen`);
  }
}
