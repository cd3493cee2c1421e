/**
 * Memory Bank without a model. The platform has an LLM extract facts from a conversation and an
 * embedding model rank them for a query; dev does both deterministically, so a test can say what
 * it will get: each text part of a user or model turn becomes one fact (whitespace collapsed),
 * and memories are ranked for a query by the share of the query's words they contain.
 */
import { isObject } from './fields.js';

/** The facts a list of `Content` objects (`{role, parts: [{text}]}`) gives, in order, without repeats. */
export function factsOf(contents: readonly unknown[]): string[] {
  const facts: string[] = [];
  for (const content of contents) {
    if (!isObject(content) || !Array.isArray(content['parts'])) continue;
    const role = content['role'];
    if (role !== undefined && role !== 'user' && role !== 'model') continue;
    for (const part of content['parts']) {
      const text = isObject(part) && typeof part['text'] === 'string' && part['thought'] !== true ? part['text'].replace(/\s+/g, ' ').trim() : '';
      if (text !== '' && !facts.includes(text)) facts.push(text);
    }
  }
  return facts;
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * How far a fact is from a query, from 0 (it has every word of the query) to 1 (none): smaller is
 * closer, as the platform's `distance`.
 */
export function lexicalDistance(query: string, fact: string): number {
  const wanted = words(query);
  if (wanted.size === 0) return 1;
  const present = words(fact);
  let shared = 0;
  for (const word of wanted) if (present.has(word)) shared++;
  return 1 - shared / wanted.size;
}
