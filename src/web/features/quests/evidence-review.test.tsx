import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PendingEvidence } from '../../../contract/quests.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { EvidenceReview } from './evidence-review.tsx';

afterEach(() => vi.unstubAllGlobals());

const ADMIN = buildUser({ id: 'a1', role: 'admin' });
const photo = (i: number): PendingEvidence => ({ id: `c${i}`, nodeId: `n${i}`, nodeName: `Mural ${i}`, userId: 'u1', userName: 'Pat Player', distanceM: 12, submittedAt: new Date(Date.UTC(2026, 10, 20, 12, i)).toISOString() });

describe('EvidenceReview', () => {
  it('says how many photos wait in all when the list holds only the oldest', async () => {
    stubFetch((url) => (url.pathname === '/api/admin/hunt/evidence' ? json({ evidence: [photo(1), photo(2)], total: 140 }) : undefined));
    renderApp(<EvidenceReview />, { user: ADMIN });
    expect(await screen.findByRole('img', { name: 'Photo for Mural 1 by Pat Player' })).toBeTruthy();
    expect(screen.getByTestId('evidence-more').textContent).toBe('140 photos are waiting: here are the oldest 2, and the next ones follow as you decide these.');
    // How far from the node the photo was sent, in the city's unit (miles, so feet up close).
    expect(screen.getByText('Mural 1').parentElement!.textContent).toBe('Mural 1 by Pat Player · 39 ft away');
  });

  it('says nothing more when the list holds every photo waiting', async () => {
    stubFetch((url) => (url.pathname === '/api/admin/hunt/evidence' ? json({ evidence: [photo(1)], total: 1 }) : undefined));
    renderApp(<EvidenceReview />, { user: ADMIN });
    expect(await screen.findByRole('button', { name: 'Accept' })).toBeTruthy();
    expect(screen.queryByTestId('evidence-more')).toBeNull();
  });
});
