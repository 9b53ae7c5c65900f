/**
 * The few reference value sets of an SDN Advanced issue that the parser needs to read parties and sanctions
 * entries; every other set (countries, legal bases, ID document types…) is skipped as it streams by. Each set is
 * small (at most a few hundred values) and comes first in the document, before the parties that refer to it.
 */

/** Value element → the set element that holds it, for the sets kept. */
const KEPT_SETS: Readonly<Record<string, string>> = {
  FeatureTypeValues: 'FeatureType',
  PartySubTypeValues: 'PartySubType',
  PartyTypeValues: 'PartyType',
  SanctionsTypeValues: 'SanctionsType',
  ListValues: 'List',
  EntryEventTypeValues: 'EntryEventType',
  NamePartTypeValues: 'NamePartType',
  DocNameStatusValues: 'DocNameStatus',
};

export const DIGITAL_CURRENCY_FEATURE_PREFIX = 'Digital Currency Address - ';

export class SdnReferenceValues {
  /** Value element name (FeatureType, PartyType…) → ID → text. */
  private readonly byKind = new Map<string, Map<string, string>>();
  /** PartySubType ID → its PartyTypeID: a profile names its subtype, whose type is Individual, Entity… */
  private readonly partyTypeOfSubType = new Map<string, string>();
  /** FeatureTypeID → asset code, for the "Digital Currency Address - <ASSET>" feature types only. */
  readonly digitalCurrencyAssets = new Map<string, string>();

  /** True when `element`, directly inside `set`, is a value of a kept set: its text is then worth reading. */
  isKeptValue(set: string | undefined, element: string): boolean {
    return set !== undefined && KEPT_SETS[set] === element;
  }

  add(element: string, attributes: Record<string, string>, text: string): void {
    const id = attributes.ID;
    if (id === undefined) return;
    const value = text.trim();
    const values = this.byKind.get(element) ?? new Map<string, string>();
    this.byKind.set(element, values);
    values.set(id, value);
    if (element === 'PartySubType' && attributes.PartyTypeID) this.partyTypeOfSubType.set(id, attributes.PartyTypeID);
    if (element === 'FeatureType' && value.startsWith(DIGITAL_CURRENCY_FEATURE_PREFIX)) {
      this.digitalCurrencyAssets.set(id, value.slice(DIGITAL_CURRENCY_FEATURE_PREFIX.length).trim());
    }
  }

  text(element: string, id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.byKind.get(element)?.get(id);
  }

  /** The IDs of `element` values whose text is `text` ("Created" event type, "Program" sanctions type…). */
  idsOf(element: string, text: string): Set<string> {
    const ids = new Set<string>();
    for (const [id, value] of this.byKind.get(element) ?? []) if (value === text) ids.add(id);
    return ids;
  }

  /** Individual, Entity, Transport… of a profile's PartySubTypeID; null when the issue does not say. */
  partyTypeOf(partySubTypeId: string | undefined): string | null {
    if (partySubTypeId === undefined) return null;
    return this.text('PartyType', this.partyTypeOfSubType.get(partySubTypeId)) ?? null;
  }
}
