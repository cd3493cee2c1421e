/**
 * YAML aliases count toward the size of the spec: reading a spec writes every alias out as a copy
 * of the node it names, and everything after that (checks, the model, every output) grows with the
 * copies, not with the text. A 1 MB spec whose 91 aliases each name a large node is a document of
 * some 300 MB. The `yaml` package's own cap counts aliases, not what they stand for.
 */
import { type Alias, type Document, isAlias, isCollection, isPair, type Node, visit } from 'yaml';

/** What aliases may add to a spec, in characters of YAML text (1 MiB). */
export const aliasExpansionLimit = 1024 * 1024;

/** The alias at which the text aliases stand for goes past `aliasExpansionLimit`, and how much they add there. */
export interface AliasPastLimit {
  readonly offset: number;
  readonly added: number;
}

/**
 * Walks the document once, in order: each alias names the last node with its anchor before it (as
 * YAML resolves it), and adds that node's text, its own aliases written out, less its own. A node
 * that holds an alias to itself stands for endless text.
 */
export function aliasPastLimit(doc: Document): AliasPastLimit | undefined {
  const anchored = new Map<string, Node>();
  const targets = new Map<Alias, Node>();
  const added = new Map<Node, number>();
  const inProgress = new Set<Node>();
  const length = (node: Node) => (node.range ? node.range[1] - node.range[0] : 0);
  /** What the aliases inside `node` (itself included) add to its text. */
  const extra = (node: unknown): number => {
    if (isPair(node)) return extra(node.key) + extra(node.value);
    if (!isAlias(node) && !isCollection(node)) return 0;
    const known = added.get(node);
    if (known !== undefined) return known;
    if (inProgress.has(node)) return Infinity;
    inProgress.add(node);
    let result = 0;
    if (isAlias(node)) {
      const target = targets.get(node);
      result = target === undefined ? 0 : length(target) + extra(target) - length(node);
    } else {
      for (const item of node.items) result += extra(item);
    }
    inProgress.delete(node);
    added.set(node, result);
    return result;
  };
  let total = 0;
  let past: AliasPastLimit | undefined;
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) {
        const target = anchored.get(node.source);
        if (target !== undefined) targets.set(node, target);
        total += extra(node);
        if (total > aliasExpansionLimit) {
          past = { offset: node.range?.[0] ?? 0, added: total };
          return visit.BREAK;
        }
      } else if (node.anchor !== undefined) {
        anchored.set(node.anchor, node);
      }
      return undefined;
    },
  });
  return past;
}
