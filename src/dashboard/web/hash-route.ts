import { useEffect, useState } from 'preact/hooks';

/** The dashboard's views live in the URL fragment (#/activity/<id>), so reloads and links keep the place. */
export function useHashRoute(): string[] {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const onChange = () => setParts(read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return parts;
}

export const hrefFor = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join('/')}`;
