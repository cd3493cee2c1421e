/**
 * `.dockerignore` as Docker reads it, for '/'-separated paths relative to the build context: a port
 * of moby/patternmatcher (`ignorefile.ReadAll`, `New` and `MatchesOrParentMatches`, the matcher
 * BuildKit and the classic builder use today; github.com/moby/patternmatcher @5a6d842, March 2026).
 * Not gitignore: a pattern is anchored at the context's root (`dist` is `./dist` only, not
 * `src/dist`), `*` and `?` stay within one path segment (Go's filepath.Match), `**` crosses any
 * number of them, a pattern that matches a folder matches everything under it, and a later `!`
 * pattern re-includes even inside an excluded folder.
 *
 * Patterns that need a regular expression run on re2js, RE2's linear-time engine, as moby's run on
 * Go's regexp (RE2 too): a backtracking engine took 11.4 s for a hostile pattern and a 36-character
 * name. And a pattern is matched against a path and its parent folders in one pass, not once a
 * parent, so a deep path costs its length, not its length times its depth.
 *
 * Hand-written rather than @balena/dockerignore 1.0.2: that package ports Docker 19.03's matcher,
 * which checks a single parent folder (Docker has since deprecated it as buggy), matches case-
 * insensitively by default (Docker on Linux does not) and escapes only `.` and `$`, so `(`, `+`,
 * `{` or `|` in a pattern become regular-expression syntax.
 */

import { RE2JS } from 're2js';
import { printableText } from '../../../terminal/printable-text.js';

export interface DockerIgnore {
  /** Whether `path` ('/'-separated, relative, no leading './') is left out of the context. */
  ignores(path: string): boolean;
  /** Whether any pattern re-includes (`!`): then a left-out folder must still be walked. */
  readonly hasExclusions: boolean;
}

/** A pattern Docker cannot compile (Go's filepath.ErrBadPattern), with the line as written. */
export class DockerIgnorePatternError extends Error {
  constructor(readonly pattern: string) {
    // The pattern is the project's text: escaped as file names are, so none reaches a terminal raw.
    super(`syntax error in pattern "${printableText(pattern)}"`);
  }
}

/** Go's path.Clean for '/'-separated paths: posix.normalize, less a trailing '/'. */
function clean(path: string): string {
  const normalized = posixNormalize(path);
  return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
}

function posixNormalize(path: string): string {
  if (path === '') return '.';
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined === '' ? '.' : joined;
}

/** ignorefile.ReadAll: one pattern a line, BOM and `#` comments dropped, cleaned, leading '/' removed. */
export function readDockerIgnore(text: string): string[] {
  const patterns: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (const line of lines) {
    if (line.startsWith('#')) continue;
    let pattern = line.trim();
    if (pattern === '') continue;
    const invert = pattern.startsWith('!');
    if (invert) pattern = pattern.slice(1).trim();
    if (pattern.length > 0) {
      pattern = clean(pattern);
      if (pattern.length > 1 && pattern.startsWith('/')) pattern = pattern.slice(1);
    }
    patterns.push(invert ? `!${pattern}` : pattern);
  }
  return patterns;
}

type MatchType = 'exact' | 'prefix' | 'suffix' | 'regexp';

interface Pattern {
  readonly exclusion: boolean;
  readonly cleaned: string;
  readonly type: MatchType;
  /** For a 'regexp' pattern: the pattern, or any folder above the path matching it (see selfOrParent). */
  readonly regexp: RE2JS | undefined;
}

/** Characters a regular expression gives meaning to that filepath.Match does not (patternmatcher's shouldEscape). */
const escaped = new Set(['.', '+', '(', ')', '|', '{', '}', '$']);

/** Pattern.compile: the pattern as one of four kinds of test, a regular expression only when needed. */
function compile(cleaned: string): { type: MatchType; regexp: RE2JS | undefined } {
  let source = '^';
  let type: MatchType = 'exact';
  const chars = [...cleaned]; // by code point, as Go's text/scanner reads runes
  for (let i = 0, index = 0; i < chars.length; i++, index++) {
    const ch = chars[i]!;
    if (ch === '*') {
      if (chars[i + 1] === '*') {
        i++;
        if (chars[i + 1] === '/') i++; // `**/` is `**`
        if (i + 1 >= chars.length) {
          // A trailing `**` accepts everything below, as in .gitignore.
          if (type === 'exact') type = 'prefix';
          else {
            source += '.*';
            type = 'regexp';
          }
        } else {
          source += '(.*/)?';
          type = 'regexp';
        }
        if (index === 0) type = 'suffix';
      } else {
        source += '[^/]*';
        type = 'regexp';
      }
    } else if (ch === '?') {
      source += '[^/]';
      type = 'regexp';
    } else if (escaped.has(ch)) {
      source += `\\${ch}`;
    } else if (ch === '\\') {
      if (i + 1 < chars.length) {
        source += `\\${chars[++i]!}`;
        type = 'regexp';
      } else source += '\\\\';
    } else if (ch === '[' || ch === ']') {
      source += ch;
      type = 'regexp';
    } else source += ch;
  }
  if (type !== 'regexp') return { type, regexp: undefined };
  try {
    // The path itself, or a folder above it: the pattern followed by '/' and anything ((?s): a name may hold a newline).
    return { type, regexp: RE2JS.compile(`${source}(?s:/.*)?$`) };
  } catch {
    throw new DockerIgnorePatternError(cleaned);
  }
}

/**
 * Whether the pattern matches `path` or one of the folders above it (MatchesOrParentMatches), in
 * one pass over the path: a folder above is the path cut just before one of its '/'.
 */
function selfOrParent(pattern: Pattern, path: string): boolean {
  switch (pattern.type) {
    case 'exact':
      return path === pattern.cleaned || path.startsWith(`${pattern.cleaned}/`);
    case 'prefix':
      // Every folder above the path is a prefix of it: when one starts so, the path does too.
      return path.startsWith(pattern.cleaned.slice(0, -2));
    case 'suffix': {
      const suffix = pattern.cleaned.slice(2);
      // A folder above ends with the suffix when the suffix and a '/' are in the path; `**/foo` also matches `foo` itself.
      if (path.endsWith(suffix) || path.includes(`${suffix}/`)) return true;
      if (!suffix.startsWith('/')) return false;
      const top = suffix.slice(1);
      return path === top || path.startsWith(`${top}/`);
    }
    case 'regexp':
      return pattern.regexp!.test(path);
  }
}

/** New + MatchesOrParentMatches over the patterns readDockerIgnore returned. */
export function dockerIgnore(patterns: readonly string[]): DockerIgnore {
  const compiled: Pattern[] = [];
  for (const raw of patterns) {
    let p = raw.trim();
    if (p === '') continue;
    p = clean(p);
    const exclusion = p.startsWith('!');
    if (exclusion) {
      if (p.length === 1) throw new DockerIgnorePatternError(raw);
      p = p.slice(1);
    }
    compiled.push({ exclusion, cleaned: p, ...compile(p) });
  }
  return {
    hasExclusions: compiled.some((pattern) => pattern.exclusion),
    ignores(path: string): boolean {
      const file = clean(path);
      if (file === '.') return false; // Docker never excludes the context itself
      let matched = false;
      for (const pattern of compiled) {
        // Only an exclusion can undo a match, only an inclusion can make one (a shortcut: the result is the same).
        if (pattern.exclusion !== matched) continue;
        if (selfOrParent(pattern, file)) matched = !pattern.exclusion;
      }
      return matched;
    },
  };
}
