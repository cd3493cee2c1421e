/**
 * Names a caller gives an engine, checked where they enter: `display_name` and each
 * `class_methods[].name` are 1 to 128 characters (what Vertex AI's other resources say of their
 * display names: "up to 128 characters long"), none of them a control character. A method's name is
 * printed on every log line of a call to it, and a display name is answered to every reader: a
 * 5,000-character name or one carrying terminal escapes has no business in either. The refusal
 * names the field, never the value.
 */
import { invalidArgument } from '../engine-services/service-error.js';

const maxNameLength = 128;
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

export function checkName(value: unknown, where: string): void {
  if (typeof value !== 'string') return; // the proto check or the method table says what is wrong
  if ([...value].length > maxNameLength || controlCharacter.test(value)) {
    throw invalidArgument(`Invalid '${where}': at most ${maxNameLength} characters, none of them a control character.`);
  }
}

/** Each `classMethods[i].name` of a spec. */
export function checkMethodNames(classMethods: unknown): void {
  if (!Array.isArray(classMethods)) return;
  classMethods.forEach((entry: unknown, index) => {
    if (typeof entry === 'object' && entry !== null) checkName((entry as { name?: unknown }).name, `spec.class_methods[${index}].name`);
  });
}
