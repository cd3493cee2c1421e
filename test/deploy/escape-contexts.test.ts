/**
 * The escapes the deploy formats add to `generator/emit/escape.ts`, re-parsed by the real parsers:
 * HCL strings by @cdktf/hcl2json, shell words by bash. Random strings (any code point, the
 * template and quote characters made frequent) must come back exactly as they went in.
 */
import { parse } from '@cdktf/hcl2json';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { hclIdentifier, hclString, shellQuote, terraformJsonString } from '../../generator/schema/escape.js';
import { runProcess } from './run-cli.js';

/** Strings rich in what each context treats specially; no NUL (no shell word can hold one) and no lone surrogate (not UTF-8). */
const tricky = fc
  .array(
    fc.oneof(
      fc.constantFrom('${', '%{', '$${', '%%{', '}', '"', "'", '\\', '\n', '\r', '\t', '\u2028', '\u007f', '\u0001', '$(', '`', '!', '~', 'é', '😀'),
      fc.string({ unit: 'grapheme' }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join('').replace(/\u0000/g, ''));

const samples = fc.sample(tricky, { numRuns: 300, seed: 10 });
const untemplate = (text: string) => text.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{');

describe('hclString', () => {
  test('examples', () => {
    expect(hclString('a "b" \\ ${x} %{y} $${z}\n\u0001')).toBe('"a \\"b\\" \\\\ $${x} %%{y} $$${z}\\n\\u0001"');
  });

  // HCL reads every string in Unicode NFC (escaped characters too): that form is what Terraform sends.
  test('every sample parses back to itself (in NFC, as HCL reads all text) through hcl2json, and never as an expression', async () => {
    const file = samples.map((text, i) => `v${i} = ${hclString(text)}\n`).join('');
    const parsed = (await parse('samples.tf', file)) as Record<string, string>;
    expect(samples.some((text) => text !== text.normalize('NFC'))).toBe(true); // the NFC step is exercised
    for (const [i, text] of samples.entries()) expect(untemplate(parsed[`v${i}`]!)).toBe(text.normalize('NFC'));
  });
});

describe('terraformJsonString and hclIdentifier', () => {
  test('template sequences are doubled in .tf.json strings; names become identifiers', () => {
    expect(terraformJsonString('${a} %{b} plain')).toBe('$${a} %%{b} plain');
    for (const text of samples) expect(untemplate(terraformJsonString(text))).toBe(text);
    expect(hclIdentifier('weather-agent')).toBe('weather-agent');
    expect(hclIdentifier('9 lives/"x"')).toBe('agent_9_lives__x_');
  });
});

describe('shellQuote', () => {
  test('every sample is one word that bash passes on unchanged', async () => {
    const script = `printf '%s\\0' ${samples.map(shellQuote).join(' ')}`;
    const run = await runProcess('bash', ['-c', script], { cwd: process.cwd() });
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\u0000').slice(0, -1)).toEqual(samples);
  });

  test('a NUL cannot be quoted', () => {
    expect(() => shellQuote('a\u0000b')).toThrow(/NUL/);
  });
});
