/**
 * The parse half of loading an OFAC list: one whole SDN Advanced issue (default: the 116 MB one of 2025-03-04
 * in test/fixtures/ofac, bzip2-compressed) read through openSdnSource and parseSdnAdvanced, with its wall time,
 * this process's CPU time and its peak RSS, sampled every 10 ms. bzip2 decompresses in a child process, on the
 * other core: `/usr/bin/time -v npx tsx bench/sdn-parse.ts` adds its CPU time.
 *
 *   npx tsx bench/sdn-parse.ts [issue: path or URL, .xml/.gz/.bz2]
 *
 * Wall time on a busy machine is mostly waiting for a core; the CPU time says what the parse costs.
 */
import path from 'node:path';
import { parseSdnAdvanced } from '../src/lists/ofac/sdn-advanced-parser';
import { openSdnSource } from '../src/lists/ofac/sdn-source';

async function main(): Promise<void> {
  const location =
    process.argv[2] ?? path.join(__dirname, '..', 'test', 'fixtures', 'ofac', 'sdn_advanced-2025-03-04.xml.bz2');
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const issue = await parseSdnAdvanced(await openSdnSource(location));
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const cpu = process.cpuUsage(cpuBefore);
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const s = (micros: number) => `${(micros / 1e6).toFixed(1)} s`;
  console.log(
    [
      `issue ${issue.issueDate}: ${issue.entries.length} entries from ${mb(issue.bytes)} of XML`,
      `sha256 ${issue.sha256}`,
      `wall ${(wallMs / 1000).toFixed(1)} s; this process CPU ${s(cpu.user)} user + ${s(cpu.system)} system`,
      `peak RSS ${mb(peak)} (${mb(rssBefore)} before, growth ${mb(peak - rssBefore)})`,
    ].join('\n'),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
