import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AssistantChatResponse } from '../../../contract/assistant.ts';
import { dismissToast } from '../../components/ui/use-toast.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import AdminChatPage from './admin-chat-page.tsx';
import AiConsolePage from './ai-console-page.tsx';
import { ADMIN_CHAT_REDIRECT_MS, AdminChatAuthGate } from './assistant-gates.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => dismissToast());
});

const ADMIN = buildUser({ id: 'a1', role: 'admin' });
const answer = (over: Partial<AssistantChatResponse> = {}): AssistantChatResponse => ({
  response: '3 events waiting for review.',
  commandResult: { count: 3 },
  commandExecuted: true,
  commandType: 'pending_review',
  metadata: { action: 'executed', engine: 'built-in' },
  ...over,
});
const HEALTH = { status: 'operational', health: { metrics: { system: { uptime: 3_723_000 }, storage: { totalEvents: 120, todayEvents: 7, totalUsers: 15 } } } };

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('admin chat', () => {
  it('shows the welcome, sends on Enter with the last 5 messages and the user id, and disables input while pending', async () => {
    const gate = deferred<Response>();
    const bodies: Record<string, unknown>[] = [];
    stubFetch((url, init) => {
      if (url.pathname === '/api/admin/ai-chat') {
        bodies.push(JSON.parse(String(init?.body)));
        return bodies.length === 1 ? gate.promise : json(answer({ response: 'second answer' }));
      }
      return undefined;
    });
    renderApp(<AdminChatPage />, { user: ADMIN });
    expect(screen.getByText(/I'm your AI admin assistant/)).toBeTruthy();
    const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
    // Empty and whitespace-only input is ignored.
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(bodies).toHaveLength(0);
    // Shift-Enter does not send.
    fireEvent.change(box, { target: { value: 'how many events are waiting for review?' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(bodies).toHaveLength(0);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ message: 'how many events are waiting for review?', context: { userId: 'a1', messages: [{ role: 'assistant' }] } });
    expect(screen.getByTestId('chat-pending')).toBeTruthy();
    expect(box.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Send message' }) as HTMLButtonElement).disabled).toBe(true);
    gate.resolve(json(answer()));
    await screen.findByText('3 events waiting for review.');
    expect(box.disabled).toBe(false);
    for (const text of ['two', 'three']) {
      fireEvent.change(box, { target: { value: text } });
      fireEvent.keyDown(box, { key: 'Enter' });
      await waitFor(() => expect(box.disabled).toBe(false));
    }
    const last = bodies.at(-1) as { context: { messages: unknown[] } };
    expect(last.context.messages).toHaveLength(5);
  });

  it('shows what a change would do with Confirm and Cancel; Confirm sends the token', async () => {
    const bodies: Record<string, unknown>[] = [];
    stubFetch((url, init) => {
      if (url.pathname !== '/api/admin/ai-chat') return undefined;
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      bodies.push(body);
      if (body.confirmToken) return json(answer({ response: 'Cache cleared: the events aggregate cache is invalidated.', commandType: 'clear_cache', metadata: { action: 'confirmed', engine: 'built-in' } }));
      return json(answer({ response: 'This would:\n- Clear the events aggregate cache.', commandExecuted: false, commandType: 'clear_cache', commandResult: null, metadata: { action: 'proposed', confirmToken: 'tok-123456789012345678', engine: 'built-in' } }));
    });
    renderApp(<AdminChatPage />, { user: ADMIN });
    const box = screen.getByLabelText('Message');
    fireEvent.change(box, { target: { value: 'clear the events cache' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await screen.findByText(/Cache cleared/);
    expect(bodies.at(-1)).toMatchObject({ confirmToken: 'tok-123456789012345678' });
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
  });

  it('on failure says so in the chat and in a destructive toast titled Error', async () => {
    stubFetch((url) => (url.pathname === '/api/admin/ai-chat' ? json({ code: 'conflict', message: 'This confirmation has expired' }, { status: 409, statusText: 'Conflict' }) : undefined));
    renderApp(<AdminChatPage />, { user: ADMIN });
    const box = screen.getByLabelText('Message');
    fireEvent.change(box, { target: { value: 'status' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await screen.findByText('I encountered an error: This confirmation has expired. Please try again or check your API key settings.');
    expect(screen.getByText('Error')).toBeTruthy();
  });
});

describe('admin chat sign-in gate', () => {
  it("signed out, shows an 'Unauthorized' notice and redirects after 500 ms", async () => {
    expect(ADMIN_CHAT_REDIRECT_MS).toBe(500);
    stubFetch(() => undefined);
    renderApp(
      <AdminChatAuthGate>
        <p>secret chat</p>
      </AdminChatAuthGate>,
      { user: null },
    );
    expect(screen.getByRole('heading', { name: 'Unauthorized' })).toBeTruthy();
    expect(screen.queryByText('secret chat')).toBeNull();
  });
});

describe('AI console', () => {
  it('shows the health panel and sends a quick action with healthData', async () => {
    const bodies: Record<string, unknown>[] = [];
    stubFetch((url, init) => {
      if (url.pathname === '/api/health') return json(HEALTH);
      if (url.pathname === '/api/admin/ai-chat') {
        bodies.push(JSON.parse(String(init?.body)));
        return json(answer({ response: 'System status: operational.', commandType: 'health_check' }));
      }
      return undefined;
    });
    renderApp(<AiConsolePage />, { user: ADMIN });
    expect((await screen.findByTestId('health-status')).textContent).toContain('Operational');
    expect(screen.getByText('1h 2m')).toBeTruthy();
    for (const label of ['System Health Check', 'Database Status', 'Clear Cache', 'Restart Services', 'Emergency Repair', 'View Error Logs']) expect(screen.getByRole('button', { name: label })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'System Health Check' }));
    await screen.findByText('System status: operational.');
    expect(bodies[0]).toMatchObject({ message: 'System health check', context: { healthData: HEALTH } });
  });

  it('on failure adds the system message with HTTP status and status text, and a Chat Error toast', async () => {
    stubFetch((url) => {
      if (url.pathname === '/api/health') return json(HEALTH);
      if (url.pathname === '/api/admin/ai-chat') return json({ code: 'internal', message: 'Internal Server Error' }, { status: 500, statusText: 'Internal Server Error' });
      return undefined;
    });
    renderApp(<AiConsolePage />, { user: ADMIN });
    fireEvent.click(screen.getByRole('button', { name: 'Database Status' }));
    await screen.findByText('Error: HTTP 500: Internal Server Error. Please check your connection and try again.');
    expect(screen.getByText('Chat Error')).toBeTruthy();
  });
});
