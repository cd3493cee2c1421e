/**
 * The names an editor's or a tool's backup copy may be a copy of: `.env~`, `#.env#`, `.env.swp`,
 * `id_rsa.bak` hold what `.env` and `id_rsa` hold, so the secret rules must see through them.
 * Emacs (`name~`, `#name#`, `.#name`), Vim (`.name.swp`, `.swo`, ...), GNU cp's numbered backups
 * (`name.~1~`), merge tools (`.orig`, `.rej`) and the usual hand-made copies (`.bak`, `.old`, ...).
 */

const backupSuffixes = ['~', '.bak', '.backup', '.bk', '.orig', '.rej', '.old', '.save', '.sav', '.tmp', '.temp', '.copy', '.swp', '.swo', '.swn', '.swx'];
const vimSwapSuffixes = new Set(['.swp', '.swo', '.swn', '.swx']);

/** A name can wear several decorations (`.env.bak~`); past this many it is not a backup anyone made by hand. */
const maxLayers = 4;

/** One decoration taken off `name` (lower case), and whether it was Vim's swap, or undefined when it wears none. */
function strip(name: string): { inner: string; swap: boolean } | undefined {
  if (name.length > 2 && name.startsWith('#') && name.endsWith('#')) return { inner: name.slice(1, -1), swap: false };
  if (name.length > 2 && name.startsWith('.#')) return { inner: name.slice(2), swap: false };
  const numbered = /\.~\d{1,6}~$/.exec(name);
  if (numbered !== null && numbered.index > 0) return { inner: name.slice(0, numbered.index), swap: false };
  for (const suffix of backupSuffixes) {
    if (name.length > suffix.length && name.endsWith(suffix)) return { inner: name.slice(0, -suffix.length), swap: vimSwapSuffixes.has(suffix) };
  }
  return undefined;
}

/**
 * Every name `name` (lower case) may be a backup of, innermost last: `#.env.bak#` gives `.env.bak`
 * and `.env`. Vim names the swap file of `id_rsa` `.id_rsa.swp`, so after a swap suffix the
 * leading dot is taken off too. Empty for a name that wears no decoration.
 */
export function backupOriginals(name: string): string[] {
  const originals: string[] = [];
  let current = name;
  for (let layer = 0; layer < maxLayers; layer++) {
    const stripped = strip(current);
    if (stripped === undefined) break;
    current = stripped.inner;
    originals.push(current);
    if (stripped.swap && current.length > 1 && current.startsWith('.')) originals.push(current.slice(1));
  }
  return originals;
}
