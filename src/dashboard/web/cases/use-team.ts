import { useCallback, useEffect, useState } from 'preact/hooks';
import { useSession } from '../context';
import { TEAM_PATH } from './case-api';
import type { Team, TeamMember } from './case-types';
import { ROLE_WORDS } from './case-words';

/** "Test analyst 1", else the e-mail, else the start of the id: how a member is named on the page. */
export const memberLabel = (m: Pick<TeamMember, 'id' | 'displayName' | 'email'>): string =>
  m.displayName?.trim() || m.email || `member ${m.id.slice(0, 8)}`;

/**
 * The account's team (GET /api/v1/team), read once per panel: the cases name members by id, the page by name, and the
 * assign control offers the active members. Until it is in (or when it cannot be read) ids are shown shortened.
 */
export function useTeam() {
  const { api, me } = useSession();
  const [team, setTeam] = useState<Team | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let current = true;
    api
      .get<{ data: Team }>(TEAM_PATH)
      .then((body) => current && setTeam(body.data))
      .catch((err: unknown) => current && setError(err));
    return () => {
      current = false;
    };
  }, [api]);

  const myId = me.member.id;
  /** A member's name, "(you)" after the signed-in member's. */
  const nameOf = useCallback(
    (id: string | null | undefined): string => {
      if (!id) return 'nobody';
      const member = team?.members.find((m) => m.id === id);
      const name = member ? memberLabel(member) : `member ${id.slice(0, 8)}`;
      return id === myId ? `${name} (you)` : name;
    },
    [team, myId],
  );
  /** The same with the member's role: "Test approver 2 (approver)". */
  const nameWithRole = useCallback(
    (id: string, role?: string): string => {
      const known = role ?? team?.members.find((m) => m.id === id)?.role;
      return known ? `${nameOf(id)}, ${ROLE_WORDS[known as keyof typeof ROLE_WORDS] ?? known}` : nameOf(id);
    },
    [team, nameOf],
  );
  const active = team?.members.filter((m) => m.status === 'active') ?? [];
  const mine = team?.members.find((m) => m.id === myId);
  const myName = mine ? memberLabel(mine) : (me.email ?? `member ${myId.slice(0, 8)}`);
  return { team, active, error, nameOf, nameWithRole, myId, myName, myRole: me.member.role };
}

export type TeamNames = ReturnType<typeof useTeam>;
