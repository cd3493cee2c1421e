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
 * run fails before anything is written.
 */
export function assertParses(path: string, text: string): void {
  const result = ts.transpileModule(text, {
    fileName: path,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  const errors = (result.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    const first = ts.flattenDiagnosticMessageText(errors[0]!.messageText, '\n');
    throw new Error(`internal: generated ${path} does not parse (${first}); this is a bug in agentgen`);
  }
}
