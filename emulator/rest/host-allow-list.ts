/**
 * Who may call the REST face: the `Host` allow-list (the DNS-rebinding defence: a page on
 * evil.example whose name now resolves to 127.0.0.1 sends `Host: evil.example`) and the loopback
 * origins CORS is granted to.
 */

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The origins of loopback pages, granted CORS so the generated client also runs from a dev server's page. */
export const loopbackOrigin = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** The name part of a `Host` header (`[::1]:8600` -> `[::1]`), lower-cased; undefined when malformed. */
function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(:\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase();
}

function hostAllowed(host: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (host === undefined) return false;
  const name = hostName(host);
  if (name === undefined) return false;
  return loopbackHosts.has(name) || allowed.has(name) || allowed.has(host.trim().toLowerCase());
}

/**
 * `Host` values found allowed, so that the check (a regular expression) runs once per value
 * rather than once per call; bounded as the request targets are (request-targets.ts). Only
 * allowed values are kept: the answer for a value never changes while dev runs.
 */
function allowedHostsMemo(allowed: ReadonlySet<string>): (host: string | undefined) => boolean {
  const seen = new Set<string>();
  return (host) => {
    if (host !== undefined && seen.has(host)) return true;
    if (!hostAllowed(host, allowed)) return false;
    if (host !== undefined && host.length <= 300) {
      if (seen.size >= 64) seen.clear();
      seen.add(host);
    }
    return true;
  };
}

/** The check of a `Host` header against the loopback names and `--allowed-host`. */
export function hostCheck(allowedHosts: readonly string[] | undefined): (host: string | undefined) => boolean {
  const allowed = new Set((allowedHosts ?? []).map((name) => name.trim().toLowerCase()).filter((name) => name.length > 0));
  return allowedHostsMemo(allowed);
}
