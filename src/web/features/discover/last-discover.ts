// The Discover list a visitor last looked at, with its filters, for the way back to it from an
// event page ("Back to Discover"). Kept for the tab (sessionStorage); only an in-app path counts.

const KEY = 'townbeat:last-discover';

/** Remembers the Discover list now shown (`/?category=Music&sortBy=date`). */
export function rememberDiscover(url: string): void {
  try {
    sessionStorage.setItem(KEY, url);
  } catch {
    // Storage refused (private mode, quota): the way back is plain Discover.
  }
}

/** Where "Back to Discover" leads: the list last shown in this tab, else Discover itself. */
export function lastDiscover(): string {
  try {
    const url = sessionStorage.getItem(KEY);
    // An in-app path, never another site's address (`//host`) or a script.
    if (url && url.startsWith('/') && !url.startsWith('//')) return url;
  } catch {
    // As above.
  }
  return '/';
}
