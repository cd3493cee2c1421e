/** `agentgen breaking`'s report: a table for people, JSON for CI. */
import type { Comparison } from './compare-surfaces.js';
import type { Surface } from './surface.js';

export function reportTable(comparison: Comparison, before: Surface, after: Surface): string {
  const { changes } = comparison;
  const broken = changes.filter((c) => c.breaking).length;
  const lines = [`${before.label} → ${after.label}: ${broken} breaking, ${changes.length - broken} safe`];
  if (changes.length > 0) {
    const rows = changes.map((c) => [c.breaking ? 'BREAKING' : 'safe', c.rule, c.operation, c.message]);
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
    lines.push('', ...rows.map((row) => row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  ')));
  }
  if (!comparison.outputsCompared) lines.push('', 'results not compared: a manifest does not declare them (compare two spec files for that)');
  return `${lines.join('\n')}\n`;
}

export function reportJson(comparison: Comparison, before: Surface, after: Surface): string {
  const breaking = comparison.changes.filter((c) => c.breaking);
  return `${JSON.stringify({ old: before.label, new: after.label, breaking: breaking.length > 0, outputsCompared: comparison.outputsCompared, changes: comparison.changes }, null, 2)}\n`;
}
