/**
 * A YAML syntax error as a spec problem: at its line and column, with a code frame, and without a
 * path (the document around a syntax error is not what the author meant, so a path into it would
 * name an unrelated part). yaml reports a bracket or quote that is never closed where it gives up
 * looking for the end, often lines later under another key; such a problem is located at the
 * opening character instead, where the fix is.
 */
import { type Document, isCollection, isScalar, type LineCounter, type Node, visit, type YAMLError } from 'yaml';
import { codeFrame } from './code-frame.js';
import type { SpecProblem } from './spec-error.js';
import { keyPosition, pathAt, position } from './yaml-positions.js';

/** The opening character of what is never closed, by the start of yaml's message about it. */
const openers: readonly { readonly message: RegExp; readonly open: string; readonly close: string; readonly what: string }[] = [
  { message: /^Flow sequence\b.*end with a \]/, open: '[', close: ']', what: 'a flow sequence' },
  { message: /^Flow map\b.*end with a \}/, open: '{', close: '}', what: 'a flow map' },
  { message: /^Missing closing "quote/, open: '"', close: '"', what: 'a double-quoted string' },
  { message: /^Missing closing 'quote/, open: "'", close: "'", what: 'a single-quoted string' },
];

/**
 * The problems of a document's syntax errors. Each node that is never closed is matched to one
 * error: yaml ends such a node (its range) where the error is.
 */
export function syntaxProblems(doc: Document, lines: LineCounter, text: string): SpecProblem[] {
  const matched = new Set<Node>();
  return doc.errors.map((error) => syntaxProblem(doc, lines, text, error, matched));
}

function syntaxProblem(doc: Document, lines: LineCounter, text: string, error: YAMLError, matched: Set<Node>): SpecProblem {
  const at = position(lines, error.pos[0]);
  const firstLine = error.message.split('\n')[0]!;
  if (error.code === 'DUPLICATE_KEY') {
    const path = pathAt(doc.contents, error.pos[0]);
    if (path.length > 0) {
      const key = path.at(-1)!;
      const first = keyPosition(doc, lines, path.slice(0, -1), String(key));
      const also = first !== undefined && (first.line !== at.line || first.column !== at.column) ? ` (first at ${first.line}:${first.column})` : '';
      return { path, at, message: `duplicate key ${JSON.stringify(String(key))}${also}; keys must be unique` };
    }
  }
  const opener = openers.find((o) => o.message.test(firstLine));
  const unclosed = opener === undefined ? undefined : unclosedNode(doc, text, error.pos[0], opener.open, matched);
  if (opener !== undefined && unclosed !== undefined) {
    matched.add(unclosed);
    const start = position(lines, unclosed.range![0]);
    const indent = error.code === 'BAD_INDENT' ? ` (or a line inside it is not indented past the key that holds it)` : '';
    return {
      path: [],
      at: start,
      message: `not valid YAML or JSON: this ${opener.open} is never closed: ${opener.what} ends with ${opener.close}${indent}`,
      frame: codeFrame(text, start),
    };
  }
  return { path: [], at, message: `not valid YAML or JSON: ${firstLine}`, frame: codeFrame(text, at) };
}

/** The node that opens with `open` and that yaml ended at `offset` (where it reported the missing end). */
function unclosedNode(doc: Document, text: string, offset: number, open: string, matched: ReadonlySet<Node>): Node | undefined {
  let found: Node | undefined;
  visit(doc, (_key, node) => {
    if (!(isCollection(node) || isScalar(node)) || node.range == null || matched.has(node)) return undefined;
    if (node.range[1] === offset && text[node.range[0]] === open) {
      found = node;
      return visit.BREAK;
    }
    return undefined;
  });
  return found;
}
