/**
 * The checker's JUnit XML report, for CI systems that show test results: one `testcase` per case.
 * A violation is a `failure`; advice is a `failure` too with `--strict`, else a pass that carries
 * its finding in `system-out`; not checked is `skipped` with the reason. Each case's grade and
 * rule are `property` elements. Every text from the container or the spec (case names hold
 * operation names) goes through `xmlText` / `xmlAttribute`.
 */
import { conformanceSummary, findingOf } from './report.js';
import type { CaseResult } from './types.js';

const suiteName = 'agentgen conformance';

export function formatConformanceJunit(results: readonly CaseResult[], strict = false): string {
  const failures = results.filter((r) => r.status === 'fail' || (strict && r.status === 'advice')).length;
  const skipped = results.filter((r) => r.status === 'not-checked').length;
  const counts = `tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(suiteName)}" ${counts}>`,
    `  <testsuite name="${xmlAttribute(suiteName)}" ${counts}>`,
    `    <properties><property name="summary" value="${xmlAttribute(conformanceSummary(results))}"/></properties>`,
  ];
  for (const r of results) lines.push(...testcase(r, strict));
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}

function testcase(r: CaseResult, strict: boolean): string[] {
  const finding = findingOf[r.status];
  const detail = `expected: ${r.expected}\nobserved: ${r.observed}\nrule: ${r.rule}`;
  const lines = [
    `    <testcase classname="conformance" name="${xmlAttribute(r.case)}">`,
    '      <properties>',
    `        <property name="grade" value="${xmlAttribute(r.grade)}"/>`,
    `        <property name="finding" value="${xmlAttribute(finding)}"/>`,
    `        <property name="rule" value="${xmlAttribute(r.rule)}"/>`,
    '      </properties>',
  ];
  if (r.status === 'fail' || (strict && r.status === 'advice')) {
    lines.push(`      <failure type="${xmlAttribute(finding)}" message="${xmlAttribute(r.observed)}">${xmlText(detail)}</failure>`);
  } else if (r.status === 'not-checked') {
    lines.push(`      <skipped message="${xmlAttribute(r.observed)}"/>`);
  } else if (r.status === 'advice') {
    lines.push(`      <system-out>${xmlText(`advice: ${detail}`)}</system-out>`);
  }
  lines.push('    </testcase>');
  return lines;
}

/**
 * Characters XML 1.0 cannot hold at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) become
 * `\uXXXX` text, so the report stays well-formed whatever a container answered.
 */
function legal(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function xmlText(text: string): string {
  return legal(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Also quotes and the whitespace a parser would normalise away in an attribute. */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}
