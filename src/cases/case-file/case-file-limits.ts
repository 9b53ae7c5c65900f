/**
 * What one case file may cost the api, whatever the case holds: a case joined by thousands of alerts, or with a
 * trail of thousands of entries, still makes a bounded file. Each cut is said in the file where it is made.
 */
export const CASE_FILE_LIMITS = {
  /** Jobs read (attached ones and the alerts' jobs, newest first). */
  jobs: 50,
  /** Jobs read from Postgres at the same time. */
  jobReadsAtOnce: 4,
  /** Alerts listed (newest first). */
  alerts: 100,
  /** Findings printed per job. */
  hitsPerJob: 100,
  /** Trail entries printed: the first half and the last half of them when the trail is longer. */
  trailEntries: 2000,
  /** Characters of one trail entry's detail printed. */
  trailDetailChars: 600,
  /** Nodes drawn of the graph (edges between them only). */
  graphNodes: 40,
  /** Edges listed under the picture. */
  graphEdges: 80,
  /** Characters of one answer's signed payload printed (longer: the JWS only, with where to fetch the payload). */
  payloadChars: 12_000,
  /** Case files rendered at the same time by one api process; the others wait their turn. */
  rendersAtOnce: 2,
} as const;
