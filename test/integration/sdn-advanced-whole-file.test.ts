import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { parseSdnAdvanced, type SdnIssue } from '../../src/lists/ofac/sdn-advanced-parser';
import { openSdnSource } from '../../src/lists/ofac/sdn-source';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'ofac');
const WHOLE_ISSUE = 'sdn_advanced-2025-03-04.xml.bz2';

/** The sha256 of the uncompressed XML that test/fixtures/ofac/SOURCES.md gives for the whole issue. */
function documentedSha256(): string {
  const sources = readFileSync(path.join(FIXTURES, 'SOURCES.md'), 'utf8');
  const row = sources.split('\n').find((line) => line.startsWith(`| \`${WHOLE_ISSUE}\``));
  const sha = row && /uncompressed [\d,]+ bytes, sha256 ([0-9a-f]{64})/.exec(row)?.[1];
  if (!sha) throw new Error(`SOURCES.md gives no sha256 of the uncompressed ${WHOLE_ISSUE}`);
  return sha;
}

/**
 * A whole issue (116 MB of XML, bzip2-compressed), parsed as it streams. The bound on memory is what makes the
 * parser fit a worker: the document held whole would be 116 MB as a Buffer and more as a string.
 */
describe('parseSdnAdvanced on a whole issue', () => {
  let issue: SdnIssue;
  let rssGrowthMb: number;
  let seconds: number;

  beforeAll(async () => {
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const started = performance.now();
    try {
      issue = await parseSdnAdvanced(await openSdnSource(path.join(FIXTURES, WHOLE_ISSUE)));
    } finally {
      clearInterval(sampler);
    }
    seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    rssGrowthMb = (peak - rssBefore) / 1e6;
  }, 120_000);

  it('reads the issue date, every digital currency address and the sha256 of the uncompressed XML', () => {
    expect(issue.issueDate).toBe('2025-03-04');
    expect(issue.entries).toHaveLength(706);
    expect(issue.bytes).toBe(115_580_165);
    expect(issue.sha256).toBe(documentedSha256());
    expect(issue.entries.filter((e) => e.sdnName === 'TORNADO CASH')).toHaveLength(90);
  });

  it('gives exactly what the trimmed extract of the same issue gives', async () => {
    const trimmed = await parseSdnAdvanced(
      createReadStream(path.join(FIXTURES, 'sdn_advanced-2025-03-04.trimmed.xml.gz')).pipe(createGunzip()),
    );
    expect(trimmed.entries).toEqual(issue.entries);
  });

  it('never holds the document: peak RSS grows far less than its 116 MB', () => {
    // Measured at about 40–50 MB (parser garbage between collections); the whole document would add 116 MB or more.
    expect(rssGrowthMb).toBeLessThan(100);
    // Generous on a shared 2-core machine: about 3 s of CPU for bzip2 and 3 s for the parse when idle.
    expect(seconds).toBeLessThan(60);
  });
});
