/**
 * Parses a JUnit XML report with a real XML parser: Python's xml.etree.ElementTree (Python is
 * already needed for the FastAPI container; node_modules holds no XML parser). Malformed XML
 * makes the parse, and so the test, fail.
 */
import { spawnSync } from 'node:child_process';

export interface ParsedCase {
  readonly name: string;
  readonly properties: Record<string, string>;
  readonly failure?: { readonly type: string; readonly message: string; readonly text: string };
  readonly skipped?: string;
  readonly systemOut?: string;
}

export interface ParsedSuite {
  readonly attributes: Record<string, string>;
  readonly cases: ParsedCase[];
}

const script = `
import json, sys
import xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
suite = root.find('testsuite')
cases = []
for case in suite.findall('testcase'):
    entry = {'name': case.get('name'), 'properties': {p.get('name'): p.get('value') for p in case.iter('property')}}
    failure = case.find('failure')
    if failure is not None:
        entry['failure'] = {'type': failure.get('type'), 'message': failure.get('message'), 'text': failure.text or ''}
    skipped = case.find('skipped')
    if skipped is not None:
        entry['skipped'] = skipped.get('message')
    out = case.find('system-out')
    if out is not None:
        entry['systemOut'] = out.text or ''
    cases.append(entry)
print(json.dumps({'root': root.tag, 'attributes': dict(suite.attrib), 'cases': cases}))
`;

export function parseJunit(xml: string): ParsedSuite & { readonly root: string } {
  const run = spawnSync('/usr/bin/python3', ['-c', script], { input: xml, encoding: 'utf8', timeout: 20_000 });
  if (run.status !== 0) throw new Error(`the XML did not parse: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout) as ParsedSuite & { readonly root: string };
}
