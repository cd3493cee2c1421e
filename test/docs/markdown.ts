/**
 * The documentation as data: which Markdown files are checked, and what the checks read of them
 * (fenced code blocks with their info strings, links, headings as GitHub anchors them). Line-based,
 * for the Markdown these files use: ATX headings, fenced blocks (indented ones in lists too),
 * inline and reference links.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every Markdown file a reader reaches from the front page, as repository paths. */
export function documentationFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return [
    'README.md',
    'CONTRIBUTING.md',
    'CHANGELOG.md',
    ...docs,
    'cli/README.md',
    'runtime/README.md',
    'agent-app/README.md',
    'create-agentgen/README.md',
    'examples/weather-agent/README.md',
    'emulator/README.md',
    'conformance/README.md',
  ];
}

export function readDoc(file: string): string {
  return readFileSync(join(root, file), 'utf8');
}

export interface CodeBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The info string's first word (`sh`, `ts`, `yaml`…), or '' for none. */
  readonly lang: string;
  /** The rest of the info string (`run`, `not-run: why`, `check`…). */
  readonly attributes: string;
  /** The block's text, without the list indentation of its fence. */
  readonly text: string;
}

const fence = /^(\s*)(`{3,}|~{3,})\s*(.*)$/;

/**
 * The fenced code blocks of a file, and its lines with every block's lines blanked (so that line
 * numbers stay those of the file): what prose checks read.
 */
export function parseBlocks(file: string, text: string): { blocks: CodeBlock[]; prose: string[] } {
  const lines = text.split('\n');
  const prose = [...lines];
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]!);
    if (open === null) continue;
    const [, indent = '', marks = '', info = ''] = open;
    const body: string[] = [];
    let end = i + 1;
    for (; end < lines.length; end++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[end]!);
      if (close !== null && close[1]![0] === marks[0] && close[1]!.length >= marks.length) break;
      const line = lines[end]!;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    const [lang = '', ...rest] = info.trim().split(/\s+/);
    blocks.push({ file, line: i + 1, lang, attributes: rest.join(' '), text: body.join('\n') });
    for (let j = i; j <= end && j < lines.length; j++) prose[j] = '';
    i = end;
  }
  return { blocks, prose };
}

/** A line without its inline code spans (each replaced by spaces, so columns stay). */
export function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => ' '.repeat(span.length));
}

export interface Link {
  readonly line: number;
  readonly text: string;
  readonly target: string;
}

/**
 * The links of a file's prose: inline (`[text](target)`, images too), reference uses resolved
 * through their definitions (`[text][id]` with `[id]: target`), and the definitions themselves.
 * A reference with no definition has the target '' (GitHub prints it as plain text).
 */
export function linksOf(prose: readonly string[]): Link[] {
  const definitions = new Map<string, { line: number; target: string }>();
  prose.forEach((line, index) => {
    const definition = /^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition !== null) definitions.set(definition[1]!.toLowerCase(), { line: index + 1, target: definition[2]! });
  });
  const links: Link[] = [];
  prose.forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    if (/^\s{0,3}\[[^\]]+\]:/.test(line)) return;
    for (const match of line.matchAll(/!?\[((?:[^[\]]|\[[^\]]*\])*)\]\(\s*<?([^()\s>]*(?:\([^()\s]*\)[^()\s>]*)*)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: index + 1, text: match[1]!, target: match[2]! });
    }
    for (const match of line.matchAll(/\[((?:[^[\]]|\[[^\]]*\])+)\]\[([^\]]*)\]/g)) {
      const id = (match[2] === '' ? match[1]! : match[2]!).toLowerCase();
      links.push({ line: index + 1, text: match[1]!, target: definitions.get(id)?.target ?? '' });
    }
  });
  for (const [id, { line, target }] of definitions) links.push({ line, text: `[${id}]`, target });
  return links;
}

/** The anchor GitHub gives a heading's text (github-slugger's rule, without the duplicate count). */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a file: its headings' slugs (a repeated one gets -1, -2… as on GitHub) and explicit `<a id>`s. */
export function anchorsOf(prose: readonly string[]): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      const slug = slugOf(heading[1]!);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const explicit of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(explicit[1]!);
  }
  return anchors;
}
