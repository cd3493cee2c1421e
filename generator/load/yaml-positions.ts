/** Where things are in a spec's YAML text: the line and column of a path, of a key, and the path at an offset. */
import { type Document, isMap, isNode, isScalar, isSeq, type LineCounter } from 'yaml';
import type { Locate, Position, SpecPath } from './spec-error.js';

type Segment = string | number;

export function position(lines: LineCounter, offset: number): Position {
  const pos = lines.linePos(offset);
  return { line: pos.line, column: pos.col };
}

function nodeAt(doc: Document, path: SpecPath): unknown {
  return path.length === 0 ? doc.contents : doc.getIn(path, true);
}

/** The position of `key` itself in the map at `mapPath`; undefined when there is no such key. */
export function keyPosition(doc: Document, lines: LineCounter, mapPath: SpecPath, key: string): Position | undefined {
  const map = nodeAt(doc, mapPath);
  if (!isMap(map)) return undefined;
  for (const pair of map.items) {
    if (isScalar(pair.key) && String(pair.key.value) === key && pair.key.range) return position(lines, pair.key.range[0]);
  }
  return undefined;
}

/** The path of the deepest node (or key) at `offset`. */
export function pathAt(node: unknown, offset: number, path: Segment[] = []): Segment[] {
  const children: { segment: Segment; node: unknown; start: number; end: number }[] = [];
  const span = (n: unknown) => (isNode(n) && n.range ? { start: n.range[0], end: n.range[2] } : undefined);
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = span(pair.key);
      const value = span(pair.value);
      const start = key?.start ?? value?.start;
      const end = value?.end ?? key?.end;
      const segment = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (start !== undefined && end !== undefined && segment !== undefined) children.push({ segment, node: pair.value, start, end });
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      const s = span(item);
      if (s !== undefined) children.push({ segment: index, node: item, ...s });
    });
  }
  const child = children.find((c) => c.start <= offset && offset < c.end);
  return child === undefined ? path : pathAt(child.node, offset, [...path, child.segment]);
}

export function locator(doc: Document, lines: LineCounter): Locate {
  return (path, atKey) => {
    if (atKey === true && path.length > 0) {
      const at = keyPosition(doc, lines, path.slice(0, -1), String(path.at(-1)));
      if (at !== undefined) return at;
    }
    // The deepest node that exists on the path: a missing field is reported where its parent is.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = nodeAt(doc, path.slice(0, depth));
      if (isNode(node) && node.range) return position(lines, node.range[0]);
    }
    return { line: 1, column: 1 };
  };
}
