// The npm registry reachable here lacks the other platforms' builds of native packages (@swc/core-darwin-*,
// @unrs/resolver-binding-win32-*, ...), so `npm install` leaves them out of package-lock.json and `npm ci`
// then rejects the lock as out of sync. This adds a lock entry for each missing optional platform package,
// with its os/cpu, so npm ci skips it on platforms it does not fit (the entries are never fetched here).
// Run after `npm install` whenever dependencies change: node scripts/lock-other-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const packages = lock.packages;
const OS = ['darwin', 'win32', 'linux', 'freebsd', 'android', 'openharmony', 'wasm32'];
const CPU = [
  ['x64', 'x64'],
  ['arm64', 'arm64'],
  ['ia32', 'ia32'],
  ['ppc64', 'ppc64'],
  ['s390x', 's390x'],
  ['riscv64', 'riscv64'],
  ['loong64', 'loong64'],
  ['arm-', 'arm'],
  ['universal', null],
];
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key] || packages[`${path}/node_modules/${name}`]) continue;
    const base = name.split('/').pop();
    const os = OS.find((o) => base.includes(`-${o}`));
    if (!os) continue; // not a platform build: leave it for npm to resolve
    const cpu = CPU.find(([needle]) => base.includes(`-${needle}`) || base.endsWith(`-${needle.replace('-', '')}`));
    packages[key] = {
      version: String(range).replace(/^[\^~=]/, ''),
      optional: true,
      os: [os],
      ...(cpu?.[1] ? { cpu: [cpu[1]] } : {}),
      ...(base.includes('musl') ? { libc: ['musl'] } : base.includes('gnu') ? { libc: ['glibc'] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} lock entries for other platforms`);
