/**
 * Debian's Chromium and the flags every spec launches it with: no sandbox (root in CI), no GPU,
 * and none of the background connections this machine's closed network refuses. Specs that need
 * more flags (a host rule, third-party cookies blocked) add theirs to these.
 */
export const chromiumPath = '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
