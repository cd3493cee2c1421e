/**
 * `${NAME}` references in the `deploy:` section, filled in from the environment at deploy time so
 * that CI can pass an image tag or a project without editing the spec. `$${` is a literal `${`.
 * Pure: the environment is a parameter.
 */

export type Environment = Readonly<Record<string, string | undefined>>;

const reference = /\$\$\{|\$\{([^}]*)\}?/g;
const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a value becomes: the text, or why it cannot be filled in. */
export type Filled = { readonly value: string } | { readonly problem: string };

/** True when `text` refers to a variable: its checks wait until the environment is known. */
export function hasReferences(text: string): boolean {
  for (const match of text.matchAll(reference)) if (match[0] !== '$${') return true;
  return false;
}

/**
 * `text` with every `${NAME}` replaced by the variable's value and `$${` by `${`. Without an
 * environment only the references' syntax is checked (and they are left as they are).
 */
export function fillReferences(text: string, env: Environment | undefined): Filled {
  let problem: string | undefined;
  const value = text.replace(reference, (match, name: string | undefined) => {
    if (match === '$${') return '${';
    if (!match.endsWith('}') || name === undefined || !variableName.test(name)) {
      problem ??= `${JSON.stringify(match)} is not a reference: write \${NAME} (letters, digits, _), or $\${ for a literal \${`;
      return match;
    }
    if (env === undefined) return match;
    const found = Object.hasOwn(env, name) ? env[name] : undefined;
    if (found === undefined) problem ??= `refers to the environment variable ${name}, which is not set`;
    return found ?? match;
  });
  return problem === undefined ? { value } : { problem };
}
