import type { TrailEntry } from '../trail/trail-entry';
import type { CaseFileMaterial } from './case-file-material';
import { CASE_FILE_LIMITS } from './case-file-limits';
import { actorOf, clip, iso, thousands } from './format';
import type { Column, PdfWriter } from './pdf-writer';

function change(entry: TrailEntry): string {
  const before = entry.before;
  const after = entry.after;
  const parts = [`${entry.action}`, `${before?.state ?? 'new'} -> ${after.state}`];
  if (before && before.severity !== after.severity) parts.push(`${before.severity} -> ${after.severity}`);
  if (after.disposition && before?.disposition !== after.disposition) parts.push(`closed: ${after.disposition}`);
  return parts.join('\n');
}

const row = (e: TrailEntry): string[] => [
  String(e.seq),
  iso(e.at),
  actorOf(e),
  change(e),
  clip(JSON.stringify(e.detail), CASE_FILE_LIMITS.trailDetailChars),
  `hash:\n${e.hash}\nprev_hash:\n${e.prev_hash}\nkid: ${e.signature?.kid ?? '-'}`,
];

/** Rows drawn between two turns of the event loop: a long trail does not hold the api's other requests up. */
const ROWS_A_TURN = 100;

async function rows(w: PdfWriter, columns: Column[], entries: TrailEntry[]): Promise<void> {
  const table = w.startTable(columns, { size: 6.5 });
  for (const [i, e] of entries.entries()) {
    if (i > 0 && i % ROWS_A_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    table.row(row(e));
  }
  table.end();
}

/**
 * The audit trail, every entry printed (or the first and the last thousand of a longer one, saying which are left
 * out), on landscape pages so a hash fits on one line.
 */
export async function trailSection(w: PdfWriter, m: CaseFileMaterial): Promise<void> {
  w.turn('landscape');
  w.heading('6. The audit trail', 2);
  const { head, tail, total } = m.trail;
  w.paragraph(
    `${thousands(total)} entr${total === 1 ? 'y' : 'ies'}, in order: who acted (a member and the role they acted ` +
      'in, or the case workflow itself), when (UTC), what, and the state before and after. Each entry is chained to ' +
      'the one before by prev_hash and signed with the key kid names (section 7).',
    { muted: true },
  );
  const columns: Column[] = [
    { title: 'Seq', width: 26 },
    { title: 'Time (UTC)', width: 92 },
    { title: 'Actor', width: 118 },
    { title: 'Action, state', width: 86 },
    { title: 'Detail', width: w.width - 582 },
    { title: 'Hash, previous hash, signing key', width: 260, mono: true },
  ];
  await rows(w, columns, head);
  if (tail.length > 0) {
    const first = (head.at(-1)?.seq ?? 0) + 1;
    const last = (tail[0]?.seq ?? total + 1) - 1;
    w.paragraph(
      `Entries ${thousands(first)} to ${thousands(last)} are not printed: a case file prints at most ` +
        `${thousands(CASE_FILE_LIMITS.trailEntries)} entries, the first and the last half of them. GET ` +
        `/api/v1/cases/${m.record.id} returns every entry. The chain continues: entry ${thousands(last + 1)}'s ` +
        `prev_hash is entry ${thousands(last)}'s hash.`,
      { bold: true },
    );
    await rows(w, columns, tail);
  }
  if (total === 0) w.paragraph('The trail is empty.');
}
