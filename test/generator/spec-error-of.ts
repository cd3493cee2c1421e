/** The message of the SpecError a spec text is refused with; a spec that generates fails the test. */
import { expect } from 'vitest';
import { SpecError } from '../../generator/load/spec-error.js';
import { generateFromText } from '../helpers/generate.js';

export function specErrorOf(text: string, file = 'agentgen.yaml'): string {
  try {
    generateFromText(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as Error).message;
  }
  throw new Error('expected a spec error');
}
