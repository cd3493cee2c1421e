/**
 * The one way a generated TypeScript file is built. An emitter adds statements, as ts-morph
 * structures or as `code` (text with the symbols it uses in it), and never writes an import: each
 * symbol a statement uses is imported from its module when the file is printed, type-only when
 * every use is a type. Re-exports are lists of symbols too. The file is printed by ts-morph's
 * structure printer, under the header, then re-parsed (`assertParses`).
 *
 * After protobuf-es's `GeneratedFile` (imports collected from the `ImportSymbol`s printed), over
 * ts-morph as the design card says.
 */
import type { ExportDeclarationStructure, ImportDeclarationStructure, StatementStructures } from 'ts-morph';
import { assertParses, printFile } from './print.js';
import { tsMorph } from './ts-morph.js';

/** A module generated code imports from; `note` is a line comment above its import. */
export interface ModuleRef {
  readonly specifier: string;
  readonly note?: string;
}

/** A name another module exports (or, with `namespace`, the whole module under a name). */
export interface ImportSymbol {
  readonly kind: 'symbol';
  readonly name: string;
  readonly module: ModuleRef;
  /** Only ever a type: imported with `import type`. */
  readonly typeOnly: boolean;
  /** `import * as name`. */
  readonly namespace: boolean;
}

export function importSymbol(name: string, module: ModuleRef, options: { typeOnly?: boolean; namespace?: boolean } = {}): ImportSymbol {
  return { kind: 'symbol', name, module, typeOnly: options.typeOnly ?? false, namespace: options.namespace ?? false };
}

/** Generated source text and the symbols used in it. */
export interface Code {
  readonly kind: 'code';
  readonly parts: readonly (string | ImportSymbol | Code)[];
}

type Interpolation = string | number | ImportSymbol | Code | readonly (string | ImportSymbol | Code)[];

/**
 * Generated text with symbols in it: `code\`${createContainer}(operations)\`` prints the symbol's
 * name and imports it. Strings are inserted as they are: they must already be escaped (escape.ts).
 */
export function code(strings: TemplateStringsArray, ...values: Interpolation[]): Code {
  const parts: (string | ImportSymbol | Code)[] = [];
  strings.forEach((text, i) => {
    parts.push(text);
    if (i >= values.length) return;
    const value = values[i]!;
    if (Array.isArray(value)) parts.push(...(value as readonly (string | ImportSymbol | Code)[]));
    else parts.push(typeof value === 'number' ? String(value) : (value as string | ImportSymbol | Code));
  });
  return { kind: 'code', parts };
}

interface Use {
  typeOnly: boolean;
  readonly symbol: ImportSymbol;
}

export class GeneratedFile {
  readonly #statements: (string | StatementStructures)[] = [];
  readonly #uses = new Map<string, Map<string, Use>>();
  readonly #modules = new Map<string, ModuleRef>();
  readonly #reexports: { readonly module: ModuleRef; readonly names: readonly string[] | '*'; readonly typeOnly: boolean }[] = [];

  constructor(readonly path: string) {}

  /** The name to write for `symbol` here; the file imports it. A value use makes the import a value import. */
  use(symbol: ImportSymbol, asType = symbol.typeOnly): string {
    this.#modules.set(symbol.module.specifier, symbol.module);
    let names = this.#uses.get(symbol.module.specifier);
    if (names === undefined) this.#uses.set(symbol.module.specifier, (names = new Map()));
    const key = `${symbol.namespace ? '*' : ''}${symbol.name}`;
    const use = names.get(key);
    if (use === undefined) names.set(key, { typeOnly: asType, symbol });
    else use.typeOnly &&= asType;
    return symbol.name;
  }

  /** The text of `code`, its symbols imported (as types when `asType`). */
  text(source: Code | string, asType = false): string {
    if (typeof source === 'string') return source;
    return source.parts
      .map((part) => (typeof part === 'string' ? part : part.kind === 'symbol' ? this.use(part, asType || part.typeOnly) : this.text(part, asType)))
      .join('');
  }

  /** A statement (or a comment line); a leading `\n` makes a blank line before it. */
  add(...statements: readonly (Code | string)[]): this {
    for (const statement of statements) this.#statements.push(this.text(statement));
    return this;
  }

  /** A declaration as a ts-morph structure; its type texts come from `text(…, true)`. */
  declare(...structures: readonly StatementStructures[]): this {
    this.#statements.push(...structures);
    return this;
  }

  /** `export { a, b } from '…'` (or `export type`), one statement per module, names sorted. */
  reexport(symbols: readonly ImportSymbol[], options: { typeOnly: boolean }): this {
    for (const [specifier, names] of group(symbols)) {
      const module = symbols.find((symbol) => symbol.module.specifier === specifier)!.module;
      this.#reexports.push({ module, names: [...names].sort(compareText), typeOnly: options.typeOnly });
    }
    return this;
  }

  /** `export * from '…'` (or `export type *`). */
  reexportAll(module: ModuleRef, options: { typeOnly: boolean }): this {
    this.#reexports.push({ module, names: '*', typeOnly: options.typeOnly });
    return this;
  }

  /** The whole file: `header`, a blank line, imports, re-exports, then the statements; parse-checked. */
  print(header: string): string {
    const { StructureKind } = tsMorph();
    const exports = this.#reexports.map(({ module, names, typeOnly }): ExportDeclarationStructure => ({
      kind: StructureKind.ExportDeclaration,
      isTypeOnly: typeOnly,
      moduleSpecifier: module.specifier,
      ...(names === '*' ? {} : { namedExports: [...names] }),
    }));
    const imports = this.#imports();
    // A blank line between the imports, the re-exports and the statements.
    const gap = (before: readonly unknown[], after: readonly unknown[]) =>
      before.length > 0 && after.length > 0 && !(typeof after[0] === 'string' && after[0].startsWith('\n')) ? ['\n'] : [];
    const head = [...imports, ...gap(imports, exports), ...exports];
    const body = this.#statements.every((statement) => typeof statement === 'string')
      ? joinText(head.length === 0 ? '' : printFile(head), this.#statements as string[])
      : printFile([...head, ...gap(head, this.#statements), ...this.#statements]);
    const contents = `${header}\n\n${body}`;
    assertParses(this.path, contents);
    return contents;
  }

  /** Packages first, then the output's own modules; each in specifier order, names sorted. */
  #imports(): ImportDeclarationStructure[] {
    const { StructureKind } = tsMorph();
    const specifiers = [...this.#uses.keys()].sort((a, b) => Number(a.startsWith('.')) - Number(b.startsWith('.')) || compareText(a, b));
    const declarations: ImportDeclarationStructure[] = [];
    // A note is said once, above the first import of a module that has it.
    const said = new Set<string>();
    const noteOnce = (note: string | undefined): string | undefined => {
      if (note === undefined || said.has(note)) return undefined;
      said.add(note);
      return `// ${note}\n`;
    };
    for (const specifier of specifiers) {
      const uses = [...this.#uses.get(specifier)!.values()];
      const note = this.#modules.get(specifier)!.note;
      for (const { symbol, typeOnly } of uses.filter((u) => u.symbol.namespace)) {
        declarations.push({
          kind: StructureKind.ImportDeclaration,
          moduleSpecifier: specifier,
          namespaceImport: symbol.name,
          isTypeOnly: typeOnly,
          leadingTrivia: noteOnce(note),
        });
      }
      const named = uses.filter((u) => !u.symbol.namespace).sort((a, b) => compareText(a.symbol.name, b.symbol.name));
      if (named.length === 0) continue;
      const allTypes = named.every((u) => u.typeOnly);
      declarations.push({
        kind: StructureKind.ImportDeclaration,
        moduleSpecifier: specifier,
        isTypeOnly: allTypes,
        namedImports: named.map((u) => ({ name: u.symbol.name, isTypeOnly: !allTypes && u.typeOnly })),
        leadingTrivia: noteOnce(note),
      });
    }
    return declarations;
  }
}

/**
 * The imports (printed) and statements given as text, which are final already: ts-morph's writer
 * would only copy them, a character at a time (a third of the time of a large server.ts). A blank
 * line after the imports, unless the first statement opens with one.
 */
function joinText(head: string, statements: readonly string[]): string {
  if (statements.length === 0) return head;
  const text = statements.join('\n');
  const separator = head.length === 0 || text.startsWith('\n') ? '' : '\n';
  return `${head}${separator}${head.length === 0 ? text.replace(/^\n+/, '') : text}\n`;
}

function group(symbols: readonly ImportSymbol[]): Map<string, Set<string>> {
  const byModule = new Map<string, Set<string>>();
  for (const symbol of symbols) {
    let names = byModule.get(symbol.module.specifier);
    if (names === undefined) byModule.set(symbol.module.specifier, (names = new Set()));
    names.add(symbol.name);
  }
  return byModule;
}

/** Code-unit order: the same on every machine and locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
