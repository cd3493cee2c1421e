/**
 * The .dockerignore matcher against Docker's own cases: the table of moby/patternmatcher's
 * TestMatches (patternmatcher_test.go @5a6d842, the MatchesOrParentMatches subtest, Linux), its
 * folder and exclusion tests, ignorefile.ReadAll's rules, and the examples of Docker's reference
 * (docs.docker.com/build/concepts/context/#dockerignore-files).
 */
import { describe, expect, test } from 'vitest';
import { DockerIgnorePatternError, dockerIgnore, readDockerIgnore } from '../../cli/src/deploy/source-archive-dockerignore.js';

const ignores = (patterns: string[], path: string) => dockerIgnore(patterns).ignores(path);

describe("moby/patternmatcher's TestMatches", () => {
  const table: [pattern: string, path: string, matches: boolean][] = [
    ['**', 'file', true],
    ['**', 'file/', true],
    ['**/', 'file', true],
    ['**/', 'file/', true],
    ['**', '/', true],
    ['**/', '/', true],
    ['**', 'dir/file', true],
    ['**/', 'dir/file', true],
    ['**', 'dir/file/', true],
    ['**/', 'dir/file/', true],
    ['**/**', 'dir/file', true],
    ['**/**', 'dir/file/', true],
    ['dir/**', 'dir/file', true],
    ['dir/**', 'dir/file/', true],
    ['dir/**', 'dir/dir2/file', true],
    ['dir/**', 'dir/dir2/file/', true],
    ['**/dir', 'dir', true],
    ['**/dir', 'dir/file', true],
    ['**/dir2/*', 'dir/dir2/file', true],
    ['**/dir2/*', 'dir/dir2/file/', true],
    ['**/dir2/**', 'dir/dir2/dir3/file', true],
    ['**/dir2/**', 'dir/dir2/dir3/file/', true],
    ['**file', 'file', true],
    ['**file', 'dir/file', true],
    ['**/file', 'dir/file', true],
    ['**file', 'dir/dir/file', true],
    ['**/file', 'dir/dir/file', true],
    ['**/file*', 'dir/dir/file', true],
    ['**/file*', 'dir/dir/file.txt', true],
    ['**/file*txt', 'dir/dir/file.txt', true],
    ['**/file*.txt', 'dir/dir/file.txt', true],
    ['**/file*.txt*', 'dir/dir/file.txt', true],
    ['**/**/*.txt', 'dir/dir/file.txt', true],
    ['**/**/*.txt2', 'dir/dir/file.txt', false],
    ['**/*.txt', 'file.txt', true],
    ['**/**/*.txt', 'file.txt', true],
    ['a**/*.txt', 'a/file.txt', true],
    ['a**/*.txt', 'a/dir/file.txt', true],
    ['a**/*.txt', 'a/dir/dir/file.txt', true],
    ['a/*.txt', 'a/dir/file.txt', false],
    ['a/*.txt', 'a/file.txt', true],
    ['a/*.txt**', 'a/file.txt', true],
    ['a[b-d]e', 'ae', false],
    ['a[b-d]e', 'ace', true],
    ['a[b-d]e', 'aae', false],
    ['a[^b-d]e', 'aze', true],
    ['.*', '.foo', true],
    ['.*', 'foo', false],
    ['abc.def', 'abcdef', false],
    ['abc.def', 'abc.def', true],
    ['abc.def', 'abcZdef', false],
    ['abc?def', 'abcZdef', true],
    ['abc?def', 'abcdef', false],
    ['a\\\\', 'a\\', true],
    ['**/foo/bar', 'foo/bar', true],
    ['**/foo/bar', 'dir/foo/bar', true],
    ['**/foo/bar', 'dir/dir2/foo/bar', true],
    ['abc/**', 'abc', false],
    ['abc/**', 'abc/def', true],
    ['abc/**', 'abc/def/ghi', true],
    ['**/.foo', '.foo', true],
    ['**/.foo', 'bar.foo', false],
    ['a(b)c/def', 'a(b)c/def', true],
    ['a(b)c/def', 'a(b)c/xyz', false],
    ['a.|)$(}+{bc', 'a.|)$(}+{bc', true],
    ['dist/proxy.py-2.4.0rc3.dev36+g08acad9-py3-none-any.whl', 'dist/proxy.py-2.4.0rc3.dev36+g08acad9-py3-none-any.whl', true],
    ['dist/*.whl', 'dist/proxy.py-2.4.0rc3.dev36+g08acad9-py3-none-any.whl', true],
    ['a\\*b', 'a*b', true], // not on Windows, where '\' separates
    // TestCompile: a leading `**` makes a suffix test, so `**file` is any path ending in "file".
    ['**file', 'dir/myfile', true],
    ['**file', 'dir/file.txt', false],
  ];
  test.each(table)('%j against %j: %s', (pattern, path, matches) => {
    expect(ignores([pattern], path)).toBe(matches);
  });

  test.each([
    [['**', '!util/docker/web'], 'util/docker/web/foo', false],
    [['**', '!util/docker/web', 'util/docker/web/foo'], 'util/docker/web/foo', true],
    [['**', '!dist/proxy.py-2.4.0rc3.dev36+g08acad9-py3-none-any.whl'], 'dist/proxy.py-2.4.0rc3.dev36+g08acad9-py3-none-any.whl', false],
    [['**', '!dist/*.whl'], 'dist/proxy.py-2.4.0rc3.dev36+g08acad9-py3-none-any.whl', false],
  ])('%j against %j: %s', (patterns, path, matches) => {
    expect(ignores(patterns, path)).toBe(matches);
  });
});

describe("moby/patternmatcher's folder and exclusion tests", () => {
  test.each([
    ['a wildcard', ['*'], 'fileutils.go', true],
    ['a simple pattern', ['*.go'], 'fileutils.go', true],
    ['an exclusion before the pattern is undone by it', ['!fileutils.go', '*.go'], 'fileutils.go', true],
    ['an exclusion after the pattern wins', ['*.go', '!fileutils.go'], 'fileutils.go', false],
    ['a folder, then an exception inside it', ['docs', '!docs/README.md'], 'docs/README.md', false],
    ['a folder with a slash, then an exception', ['docs/', '!docs/README.md'], 'docs/README.md', false],
    ['a folder wildcard, then an exception', ['docs/*', '!docs/README.md'], 'docs/README.md', false],
    ['no patterns', [], 'any/path/there', false],
    ['the context itself is never excluded', ['*.go'], '.', false],
  ])('%s', (_name, patterns, path, matches) => {
    expect(ignores(patterns, path)).toBe(matches);
  });

  test('a malformed pattern and a lone "!" are errors, as Docker refuses them', () => {
    expect(() => ignores(['['], 'any/path/there')).toThrow(DockerIgnorePatternError);
    expect(() => dockerIgnore(['!'])).toThrow(DockerIgnorePatternError);
  });

  test('a folder matched at any level above the path matches it (MatchesOrParentMatches, not the deprecated Matches of Docker 19.03)', () => {
    expect(ignores(['dist'], 'dist/a/b.js')).toBe(true);
    expect(ignores(['**/c'], 'x/y/c/d')).toBe(true); // Matches looked at "x/y" only
    expect(ignores(['a/*/c'], 'a/b/c/d/e')).toBe(true);
  });

  test('characters a regular expression gives meaning to are literal in a wildcard pattern too', () => {
    expect(ignores(['a(b)c/*'], 'a(b)c/x')).toBe(true);
    expect(ignores(['a(b)c/*'], 'abc/x')).toBe(false);
    expect(ignores(['x+y/*.js'], 'x+y/a.js')).toBe(true);
    expect(ignores(['{a,b}/*'], '{a,b}/x')).toBe(true);
    expect(ignores(['a|b*'], 'b')).toBe(false);
  });

  test('anchored at the root, unlike .gitignore: "dist" is ./dist only, and a folder pattern covers what is under it', () => {
    expect(ignores(['dist'], 'dist/index.js')).toBe(true);
    expect(ignores(['dist'], 'src/dist/index.js')).toBe(false);
    expect(ignores(['*.md'], 'docs/guide.md')).toBe(false);
    expect(ignores(['Dockerfile'], 'Dockerfile')).toBe(true);
    expect(ignores(['dockerfile'], 'Dockerfile')).toBe(false); // case-sensitive, as on Linux
  });
});

describe("Docker's reference examples", () => {
  test('*/temp*: names starting with temp one level below the root', () => {
    const rules = dockerIgnore(['*/temp*']);
    expect(rules.ignores('somedir/temporary.txt')).toBe(true);
    expect(rules.ignores('somedir/temp')).toBe(true);
    expect(rules.ignores('temporary.txt')).toBe(false);
    expect(rules.ignores('a/b/temp')).toBe(false);
  });
  test('*/*/temp*: two levels below the root', () => {
    expect(ignores(['*/*/temp*'], 'somedir/subdir/temporary.txt')).toBe(true);
    expect(ignores(['*/*/temp*'], 'somedir/temporary.txt')).toBe(false);
  });
  test('temp?: one more character, at the root', () => {
    const rules = dockerIgnore(['temp?']);
    expect([rules.ignores('tempa'), rules.ignores('tempb'), rules.ignores('temp'), rules.ignores('tempab'), rules.ignores('x/tempa')]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
  test('**/*.go: in every folder', () => {
    expect(['a.go', 'x/a.go', 'x/y/z/a.go', 'a.gox'].map((path) => ignores(['**/*.go'], path))).toEqual([true, true, true, false]);
  });
  test('*.md, !README.md: every Markdown file but the README', () => {
    expect(ignores(['*.md', '!README.md'], 'CHANGELOG.md')).toBe(true);
    expect(ignores(['*.md', '!README.md'], 'README.md')).toBe(false);
  });
  test('*.md, !README*.md, README-secret.md: no Markdown but the READMEs, except README-secret.md', () => {
    const rules = dockerIgnore(['*.md', '!README*.md', 'README-secret.md']);
    expect(['a.md', 'README.md', 'README-ops.md', 'README-secret.md'].map((path) => rules.ignores(path))).toEqual([true, false, false, true]);
  });
  test('*.md, README-secret.md, !README*.md: the last line wins, every README is in', () => {
    const rules = dockerIgnore(['*.md', 'README-secret.md', '!README*.md']);
    expect(['a.md', 'README.md', 'README-secret.md'].map((path) => rules.ignores(path))).toEqual([true, false, false]);
  });
});

describe('reading the file (ignorefile.ReadAll)', () => {
  test('comments, blank lines, spaces, a BOM, CRLF, a leading "/" and unclean paths', () => {
    const text = '\uFEFF# a comment\r\n\r\n  /dist/  \r\n!  /dist/keep.js\nsrc/../build\n./tmp\n #not a comment\n';
    expect(readDockerIgnore(text)).toEqual(['dist', '!dist/keep.js', 'build', 'tmp', '#not a comment']);
  });
  test('hasExclusions says whether a left-out folder must still be walked', () => {
    expect(dockerIgnore(readDockerIgnore('dist\n')).hasExclusions).toBe(false);
    expect(dockerIgnore(readDockerIgnore('dist\n!dist/keep.js\n')).hasExclusions).toBe(true);
  });
});
