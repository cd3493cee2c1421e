/**
 * "Did you mean": the known name a mistyped one most likely meant. One rule for every place that
 * suggests (a spec's keys and schema keywords, the CLI's verbs and flags), so they agree.
 */

/**
 * The closest of `known` by edit distance (a swap of neighbours counts as one edit, case is
 * ignored), within a third of its length, or one it starts. Undefined when none is close; the
 * first of equally close names wins.
 */
export function nearestName(typed: string, known: Iterable<string>): string | undefined {
  const input = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const candidate = name.toLowerCase();
    const limit = Math.max(1, Math.floor(name.length / 3));
    // A prefix is as far as the letters it lacks; a length that differs by more than the limit is
    // too far whatever the letters (so a long typed name costs nothing to refuse).
    const prefix = input.length >= 2 && candidate.startsWith(input);
    const distance = prefix ? candidate.length - input.length : Math.abs(candidate.length - input.length) <= limit ? editDistance(input, candidate) : Infinity;
    if (!prefix && distance > limit) continue;
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
