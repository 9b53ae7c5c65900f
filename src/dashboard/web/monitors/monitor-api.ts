/** The paths of the monitors API (src/monitors/monitors-routes.ts). */
export const MONITORS_PATH = '/api/v1/monitors';

export const monitorPath = (id: string): string => `${MONITORS_PATH}/${encodeURIComponent(id)}`;

export const alertsPath = (id: string, limit: number, offset: number): string =>
  `${monitorPath(id)}/alerts?limit=${limit}&offset=${offset}`;
