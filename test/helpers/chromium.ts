/**
 * The Chromium the browser tests drive with playwright-core (which never downloads one): the Debian
 * package's binary, else `chromium` on PATH; scripts/test-setup.sh installs it. Undefined when absent.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const chromiumPath: string | undefined = ['/usr/bin', ...(process.env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '')]
  .map((dir) => join(dir, 'chromium'))
  .find((file) => existsSync(file));
