/** One part of a documented name, with the NamePartType its group names (Last Name, First Name, Entity Name…). */
export interface NamePart {
  text: string;
  type: string | undefined;
}

/**
 * A party's primary name as OFAC prints it in its other lists and as data/risk/sanctions_ofac.csv holds it: an
 * individual as "LAST, First Middle" (last-name parts, a comma, then the other parts in document order), anything
 * else as its parts in document order.
 */
export function formatPartyName(parts: readonly NamePart[], partyType: string | null): string | null {
  const texts = (list: readonly NamePart[]) =>
    list
      .map((p) => p.text.trim())
      .filter((t) => t !== '')
      .join(' ');
  if (partyType === 'Individual') {
    const last = texts(parts.filter((p) => p.type === 'Last Name'));
    const rest = texts(parts.filter((p) => p.type !== 'Last Name'));
    if (last && rest) return `${last}, ${rest}`;
    return last || rest || null;
  }
  return texts(parts) || null;
}
