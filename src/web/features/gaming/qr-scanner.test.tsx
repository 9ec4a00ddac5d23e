import { act, configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_QR, type QrScanResult } from '../../../contract/gaming.ts';
import { AUTH_USER_KEY } from '../auth/auth.queries.ts';
import { buildUser, json, renderApp, stubFetch } from '../events/test-helpers.tsx';
import { CAMERA_DENIED, cameraErrorMessage, CAMERA_MISSING } from './qr-scanner.tsx';
import { QrScannerModal } from './qr-scanner-modal.tsx';
import QrScannerPage from './qr-scanner-page.tsx';

// Rendering Radix overlays in jsdom can be slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const DEMO = {
  qrData: 'TB1.demo.signed',
  kind: 'demo',
  targetId: DEMO_QR.targetId,
  name: DEMO_QR.name,
  points: 15,
  issuedAt: new Date().toISOString(),
  expiresAt: null,
  isDemo: true,
  alreadyScanned: false,
};
const RESULT: QrScanResult = { type: 'demo', targetId: DEMO_QR.targetId, name: DEMO_QR.name, points: 15, bonus: 0, isDemo: true, totalPoints: 15, newBadges: [], message: 'Demo code scanned. +15 points.' };

function denyCamera(name = 'NotAllowedError') {
  const getUserMedia = vi.fn(() => Promise.reject(new DOMException('Permission denied', name)));
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { mediaDevices: { getUserMedia } }));
  return getUserMedia;
}

describe('cameraErrorMessage', { timeout: 20_000 }, () => {
  it('reads the getUserMedia error names', () => {
    expect(cameraErrorMessage(new DOMException('x', 'NotAllowedError'))).toBe(CAMERA_DENIED);
    expect(cameraErrorMessage({ name: 'SecurityError' })).toBe(CAMERA_DENIED);
    expect(cameraErrorMessage(new DOMException('x', 'NotFoundError'))).toBe(CAMERA_MISSING);
  });
});

describe('QR scanner', { timeout: 20_000 }, () => {
  it('says so when the camera is denied, asking for the rear camera', async () => {
    stubFetch(() => undefined);
    const getUserMedia = denyCamera();
    renderApp(<QrScannerModal open onOpenChange={() => undefined} />, { user: buildUser() });
    fireEvent.click(screen.getByRole('button', { name: 'Start Scanning' }));
    expect((await screen.findByRole('alert')).textContent).toBe(CAMERA_DENIED);
    expect(getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });
    // Back to idle: the user may try again.
    expect(screen.getByRole('button', { name: 'Start Scanning' })).toBeTruthy();
  });

  it('runs the demo: 2 s of scanning, then the sample event worth 15 points, and the chip follows', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const scans: unknown[] = [];
    stubFetch((url, init) => {
      if (url.pathname === '/api/gaming/qr-demo') return json(DEMO);
      if (url.pathname === '/api/gaming/qr-scan' && init?.method === 'POST') {
        scans.push(JSON.parse(String(init.body)));
        return scans.length === 1 ? json(RESULT) : json({ code: 'conflict', message: 'You already scanned this QR code' }, { status: 409 });
      }
      return undefined;
    });
    const { client } = renderApp(<QrScannerPage />, { user: buildUser({ points: 0 }) });
    expect(screen.getByRole('heading', { level: 1, name: 'QR Scanner' })).toBeTruthy();
    expect(screen.getByText('Demo')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Try a demo code' }));
    expect(screen.getByTestId('qr-demo-scanning').textContent).toContain('Scanning…');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(DEMO_QR.scanMs - 200);
    });
    // (The fake clock also follows real time a little, hence the margin.)
    expect(scans).toHaveLength(0);
    expect(screen.getByTestId('qr-demo-scanning')).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(await screen.findByRole('heading', { name: 'Scan Successful!' })).toBeTruthy();
    expect(scans).toEqual([{ qrData: DEMO.qrData }]);
    expect(screen.getByTestId('qr-result').textContent).toContain(DEMO_QR.name);
    expect(screen.getByTestId('qr-points').textContent).toBe('+15');
    expect(screen.getByTestId('qr-bonus').textContent).toBe('+0');
    expect(client.getQueryData<{ points: number }>(AUTH_USER_KEY)?.points).toBe(15);

    // Scan Another returns to idle; a second demo answers with the server's message.
    fireEvent.click(screen.getByRole('button', { name: 'Scan Another' }));
    fireEvent.click(screen.getByRole('button', { name: 'Try a demo code' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(DEMO_QR.scanMs);
    });
    await waitFor(() => expect(screen.getByTestId('qr-error').textContent).toBe('You already scanned this QR code'));
  });

  it('shows the generic failure for a server error', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubFetch((url) => {
      if (url.pathname === '/api/gaming/qr-demo') return json(DEMO);
      if (url.pathname === '/api/gaming/qr-scan') return json({ code: 'internal', message: 'Internal Server Error' }, { status: 500 });
      return undefined;
    });
    renderApp(<QrScannerPage />, { user: buildUser() });
    fireEvent.click(screen.getByRole('button', { name: 'Try a demo code' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(DEMO_QR.scanMs);
    });
    await waitFor(() => expect(screen.getByTestId('qr-error').textContent).toBe('Failed to process QR scan'));
  });

  it('has no demo in the modal, and the modal closes with its scanner', () => {
    stubFetch(() => undefined);
    renderApp(<QrScannerModal open onOpenChange={() => undefined} />, { user: buildUser() });
    expect(screen.getByRole('dialog', { name: 'Scan QR Code' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try a demo code' })).toBeNull();
  });
});
