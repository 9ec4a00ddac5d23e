import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '../../../contract/admin.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import AdminDashboardPage from './admin-dashboard-page.tsx';
import { awaitingDecision, describeAction } from './admin-overview.tsx';
import { OpenAdminDashboardContext } from './open-admin-dashboard.ts';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

const ME = buildUser({ id: 'a1', email: 'ada@example.test', role: 'admin' });
const user = (over: Partial<AdminUser>): AdminUser => ({
  id: 'u1',
  email: 'mel@example.test',
  firstName: 'Mel',
  lastName: 'Member',
  role: 'user',
  points: 40,
  disabled: false,
  createdAt: '2026-11-01T10:00:00Z',
  lastActiveAt: null,
  ...over,
});

const KEPT = { name: 'townbeat-backup-2026-11-26T12-00-00Z.tar.gz', at: '2026-11-26T12:00:00.000Z', bytes: 9_912_345 };
const TAKEN = { name: 'townbeat-backup-2026-11-27T09-30-00Z.tar.gz', at: '2026-11-27T09:30:00.000Z', bytes: 9_954_000 };

function api(opts: { score?: number; patchStatus?: number; failing?: number; leftOut?: number; held?: number; pending?: number; duplicates?: number; database?: 'embedded' | 'postgres'; backupError?: string } = {}) {
  const patches: { url: string; body: unknown }[] = [];
  let people = [user({ id: 'a1', email: 'ada@example.test', role: 'admin' }), user({})];
  const kept = [KEPT];
  const fetch = stubFetch((url, init) => {
    if (url.pathname === '/api/admin/backups' && init?.method === 'POST') {
      kept.unshift(TAKEN);
      return json(TAKEN, { status: 201 });
    }
    if (init?.method === 'PATCH') {
      const body = JSON.parse(String(init.body)) as Partial<AdminUser>;
      patches.push({ url: url.pathname, body });
      if (opts.patchStatus) return json({ code: 'conflict', message: 'The last admin cannot be demoted or disabled' }, { status: opts.patchStatus });
      const id = url.pathname.split('/').at(-1);
      people = people.map((p) => (p.id === id ? { ...p, ...body } : p));
      return json(people.find((p) => p.id === id));
    }
    switch (url.pathname) {
      case '/api/admin/system-status':
        return json({
          database: { status: 'connected', responseTime: 1.5, kind: opts.database ?? 'embedded' },
          api: { status: 'operational', endpoints: 88 },
          websocket: { status: 'active', connections: 3 },
          scraping: { status: 'running', lastRun: '2026-11-18T19:00:00Z', lastResult: 'success', lastSource: 'City calendar', sources: 11, failing: opts.failing ?? 0, leftOut: opts.leftOut ?? 0, held: opts.held ?? 0 },
          ai: { status: 'operational', model: 'Built-in engines (offline)' },
        });
      case '/api/events/stats':
        return json({ totalEvents: 987, todayEvents: 4, activeSources: 9, coverage: 80 });
      case '/api/admin/overview':
        return json({ totalEvents: 1234, activeUsers7d: 56, pendingEvents: opts.pending ?? 0, openDuplicates: opts.duplicates ?? 0 });
      case '/api/admin/backups':
        return json({ scheduled: true, dir: '/srv/townbeat/data/backups', everyHours: 24, keepDays: 7, next: '2026-11-27T12:00:00.000Z', lastError: opts.backupError ?? null, backups: [...kept] });
      case '/api/deployment/security':
        return json({ securityScore: opts.score ?? 91, checklist: [{ item: 'Security headers sent', status: 'pass', detail: 'A live answer carries them' }, { item: 'TLS to the database', status: 'n/a', detail: 'Embedded' }] });
      case '/api/admin/audit':
        return json({ entries: [{ id: 1, at: '2026-11-18T19:00:00Z', actorId: 'a1', actorEmail: 'ada@example.test', action: 'POST /api/admin/events/:id/approve', target: 'event:e1', result: 'ok', detail: { status: 200 } }] });
      case '/api/admin/users': {
        const s = url.searchParams.get('search') ?? '';
        const found = people.filter((p) => p.email.includes(s));
        return json({ users: found, total: found.length });
      }
      case '/api/admin/user-activities':
        return json({ activities: [], total: 0 });
      case '/api/admin/ai-status':
        return json({
          model: 'Built-in event classifier',
          accuracy: 0.873,
          macroF1: 0.85,
          evaluatedOn: 'held-out set',
          llm: null,
          features: [{ feature: 'ocr', label: 'Flyer reading (OCR)', engine: 'built-in', model: 'tesseract', latencyMs: 812.5, calls: 4, failures: 0, lastUsedAt: null }],
        });
    }
    return undefined;
  });
  return { fetch, patches };
}

/** Radix tabs switch on mouse down (keyboard: arrows), not on click. */
const openTab = (name: string) => fireEvent.mouseDown(screen.getByRole('tab', { name }), { button: 0 });

describe('AdminDashboardPage', { timeout: 30_000 }, () => {
  it('shows the five tabs and the overview cards with the recent admin activity', async () => {
    api();
    renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Overview', 'Analytics', 'Users', 'AI Systems', 'Security']);
    // Total Events is what is listed now, as on the Admin Dashboard; all approved ones, past included, beside it.
    await waitFor(() => expect(screen.getByTestId('card-total-events').textContent).toBe('Total Events987Listed now · 1,234 approved in all, past and removed ones included'));
    expect(screen.getByText('56')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('card-system-status').textContent).toContain('Operational'));
    expect(screen.getByTestId('card-system-status').textContent).toContain('88 endpoints');
    await waitFor(() => expect(screen.getByTestId('card-security-score').textContent).toContain('91 / 100'));
    expect(await screen.findByText('approve event')).toBeTruthy();
    // Every source's last run went well, nothing waits for a decision: nothing asks for a look.
    expect(screen.queryByTestId('sources-attention')).toBeNull();
    expect(screen.queryByTestId('awaiting-decision')).toBeNull();
  });

  it('says how many events wait for review and duplicates for a decision, and Review them opens the dashboard', async () => {
    api({ pending: 232, duplicates: 1 });
    const open = vi.fn();
    renderApp(
      <OpenAdminDashboardContext.Provider value={open}>
        <AdminDashboardPage />
      </OpenAdminDashboardContext.Provider>,
      { path: '/admin', user: ME },
    );
    const line = await screen.findByTestId('awaiting-decision');
    expect(line.textContent).toBe('232 events wait for review · 1 possible duplicate to decide.Review them');
    fireEvent.click(within(line).getByRole('button', { name: 'Review them' }));
    expect(open).toHaveBeenCalledOnce();
    expect(awaitingDecision({ pendingEvents: 1, openDuplicates: 0 })).toEqual(['1 event waits for review']);
    expect(awaitingDecision({ pendingEvents: 0, openDuplicates: 3 })).toEqual(['3 possible duplicates to decide']);
  });

  it('points to the sources whose last run failed, left entries of the feed out or kept events it did not meet', async () => {
    api({ failing: 1, leftOut: 2, held: 1 });
    renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    const line = await screen.findByTestId('sources-attention');
    expect(line.textContent).toBe('1 source of 11 failed its last run · 2 sources could not use some entries of their feed · 1 source missed events in its last run, kept for now.Review sources');
    expect(within(line).getByRole('link', { name: 'Review sources' }).getAttribute('href')).toBe('/admin/sources');
    // Before the cards, so that on a phone (where they stack) it is not below the fold.
    const card = screen.getByTestId('card-system-status');
    expect(line.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('changes a role after confirmation, and shows the server refusal as a toast', async () => {
    const { patches } = api();
    renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    openTab('Users');
    const select = await screen.findByLabelText('Role of mel@example.test');
    fireEvent.change(select, { target: { value: 'vendor' } });
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('goes from User to Vendor');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change role' }));
    await waitFor(() => expect(patches).toEqual([{ url: '/api/admin/users/u1', body: { role: 'vendor' } }]));
    expect(await screen.findByText('mel@example.test is now vendor.')).toBeTruthy();
    // One cannot disable oneself: the button is off on one's own row.
    expect((screen.getByRole('button', { name: 'Disable ada@example.test' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('toasts the reason when the server refuses a change', async () => {
    api({ patchStatus: 409 });
    renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    openTab('Users');
    fireEvent.click(await screen.findByRole('button', { name: 'Disable mel@example.test' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('signed out everywhere');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('The last admin cannot be demoted or disabled')).toBeTruthy();
  });

  it('shows the security score green at 80 or more, and not below', async () => {
    api({ score: 80 });
    const first = renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    openTab('Security');
    expect((await screen.findByTestId('security-score')).getAttribute('data-green')).toBe('true');
    expect(screen.getAllByTestId('security-check')).toHaveLength(2);
    first.unmount();
    api({ score: 79 });
    renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    openTab('Security');
    expect((await screen.findByTestId('security-score')).getAttribute('data-green')).toBe('false');
  });

  it('offers a backup of the embedded database to download, lists those kept, writes one on request, and sends a PostgreSQL server to pg_dump', async () => {
    api();
    const first = renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    openTab('Security');
    const link = await screen.findByRole('link', { name: 'Download a backup' });
    expect(link.getAttribute('href')).toBe('/api/admin/backup');
    expect(link.hasAttribute('download')).toBe(true);
    // The backups the server keeps by itself, each to download, and one written on request.
    expect((await screen.findByTestId('backup-schedule')).textContent).toMatch(/^Every 24 hours into \/srv\/townbeat\/data\/backups, each kept 7 days \(the newest always\)\. Next: /);
    const kept = () => within(screen.getByRole('list', { name: 'Backups kept' })).getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(kept()).toEqual([`/api/admin/backups/${KEPT.name}`]);
    expect(screen.getByRole('list', { name: 'Backups kept' }).textContent).toContain('9.9 MB');
    fireEvent.click(screen.getByRole('button', { name: 'Back up now' }));
    await waitFor(() => expect(kept()).toEqual([`/api/admin/backups/${TAKEN.name}`, `/api/admin/backups/${KEPT.name}`]));
    expect(screen.queryByTestId('backup-error')).toBeNull();
    first.unmount();
    // A scheduled backup that failed is said until one succeeds.
    api({ backupError: '2026-11-27T12:00:00.000Z: ENOSPC: no space left on device' });
    const second = renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    openTab('Security');
    expect((await screen.findByTestId('backup-error')).textContent).toBe('The last scheduled backup failed: 2026-11-27T12:00:00.000Z: ENOSPC: no space left on device');
    second.unmount();
    api({ database: 'postgres' });
    renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    openTab('Security');
    expect(await screen.findByText('This server keeps its data in PostgreSQL (DATABASE_URL): back it up with pg_dump.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download a backup' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Back up now' })).toBeNull();
  });

  it('lists the AI engines and links to the AI console', async () => {
    api();
    renderApp(<AdminDashboardPage />, { path: '/admin', user: ME });
    openTab('AI Systems');
    expect((await screen.findByTestId('classifier-accuracy')).textContent).toBe('87.3%');
    expect(screen.getByTestId('ai-feature-row').textContent).toContain('812.5 ms');
    expect(screen.getByRole('link', { name: /Open AI Console/ }).getAttribute('href')).toBe('/ai-chat');
  });
});

describe('describeAction', () => {
  it('words audit actions for people', () => {
    expect(describeAction('POST /api/admin/events/:id/approve')).toBe('approve event');
    expect(describeAction('PATCH /api/admin/users/:id')).toBe('changed user');
    expect(describeAction('POST /api/admin/sources')).toBe('created source');
    expect(describeAction('GET /api/admin/backup')).toBe('downloaded a backup');
    expect(describeAction('GET /api/admin/backups/:name')).toBe('downloaded a backup');
    expect(describeAction('POST /api/admin/backups')).toBe('took a backup');
    expect(describeAction('DELETE /api/admin/sources/:id')).toBe('deleted source');
    expect(describeAction('POST /api/auth/login')).toBe('signed in');
  });
});
