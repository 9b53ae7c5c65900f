/**
 * Writes a trimmed extract of an OFAC SDN Advanced issue for test/fixtures/ofac: the root element, DateOfIssue,
 * the reference value sets the parser reads, every party with a digital currency address and its sanctions
 * entries, plus the first few parties without one (to prove they are skipped), gzipped. The parties and entries
 * kept are copied whole, as the issue has them; the other sections (locations, ID documents, relationships,
 * entry links) are kept as empty elements.
 *
 *   npx tsx scripts/trim-sdn-advanced.ts <issue: path or URL, .xml/.gz/.bz2> <out.xml.gz> [parties without: 2]
 *
 * test/fixtures/ofac/SOURCES.md lists the commands that made the fixtures.
 */
import { createWriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { DIGITAL_CURRENCY_FEATURE_PREFIX } from '../src/lists/ofac/sdn-reference-values';
import { openSdnSource } from '../src/lists/ofac/sdn-source';

/** The reference value sets src/lists/ofac/sdn-reference-values.ts reads, and the program names for a reader. */
const KEPT_REFERENCE_SETS = new Set([
  'FeatureTypeValues',
  'PartySubTypeValues',
  'PartyTypeValues',
  'SanctionsTypeValues',
  'SanctionsProgramValues',
  'ListValues',
  'EntryEventTypeValues',
  'NamePartTypeValues',
  'DocNameStatusValues',
  'AliasTypeValues',
]);

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) => escapeText(value).replace(/"/g, '&quot;');

function openTagText(tag: SaxesTagPlain): string {
  const attributes = Object.entries(tag.attributes)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  return `<${tag.name}${attributes}${tag.isSelfClosing ? ' />' : '>'}`;
}

interface Copy {
  /** Depth of the copied element: 2 for DateOfIssue, 3 for a reference value set, a party or an entry. */
  depth: number;
  section: string;
  text: string[];
  keep: boolean;
  profileId?: string;
}

async function trim(location: string, outFile: string, partiesWithout: number): Promise<void> {
  const out = new PassThrough();
  const written = pipeline(out, createGzip({ level: 9 }), createWriteStream(outFile));
  out.write('<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n');

  const digitalCurrencyFeatureTypes = new Set<string>();
  const keptProfiles = new Set<string>();
  const kept = { parties: 0, partiesWithout: 0, entries: 0 };

  // Depth 1 is the root, 2 its sections, 3 their children (a reference value set, a party, an entry).
  let depth = 0;
  let section = '';
  let sectionHasChildren = false;
  let copy: Copy | null = null;
  let featureType: { id: string; text: string } | null = null;

  const decide = (done: Copy) => {
    if (done.section === 'DistinctParties' && !done.keep && kept.partiesWithout < partiesWithout) {
      kept.partiesWithout += 1;
      done.keep = true;
    }
    if (!done.keep) return;
    out.write(`\n${done.depth === 2 ? '  ' : '    '}${done.text.join('')}`);
    sectionHasChildren = done.depth === 3;
    if (done.section === 'DistinctParties') {
      kept.parties += 1;
      if (done.profileId) keptProfiles.add(done.profileId);
    }
    if (done.section === 'SanctionsEntries') kept.entries += 1;
  };

  const xml = new SaxesParser();
  xml.on('opentag', (tag) => {
    depth += 1;
    if (depth === 2) {
      section = tag.name;
      sectionHasChildren = false;
    }
    if (!copy && depth === 2 && section === 'DateOfIssue') copy = { depth, section, text: [], keep: true };
    if (!copy && depth === 3) {
      const keep =
        (section === 'ReferenceValueSets' && KEPT_REFERENCE_SETS.has(tag.name)) ||
        (section === 'SanctionsEntries' && keptProfiles.has(tag.attributes.ProfileID ?? ''));
      copy = { depth, section, text: [], keep };
    }
    if (!copy) {
      out.write(`${depth === 2 ? '\n  ' : ''}${openTagText(tag)}`);
      return;
    }
    copy.text.push(openTagText(tag));
    if (tag.name === 'FeatureType' && tag.attributes.ID) featureType = { id: tag.attributes.ID, text: '' };
    if (tag.name === 'Profile' && copy.section === 'DistinctParties') copy.profileId = tag.attributes.ID;
    if (tag.name === 'Feature' && digitalCurrencyFeatureTypes.has(tag.attributes.FeatureTypeID ?? '')) copy.keep = true;
  });
  xml.on('text', (text) => {
    if (!copy) return;
    copy.text.push(escapeText(text));
    if (featureType) featureType.text += text;
  });
  xml.on('closetag', (tag) => {
    if (featureType && tag.name === 'FeatureType') {
      if (featureType.text.trim().startsWith(DIGITAL_CURRENCY_FEATURE_PREFIX))
        digitalCurrencyFeatureTypes.add(featureType.id);
      featureType = null;
    }
    if (copy) {
      if (!tag.isSelfClosing) copy.text.push(`</${tag.name}>`);
      if (depth === copy.depth) {
        decide(copy);
        copy = null;
      }
    } else if (!tag.isSelfClosing) {
      // A section with kept children closes on a line of its own; an empty one closes at once.
      const before = depth === 1 ? '\n' : sectionHasChildren ? '\n  ' : '';
      out.write(`${before}</${tag.name}>`);
    }
    depth -= 1;
  });

  const source = await openSdnSource(location);
  // Decoded by the stream, so a character split between two chunks arrives whole.
  source.setEncoding('utf8');
  for await (const text of source) xml.write(text as string);
  xml.close();
  out.end('\n');
  await written;
  console.log(
    `${outFile}: ${kept.parties} parties (${kept.partiesWithout} without digital currency addresses), ` +
      `${kept.entries} sanctions entries`,
  );
}

const [location, outFile, without] = process.argv.slice(2);
if (!location || !outFile) {
  console.error('usage: npx tsx scripts/trim-sdn-advanced.ts <issue path or URL> <out.xml.gz> [parties without: 2]');
  process.exit(2);
}
trim(location, outFile, Number(without ?? 2)).catch((err) => {
  console.error(err);
  process.exit(1);
});
