import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONFIG, renderApp } from '../events/test-helpers.tsx';
import SignupPage from './signup-page.tsx';

describe('SignupPage', { timeout: 30_000 }, () => {
  it('asks a new visitor for a name, email and password, with a way to sign in instead', () => {
    renderApp(<SignupPage />, { path: '/signup' });
    expect(screen.getByRole('button', { name: 'Create account' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });

  it("sends a new visitor to the city's sign-in provider when accounts come from one", () => {
    renderApp(<SignupPage />, { path: '/signup', config: { ...CONFIG, oidc: true } });
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Continue to sign-in' }).getAttribute('href')).toBe('/api/login?returnTo=%2F');
  });
});
