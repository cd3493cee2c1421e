/**
 * Every relative link of the documentation reaches something: a file or folder of the repository,
 * and, with a `#fragment`, a heading of that Markdown file as GitHub anchors it. External links
 * (http, https, mailto) are not fetched.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { anchorsOf, documentationFiles, linksOf, parseBlocks, readDoc, root, slugOf } from './markdown.js';

/** The READMEs npm publishes with the packages. */
const packageReadmes = ['runtime/README.md', 'cli/README.md', 'agent-app/README.md', 'create-agentgen/README.md'];

/** What is wrong with one link of `file`, or undefined when it reaches its target. */
function brokenLink(file: string, target: string): string | undefined {
  if (target === '') return 'a reference link with no definition';
  if (/^(https?:|mailto:)/.test(target)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return `an unexpected scheme in ${target}`;
  if (target.startsWith('/')) return `${target}: use a path relative to ${file} (an absolute path breaks outside github.com)`;
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const fragment = hash < 0 ? undefined : target.slice(hash + 1);
  const resolved = path === '' ? join(root, file) : join(root, dirname(file), path);
  const inRepo = relative(root, resolved);
  if (inRepo.startsWith('..')) return `${target} leaves the repository`;
  if (!existsSync(resolved)) return `${target}: no ${inRepo.split(sep).join('/')}`;
  if (fragment === undefined) return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return `${target}: an anchor into something that is not a Markdown file`;
  const anchors = anchorsOf(parseBlocks(inRepo, readDoc(inRepo)).prose);
  return anchors.has(fragment) ? undefined : `${target}: no heading of ${inRepo} has the anchor #${fragment}`;
}

describe('links in the documentation', () => {
  test.each(documentationFiles())('%s: every relative link reaches its file and anchor', (file) => {
    const { prose } = parseBlocks(file, readDoc(file));
    const links = linksOf(prose);
    const broken = links.flatMap(({ line, target }) => {
      const problem = brokenLink(file, target);
      return problem === undefined ? [] : [`${file}:${line}: ${problem}`];
    });
    expect(broken).toEqual([]);
  });

  test('README.md links every page of docs/, CONTRIBUTING.md and every package README', () => {
    const targets = new Set(linksOf(parseBlocks('README.md', readDoc('README.md')).prose).map((link) => link.target.split('#')[0]));
    const pages = documentationFiles().filter((file) => file !== 'README.md');
    expect(pages.filter((page) => !targets.has(page))).toEqual([]);
  });

  // A package's README is also its page on the registry, where a relative link leads nowhere, and
  // no public address of the repository is known to link to instead: docs are named by path.
  test.each(packageReadmes)('%s: no relative link (it is the package page on the registry)', (file) => {
    const relativeLinks = linksOf(parseBlocks(file, readDoc(file)).prose).filter(({ target }) => !/^(https?:|mailto:|#)/.test(target));
    expect(relativeLinks.map(({ line, target }) => `${file}:${line}: ${target}`)).toEqual([]);
  });

  test('the checks find what they look for (so that a pass means something)', () => {
    const text = [
      '# Title',
      '## `agentgen dev` on your machine',
      '## Title',
      'See [x](#title-1), [y][ref] and `[z](nowhere.md)`.',
      '',
      '[ref]: docs/',
      '```',
      '[w](also-nowhere.md)',
      '```',
    ].join('\n');
    const { prose } = parseBlocks('README.md', text);
    expect(anchorsOf(prose)).toEqual(new Set(['title', 'agentgen-dev-on-your-machine', 'title-1']));
    expect(linksOf(prose).map((l) => l.target)).toEqual(['#title-1', 'docs/', 'docs/']);
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toMatch(/no docs\/no-such-page\.md/);
    expect(brokenLink('README.md', 'README.md#no-such-heading')).toMatch(/no heading of README\.md has the anchor/);
    expect(brokenLink('docs/dev.md', '../../outside.md')).toMatch(/leaves the repository/);
    expect(slugOf("The engine's services: Sessions, Memory Bank and a [metadata](x.md) server")).toBe(
      'the-engines-services-sessions-memory-bank-and-a-metadata-server',
    );
  });
});
