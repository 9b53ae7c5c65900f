import { SdnFormatError } from './sdn-format-error';
import { formatPartyName, type NamePart } from './sdn-party-name';
import { SdnReferenceValues } from './sdn-reference-values';

/** A party (DistinctParty / Profile) that has digital currency addresses; parties without any are not kept. */
export interface SdnParty {
  /** The DistinctParty's FixedRef: OFAC's number for the party (the CSV's sdn_uid). */
  uid: string;
  name: string | null;
  type: string | null;
  /** In document order, as written. */
  addresses: { asset: string; address: string }[];
}

/** What a party's sanctions entries say about it. */
export interface SdnSanctions {
  /** Program codes (CYBER2, DPRK3…) in document order, each once. */
  programs: string[];
  /** The earliest "Created" entry event, YYYY-MM-DD. */
  designated: string | null;
}

export interface SdnDocument {
  issueDate: string;
  /** By Profile ID, in document order. */
  parties: Map<string, SdnParty>;
  /** By Profile ID, for the kept parties only. */
  sanctions: Map<string, SdnSanctions>;
}

type Attributes = Record<string, string>;
type DateParts = { Year?: string; Month?: string; Day?: string };

interface DocumentedName {
  primaryLatin: boolean;
  parts: { group: string | undefined; text: string }[];
}

/** The party being read: small, and dropped at its end tag unless it has digital currency addresses. */
interface PartyInProgress {
  uid: string;
  profileId: string | undefined;
  partySubTypeId: string | undefined;
  inPrimaryIdentity: boolean;
  inPrimaryAlias: boolean;
  documentedName: DocumentedName | null;
  names: DocumentedName[];
  /** NamePartGroup ID → NamePartTypeID, from the primary identity's NamePartGroups (they follow the names). */
  nameGroupTypes: Map<string, string>;
  /** The asset of the digital currency Feature being read, if any. */
  featureAsset: string | null;
  addresses: { asset: string; address: string }[];
}

interface EntryInProgress {
  profileId: string;
  programs: string[];
  dates: string[];
  inCreatedEvent: boolean;
  date: DateParts | null;
  inProgramMeasure: boolean;
}

const pad2 = (value: string) => value.padStart(2, '0');

/** YYYY-MM-DD from Year/Month/Day elements, or null when one is missing or the date does not exist. */
function isoDate(parts: DateParts): string | null {
  const { Year: y, Month: m, Day: d } = parts;
  if (!y || !m || !d || !/^\d{4}$/.test(y) || !/^\d{1,2}$/.test(m) || !/^\d{1,2}$/.test(d)) return null;
  const iso = `${y}-${pad2(m)}-${pad2(d)}`;
  const parsed = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso ? null : iso;
}

/**
 * Reads an SDN Advanced document from its XML events (open tag, text, close tag) and keeps only what a list of
 * sanctioned addresses needs: a few reference value sets, the parties with digital currency addresses (name, type,
 * addresses) and their sanctions entries (programs, designation date). Everything else streams by unkept, so
 * memory stays that of the parties kept, whatever the size of the issue.
 *
 * The document order the schema fixes is relied on where it saves memory: reference values before parties (a
 * feature's type is known when it is read), parties before sanctions entries (entries of other parties are
 * skipped). A DistinctParty before the ReferenceValueSets is refused as not an SDN Advanced document.
 */
export class SdnDocumentReader {
  private readonly stack: string[] = [];
  private readonly refs = new SdnReferenceValues();
  private referenceValuesRead = false;
  private partiesRead = false;
  private rootClosed = false;
  private programTypeIds = new Set<string>();
  private createdEventTypeIds = new Set<string>();
  private docNamePrimaryLatinIds = new Set<string>();

  private issueDateParts: DateParts | null = null;
  private readonly parties = new Map<string, SdnParty>();
  private readonly sanctions = new Map<string, { programs: Set<string>; dates: string[] }>();
  private party: PartyInProgress | null = null;
  private entry: EntryInProgress | null = null;

  /** The leaf element whose text is being collected: its depth, and what to do with the text at its end tag. */
  private captureDepth = 0;
  private captureText = '';
  private onCaptured: ((text: string) => void) | null = null;
  /** The longest text kept for one element (its text nodes and CDATA sections together). */
  private readonly maxTextChars: number;

  constructor(options: { maxTextChars: number }) {
    this.maxTextChars = options.maxTextChars;
  }

  openTag(name: string, attributes: Attributes): void {
    const parent = this.stack[this.stack.length - 1];
    this.stack.push(name);
    if (this.stack.length === 1) {
      if (name !== 'Sanctions')
        throw new SdnFormatError(`the document's root element is <${name}>, not the <Sanctions> of SDN Advanced XML`);
      return;
    }
    switch (name) {
      case 'DateOfIssue':
        if (parent === 'Sanctions') this.issueDateParts = {};
        return;
      case 'Year':
      case 'Month':
      case 'Day':
        this.openDatePart(name, parent);
        return;
      case 'DistinctParty':
        this.openParty(attributes);
        return;
      case 'Profile':
        if (this.party && parent === 'DistinctParty') {
          this.party.profileId = attributes.ID;
          this.party.partySubTypeId = attributes.PartySubTypeID;
        }
        return;
      case 'Identity':
        if (this.party && parent === 'Profile') this.party.inPrimaryIdentity = attributes.Primary === 'true';
        return;
      case 'Alias':
        if (this.party?.inPrimaryIdentity) this.party.inPrimaryAlias = attributes.Primary === 'true';
        return;
      case 'DocumentedName':
        if (this.party?.inPrimaryAlias) {
          const primaryLatin = this.docNamePrimaryLatinIds.has(attributes.DocNameStatusID ?? '');
          this.party.documentedName = { primaryLatin, parts: [] };
        }
        return;
      case 'NamePartValue': {
        const documentedName = this.party?.documentedName;
        if (documentedName) {
          const group = attributes.NamePartGroupID;
          this.capture((text) => documentedName.parts.push({ group, text }));
        }
        return;
      }
      case 'NamePartGroup':
        if (this.party?.inPrimaryIdentity && attributes.ID && attributes.NamePartTypeID)
          this.party.nameGroupTypes.set(attributes.ID, attributes.NamePartTypeID);
        return;
      case 'Feature':
        if (this.party && parent === 'Profile')
          this.party.featureAsset = this.refs.digitalCurrencyAssets.get(attributes.FeatureTypeID ?? '') ?? null;
        return;
      case 'VersionDetail': {
        const party = this.party;
        const asset = party?.featureAsset;
        if (party && asset) {
          this.capture((text) => {
            const address = text.trim();
            if (address) party.addresses.push({ asset, address });
          });
        }
        return;
      }
      case 'SanctionsEntry':
        this.openEntry(attributes);
        return;
      case 'EntryEvent':
        if (this.entry) this.entry.inCreatedEvent = this.createdEventTypeIds.has(attributes.EntryEventTypeID ?? '');
        return;
      case 'Date':
        if (this.entry?.inCreatedEvent && parent === 'EntryEvent') this.entry.date = {};
        return;
      case 'SanctionsMeasure':
        if (this.entry) this.entry.inProgramMeasure = this.programTypeIds.has(attributes.SanctionsTypeID ?? '');
        return;
      case 'Comment': {
        const entry = this.entry;
        if (entry?.inProgramMeasure && parent === 'SanctionsMeasure') {
          this.capture((text) => {
            const program = text.trim();
            if (program) entry.programs.push(program);
          });
        }
        return;
      }
      default:
        if (this.refs.isKeptValue(parent, name)) this.capture((text) => this.refs.add(name, attributes, text));
    }
  }

  text(text: string): void {
    if (!this.onCaptured) return;
    // Comments split an element's text into many nodes, each short: the sum is bounded too.
    if (this.captureText.length + text.length > this.maxTextChars)
      throw new SdnFormatError(
        `the text of <${this.stack[this.stack.length - 1]}> ` +
          `is longer than ${this.maxTextChars} characters: not an SDN issue`,
      );
    this.captureText += text;
  }

  closeTag(name: string): void {
    const depth = this.stack.length;
    if (this.onCaptured && depth === this.captureDepth) {
      const onCaptured = this.onCaptured;
      this.onCaptured = null;
      onCaptured(this.captureText);
    }
    this.stack.pop();
    switch (name) {
      case 'Sanctions':
        if (depth === 1) this.rootClosed = true;
        return;
      case 'ReferenceValueSets':
        this.closeReferenceValues();
        return;
      case 'DistinctParty':
        this.closeParty();
        return;
      case 'DistinctParties':
        this.partiesRead = true;
        return;
      case 'Identity':
        if (this.party) this.party.inPrimaryIdentity = false;
        return;
      case 'Alias':
        if (this.party) this.party.inPrimaryAlias = false;
        return;
      case 'DocumentedName':
        if (this.party?.documentedName) {
          this.party.names.push(this.party.documentedName);
          this.party.documentedName = null;
        }
        return;
      case 'Feature':
        if (this.party) this.party.featureAsset = null;
        return;
      case 'SanctionsEntry':
        this.closeEntry();
        return;
      case 'EntryEvent':
        if (this.entry) this.entry.inCreatedEvent = false;
        return;
      case 'Date':
        if (this.entry?.date) {
          const date = isoDate(this.entry.date);
          if (date) this.entry.dates.push(date);
          this.entry.date = null;
        }
        return;
      case 'SanctionsMeasure':
        if (this.entry) this.entry.inProgramMeasure = false;
        return;
    }
  }

  /** What the document held; throws SdnFormatError when it was not a whole SDN Advanced document. */
  finish(): SdnDocument {
    if (this.stack.length === 0 && !this.rootClosed)
      throw new SdnFormatError('the input holds no XML element: not an SDN Advanced XML document');
    if (!this.rootClosed)
      throw new SdnFormatError(`the document ends inside <${this.stack.join('/')}>: the input is truncated`);
    if (!this.issueDateParts) throw new SdnFormatError('the document has no DateOfIssue');
    const issueDate = isoDate(this.issueDateParts);
    if (!issueDate) throw new SdnFormatError(`DateOfIssue is not a date: ${JSON.stringify(this.issueDateParts)}`);
    const sanctions = new Map<string, SdnSanctions>();
    for (const [profileId, { programs, dates }] of this.sanctions) {
      if (this.parties.has(profileId))
        sanctions.set(profileId, { programs: [...programs], designated: dates.sort()[0] ?? null });
    }
    return { issueDate, parties: this.parties, sanctions };
  }

  private capture(onCaptured: (text: string) => void): void {
    this.captureDepth = this.stack.length;
    this.captureText = '';
    this.onCaptured = onCaptured;
  }

  private openDatePart(name: 'Year' | 'Month' | 'Day', parent: string | undefined): void {
    const parts = parent === 'DateOfIssue' ? this.issueDateParts : parent === 'Date' ? this.entry?.date : null;
    if (parts) this.capture((text) => (parts[name] = text.trim()));
  }

  private closeReferenceValues(): void {
    this.referenceValuesRead = true;
    this.programTypeIds = this.refs.idsOf('SanctionsType', 'Program');
    this.createdEventTypeIds = this.refs.idsOf('EntryEventType', 'Created');
    this.docNamePrimaryLatinIds = this.refs.idsOf('DocNameStatus', 'Primary Latin');
  }

  private openParty(attributes: Attributes): void {
    if (!this.referenceValuesRead)
      throw new SdnFormatError('a DistinctParty comes before the ReferenceValueSets: not an SDN Advanced XML document');
    this.party = {
      uid: attributes.FixedRef ?? '',
      profileId: undefined,
      partySubTypeId: undefined,
      inPrimaryIdentity: false,
      inPrimaryAlias: false,
      documentedName: null,
      names: [],
      nameGroupTypes: new Map(),
      featureAsset: null,
      addresses: [],
    };
  }

  private closeParty(): void {
    const party = this.party;
    this.party = null;
    if (!party || party.addresses.length === 0) return;
    const uid = party.uid || party.profileId;
    if (!uid) throw new SdnFormatError('a DistinctParty with digital currency addresses has no FixedRef');
    const type = this.refs.partyTypeOf(party.partySubTypeId);
    const chosen = party.names.find((n) => n.primaryLatin) ?? party.names[0];
    const parts: NamePart[] = (chosen?.parts ?? []).map(({ group, text }) => ({
      text,
      type: this.refs.text('NamePartType', group === undefined ? undefined : party.nameGroupTypes.get(group)),
    }));
    this.parties.set(party.profileId ?? uid, {
      uid,
      name: formatPartyName(parts, type),
      type,
      addresses: party.addresses,
    });
  }

  private openEntry(attributes: Attributes): void {
    const profileId = attributes.ProfileID;
    // Entries of parties without addresses are skipped; should entries ever precede the parties, all are kept.
    if (!profileId || (this.partiesRead && !this.parties.has(profileId))) return;
    this.entry = { profileId, programs: [], dates: [], inCreatedEvent: false, date: null, inProgramMeasure: false };
  }

  private closeEntry(): void {
    const entry = this.entry;
    this.entry = null;
    if (!entry) return;
    // A party can have more than one entry (one per list it is on): its programs are all of theirs.
    const kept = this.sanctions.get(entry.profileId) ?? { programs: new Set<string>(), dates: [] };
    this.sanctions.set(entry.profileId, kept);
    for (const program of entry.programs) kept.programs.add(program);
    kept.dates.push(...entry.dates);
  }
}
