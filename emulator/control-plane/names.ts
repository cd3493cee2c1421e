/**
 * Names a caller gives an engine, checked where they enter: `display_name` and each
 * `class_methods[].name` are 1 to 128 characters (what Vertex AI's other resources say of their
 * display names: "up to 128 characters long"), none of them a control character. A method's name is
 * printed on every log line of a call to it, and a display name is answered to every reader: a
 * 5,000-character name or one carrying terminal escapes has no business in either. The refusal
 * names the field, never the value.
 */
import { invalidArgument } from '../google-api/service-error.js';

const maxNameLength = 128;
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

export function checkName(value: unknown, where: string): void {
  if (typeof value !== 'string') return; // the proto check or the method table says what is wrong
  if ([...value].length > maxNameLength || controlCharacter.test(value)) {
    throw invalidArgument(`Invalid '${where}': at most ${maxNameLength} characters, none of them a control character.`);
  }
}

/**
 * An environment variable's name, as Cloud Run takes it: printable ASCII without `=` (and at most
 * 256 characters here). A name with `=`, a NUL or a newline reached the revision's process start
 * and failed it with Node's own message; it also went to dev's log (secretEnv's names).
 */
const envName = /^[\x21-\x3c\x3e-\x7e]{1,256}$/;

/** `deploymentSpec.env` and `secretEnv`: each name shaped as above, each value without a NUL (which no environment can hold). */
export function checkEnvironment(deploymentSpec: unknown): void {
  if (typeof deploymentSpec !== 'object' || deploymentSpec === null) return;
  for (const field of ['env', 'secretEnv'] as const) {
    const entries = (deploymentSpec as Record<string, unknown>)[field];
    if (!Array.isArray(entries)) continue;
    const where = `spec.deployment_spec.${field === 'env' ? 'env' : 'secret_env'}`;
    entries.forEach((entry: unknown, index) => {
      const { name, value } = (typeof entry === 'object' && entry !== null ? entry : {}) as { name?: unknown; value?: unknown };
      if (typeof name !== 'string' || !envName.test(name)) {
        throw invalidArgument(`Invalid '${where}[${index}].name': 1 to 256 printable ASCII characters, no '=' and no space.`);
      }
      if (typeof value === 'string' && value.includes('\u0000')) throw invalidArgument(`Invalid '${where}[${index}].value': it holds a NUL character.`);
    });
  }
}

/** Each `classMethods[i].name` of a spec. */
export function checkMethodNames(classMethods: unknown): void {
  if (!Array.isArray(classMethods)) return;
  classMethods.forEach((entry: unknown, index) => {
    if (typeof entry === 'object' && entry !== null) checkName((entry as { name?: unknown }).name, `spec.class_methods[${index}].name`);
  });
}
