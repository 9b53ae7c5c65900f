/** Every panel gets the rest of the URL fragment after its own name (e.g. an activity id). */
export interface PanelProps {
  route: string[];
}
